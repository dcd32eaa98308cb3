"""Field names: a field keeps its key unless keeping it breaks the module, and each name reserved shows why.

A field is a class attribute: it shadows a name inside its class body, and in the annotations,
which are read in the class's namespace (``typing.get_type_hints``, msgspec, dataclasses). So only
the names a class body or its annotations use are reserved, and the classes a model's own
annotations name: ``annotations``, ``TypedDict`` or another component's name stay as they are.
"""

from __future__ import annotations

import json
import keyword
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
import pytest
from mypy import api

from schemagen import render
from schemagen.diagnostics import Reporter
from schemagen.names import FIELD_RESERVED
from schemagen.passes import naming
from schemagen.project.inputs import Input
from schemagen.project.pipeline import to_ir
from conftest import bench_module, output_package

exec_module, forget_module = bench_module("modules").exec_module, bench_module("modules").forget_module


def _source(tmp_path: Path, schema: dict[str, Any], variant: str) -> str:
    path = tmp_path / "schema.json"
    path.write_text(json.dumps(schema))
    module = to_ir(Input("x", path, "schema.json"), tmp_path, Reporter())
    return render.render(module, variant, "schema.json", render.environment())


def _model(properties: dict[str, Any], **definitions: Any) -> dict[str, Any]:
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "M", "type": "object",
            "properties": properties, "$defs": definitions}


OTHER = {"type": "object", "properties": {"x": {"type": "string"}}}


def test_names_only_the_module_level_uses_are_kept(tmp_path: Path) -> None:
    """``annotations`` (OpenAI's message has it), ``self`` (dataclasses and msgspec take it), ``Meta``
    (in ``Annotated``'s metadata, which no one reads as a type), the names of imports and bases, and
    a class the model does not name: valid fields, kept as the wire has them."""
    keys = ["annotations", "self", "Meta", "TypedDict", "dataclass", "dataclasses", "msgspec", "Struct", "typing",
            "Other"]
    schema = _model({k: {"type": "string"} for k in keys} | {"other": {"$ref": "#/$defs/Unrelated"}},
                    Unrelated=OTHER, Other=OTHER)
    for variant in ("dataclass", "msgspec"):
        source = _source(tmp_path, schema, variant)
        for key in keys:
            assert f"\n    {key}: str" in source, (variant, key, source)
    module = exec_module(_source(tmp_path, schema, "msgspec"))
    try:
        value = msgspec.json.decode(json.dumps({k: k for k in keys}), type=module.M)
        assert [getattr(value, k) for k in keys] == keys
    finally:
        forget_module(module)


#: For each reserved name: the other field whose annotation or default uses it.
USES: dict[str, dict[str, Any]] = {
    "str": {"type": "string"},
    "int": {"type": "integer"},
    "float": {"type": "number"},
    "bool": {"type": "boolean"},
    "list": {"type": "array", "items": {"type": "string"}},
    "dict": {"type": "object", "additionalProperties": {"type": "integer"}},
    "tuple": {"type": "array", "prefixItems": [{"type": "string"}], "items": False, "minItems": 1},
    "Any": {"type": "object"},
    "Annotated": {"type": "string", "minLength": 1},
    "Literal": {"enum": ["a", "b"]},
    "UNSET": {"type": "string"},
    "UnsetType": {"type": "string"},
    "field": {"type": "array", "items": {"type": "string"}, "default": []},
    "Other": {"$ref": "#/$defs/Other"},
    "from_dict": {"type": "string"},  # the dataclass variant's methods: a field would hide them
    "to_dict": {"type": "string"},
}
SAMPLES = {"str": "s", "int": 1, "float": 1.5, "bool": True, "list": ["s"], "dict": {"k": 1}, "tuple": ["s"],
           "Any": {"k": 1}, "Annotated": "s", "Literal": "a", "UNSET": "s", "UnsetType": "s",
           "field": ["s"], "Other": {"x": "s"}, "from_dict": "s", "to_dict": "s"}


def test_every_reserved_name_has_its_case() -> None:
    assert set(USES) == (FIELD_RESERVED - set(keyword.kwlist) - {"mro"}) | {"Other"}  # mro: its own test below


@pytest.mark.parametrize("how", ["renamed", "kept"])
def test_a_required_field_named_mro_is_required(tmp_path: Path, how: str) -> None:
    """``dataclasses`` reads a field's default as ``getattr(cls, name)``, and every class has ``mro``
    from ``type``: kept as the wire has it, a required ``mro`` defaulted to that method, so
    ``from_dict({})`` passed (the dataclass fuzz test found it). Renamed ``mro_``, it is required."""
    schema = _model({"mro": {"type": "string"}}) | {"required": ["mro"]}
    with pytest.MonkeyPatch.context() as patch:
        if how == "kept":
            patch.setattr(naming, "FIELD_RESERVED", FIELD_RESERVED - {"mro"})
        module = exec_module(_source(tmp_path, schema, "dataclass"))
    try:
        assert module.M.from_dict({"mro": "x"}).to_dict() == {"mro": "x"}
        if how == "kept":
            assert callable(module.M.from_dict({}).mro)  # the break
        else:
            with pytest.raises(module.DecodeError, match="Object missing required field `mro`"):
                module.M.from_dict({})
    finally:
        forget_module(module)


@dataclass
class Case:
    """The modules of one reserved name's model, renamed as the generator does and kept as the wire has it."""

    sources: dict[tuple[str, str], str]
    """``(how, variant)`` → source; ``how`` is ``renamed`` or ``kept``."""
    runtime: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    mypy: dict[tuple[str, str], list[str]] = field(default_factory=dict)

    def failures(self, how: str) -> list[str]:
        return [f"{variant}: {problem}" for (h, variant), problems in {**self.runtime, **self.mypy}.items()
                if h == how for problem in problems]


def _schema(name: str) -> dict[str, Any]:
    """A model with a field ``name`` (with a default: a class attribute) beside a field that uses that name."""
    return _model({name: {"type": "string", "default": "shadow"}, "other": USES[name]}, Other=OTHER)


def _runtime(source: str, name: str) -> list[str]:
    try:
        module = exec_module(source)
    except Exception as exc:  # noqa: BLE001 - any failure is the break looked for
        return [f"import: {exc!r}"]
    try:
        empty, full = msgspec.convert({}, module.M), msgspec.convert({"other": SAMPLES[name]}, module.M)
        read = msgspec.to_builtins(full.other)
        read = list(read) if isinstance(read, tuple) else read
        problems = [] if read == SAMPLES[name] else [f"read {read!r}"]
        if hasattr(module, "SchemagenModel"):  # the dataclass variant reads and writes JSON itself too
            written = module.M.from_dict({"other": SAMPLES[name]}).to_dict()["other"]
            written = list(written) if isinstance(written, tuple) else written
            problems += [] if written == SAMPLES[name] else [f"from_dict/to_dict {written!r}"]
        return problems + ([] if empty.other in (None, msgspec.UNSET, []) else [f"default {empty.other!r}"])
    except Exception as exc:  # noqa: BLE001
        return [f"decode: {exc!r}"]
    finally:
        forget_module(module)


@pytest.fixture(scope="module")
def cases(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Case]:
    """Every reserved name's modules, run, and type-checked by one ``mypy --strict`` over all of them."""
    folder = tmp_path_factory.mktemp("field_names")
    found: dict[str, Case] = {}
    for name in USES:
        sources = {}
        for how in ("renamed", "kept"):
            with pytest.MonkeyPatch.context() as patch:
                if how == "kept" and name == "Other":
                    patch.setattr(naming, "Both", lambda large, small: large)  # the model's own names not reserved
                elif how == "kept":
                    patch.setattr(naming, "FIELD_RESERVED", FIELD_RESERVED - {name})
                for variant in ("dataclass", "msgspec"):
                    sources[how, variant] = _source(folder, _schema(name), variant)
        found[name] = Case(sources, {key: _runtime(text, name) for key, text in sources.items()})
    files = {}
    modules = output_package(folder) / "m"  # with the converter its dataclass modules import
    modules.mkdir()
    (modules / "__init__.py").write_text("")
    for name, case in found.items():
        for (how, variant), text in case.sources.items():
            path = modules / f"m_{name.lower()}_{how}_{variant}.py"
            path.write_text(text)
            files[path.name] = (name, how, variant)
    stdout, _, _ = api.run(["--strict", "--no-incremental", "--config-file", "", *map(str, modules.glob("m_*.py"))])
    for line in stdout.splitlines():
        file = Path(line.split(":", 1)[0]).name
        if file in files and ": error:" in line:
            name, how, variant = files[file]
            found[name].mypy.setdefault((how, variant), []).append("mypy: " + line.split(": error: ", 1)[1])
    return found


@pytest.mark.parametrize("name", sorted(USES))
def test_each_reserved_name_breaks_the_module_when_kept(cases: dict[str, Case], name: str) -> None:
    case = cases[name]
    assert case.failures("renamed") == []  # renamed (`str_`), the module works and type-checks
    assert case.failures("kept") != []  # kept, it breaks: at import, when decoding, or for mypy
