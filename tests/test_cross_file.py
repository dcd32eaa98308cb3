"""References between inputs: one class per target, imported where used, cycles refused."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from golden import ROOT

COMMON = {"definitions": {
    "Money": {"type": "object", "required": ["amount"],
              "properties": {"amount": {"type": "string"}, "currency": {"$ref": "#/definitions/Currency"}}},
    "Currency": {"type": "string", "enum": ["EUR", "USD"]},
}}
ORDER = {"title": "Order", "type": "object", "required": ["total"], "properties": {
    "total": {"$ref": "common.json#/definitions/Money"},
    "currency": {"$ref": "./common.json#/definitions/Currency"},
    "lines": {"type": "array", "items": {"$ref": "common.json#/definitions/Money"}},
}}


def generate(project: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "schemagen", "--project", str(project), "generate"],
                          capture_output=True, text=True, env={"PYTHONPATH": str(ROOT), "PATH": "",
                                                        "SCHEMAGEN_CACHE_DIR": os.environ["SCHEMAGEN_CACHE_DIR"]})


def run_python(project: Path, imports: str, check: str) -> None:
    """Decode an order with the generated msgspec models of ``project`` (as ``x``), then ``check``."""
    code = "\n".join(["import msgspec, generated.order.msgspec_models as o", imports,
                      "x = msgspec.json.decode(b'{\"total\": {\"amount\": \"1\", \"currency\": \"USD\"}}', type=o.Order)",
                      check])
    done = subprocess.run([sys.executable, "-c", code], cwd=project, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def write(project: Path, **schemas: object) -> None:
    (project / "schemas").mkdir(exist_ok=True)
    for name, schema in schemas.items():
        (project / "schemas" / f"{name}.json").write_text(json.dumps(schema))


def test_a_reference_to_another_input_imports_its_class(tmp_path: Path) -> None:
    write(tmp_path, common=COMMON, order=ORDER)
    result = generate(tmp_path)
    assert result.returncode == 0, result.stderr
    order = (tmp_path / "generated" / "order" / "msgspec_models.py").read_text()
    assert "from ..common import msgspec_models as _common" in order
    assert "total: _common.Money" in order and "class Money" not in order
    run_python(tmp_path, "import generated.common.msgspec_models as c", "assert type(x.total) is c.Money")
    proc = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--config-file", "",
                           "-p", "generated"], cwd=tmp_path, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout


@pytest.mark.parametrize(("schemas", "message"), [
    ({"a": {"title": "A", "type": "object", "properties": {"b": {"$ref": "b.json#/definitions/B"}}},
      "b": {"definitions": {"B": {"type": "object", "properties": {"a": {"$ref": "a.json"}}}}}},
     "inputs refer to each other in a cycle: schemas/a.json -> schemas/b.json -> schemas/a.json"),
    ({"a": {"title": "A", "type": "object", "properties": {"x": {"$ref": "../outside.json#/definitions/X"}}}},
     "'outside.json' is outside the schema folder: it is not read"),
    ({"a": {"title": "A", "type": "object", "properties": {"x": {"$ref": "../../schemas/b.json#/definitions/B"}}},
      "b": {"definitions": {"B": {"type": "string"}}}},  # above the project root: not this project's b.json
     "'../schemas/b.json' is outside the schema folder: it is not read"),
    ({"a": {"title": "A", "type": "object", "properties": {"x": {"$ref": "b.json#/definitions/Nope"}}},
      "b": {"definitions": {"B": {"type": "string"}}}},
     "'schemas/b.json' declares nothing at #/definitions/Nope"),
])
def test_bad_references_between_inputs_are_clear_errors(tmp_path: Path, schemas: dict[str, object], message: str) -> None:
    write(tmp_path, **schemas)
    result = generate(tmp_path)
    assert result.returncode == 1 and message in result.stderr, result.stderr
    assert "Traceback" not in result.stderr and not (tmp_path / "generated").exists()


# --- files inside the schema folder that are not inputs: what is needed is copied in --------------


def test_a_file_that_is_no_input_gives_its_definitions_to_the_referring_module(tmp_path: Path) -> None:
    write(tmp_path, common=COMMON, order=ORDER)
    (tmp_path / "pyproject.toml").write_text('[tool.schemagen]\n[[tool.schemagen.inputs]]\npath = "schemas/order.json"\n')
    result = generate(tmp_path)
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in (tmp_path / "generated").iterdir()) == ["__init__.py", "_runtime.py", "order",
                                                                          "py.typed"]
    order = (tmp_path / "generated" / "order" / "msgspec_models.py").read_text()
    assert "class Money" in order and "Currency = Literal" in order and "from .." not in order
    run_python(tmp_path, "", "assert type(x.total) is o.Money and x.total.currency == 'USD'")


def test_only_what_is_referred_to_is_copied_and_pointers_and_back_references_resolve(tmp_path: Path) -> None:
    shared = {
        "definitions": {
            "Used": {"type": "object", "properties": {"next": {"$ref": "third.json#/definitions/Leaf"},
                                                      "back": {"$ref": "main.json#/definitions/Home"}}},
            "Unused": {"type": "object", "properties": {"x": {"type": "integer"}}},
        },
        "properties": {"inner": {"type": "object", "title": "Inner", "properties": {"y": {"type": "string"}}}},
    }
    main = {"title": "Main", "type": "object", "properties": {
        "used": {"$ref": "shared.json#/definitions/Used"},
        "inner": {"$ref": "shared.json#/properties/inner"}},
        "definitions": {"Home": {"type": "string", "enum": ["h"]}}}
    write(tmp_path, main=main, shared=shared, third={"definitions": {"Leaf": {"type": "boolean"}}})
    (tmp_path / "pyproject.toml").write_text('[tool.schemagen]\n[[tool.schemagen.inputs]]\npath = "schemas/main.json"\n')
    result = generate(tmp_path)
    assert result.returncode == 0, result.stderr
    source = (tmp_path / "generated" / "main" / "dataclass_models.py").read_text()
    assert "class Used" in source and "class Inner" in source and "Unused" not in source
    assert "Leaf = bool" in source and "next: Leaf | None" in source
    assert source.count("Home = Literal") == 1 and "back: Home | None" in source


def test_a_broken_file_that_is_no_input_is_reported_at_its_own_place(tmp_path: Path) -> None:
    write(tmp_path, main={"title": "Main", "type": "object", "properties": {"a": {"$ref": "lib.json#/definitions/A"}}})
    (tmp_path / "schemas" / "lib.json").write_text('{"definitions": {"A": {"type": "strng"}}}')
    (tmp_path / "pyproject.toml").write_text('[tool.schemagen]\n[[tool.schemagen.inputs]]\npath = "schemas/main.json"\n')
    result = generate(tmp_path)
    assert result.returncode == 1 and "schemas/lib.json" in result.stderr and "#/definitions/A/type" in result.stderr, \
        result.stderr
    assert "Traceback" not in result.stderr


def test_the_schema_folder_stands_for_the_folder_of_the_root_id(tmp_path: Path) -> None:
    """``$id: https://example.com/s/a.json``: ``b.json`` and ``https://example.com/s/b.json`` are the
    file beside it; a URL elsewhere stays remote (refused, never fetched)."""
    a = {"$id": "https://example.com/s/a.json", "title": "A", "type": "object", "properties": {
        "b": {"$ref": "b.json#/definitions/B"}, "c": {"$ref": "https://example.com/s/b.json#/definitions/B"}}}
    write(tmp_path, a=a, b={"$id": "https://example.com/s/b.json", "definitions": {"B": {"type": "integer"}}})
    (tmp_path / "pyproject.toml").write_text('[tool.schemagen]\n[[tool.schemagen.inputs]]\npath = "schemas/a.json"\n')
    result = generate(tmp_path)
    assert result.returncode == 0, result.stderr
    source = (tmp_path / "generated" / "a" / "typeddict_models.py").read_text()
    assert "B = int" in source and "b: NotRequired[\"B\"]" in source and "c: NotRequired[\"B\"]" in source
    a["properties"]["d"] = {"$ref": "https://example.org/s/b.json#/definitions/B"}  # type: ignore[index]
    write(tmp_path, a=a)
    result = generate(tmp_path)
    assert result.returncode == 1 and "unresolved reference 'https://example.org/s/b.json#/definitions/B'" in result.stderr


def test_a_pointer_into_a_draft_07_tuple_finds_its_item(tmp_path: Path) -> None:
    schema = {"$schema": "http://json-schema.org/draft-07/schema#", "title": "T", "type": "object",
              "definitions": {"pair": {"type": "array", "items": [{"type": "string", "enum": ["x"]}, {"type": "integer"}],
                                       "additionalItems": {"type": "boolean"}}},
              "properties": {"first": {"$ref": "#/definitions/pair/items/0"},
                             "rest": {"$ref": "#/definitions/pair/additionalItems"}}}
    write(tmp_path, t=schema)
    result = generate(tmp_path)
    assert result.returncode == 0, result.stderr
    source = (tmp_path / "generated" / "t" / "dataclass_models.py").read_text()
    assert "first: Model0 | None" in source and 'Model0 = Literal["x"]' in source
    assert "rest: AdditionalItems | None" in source and "AdditionalItems = bool" in source


def test_a_definition_copied_only_to_be_folded_into_another_is_not_declared(tmp_path: Path) -> None:
    """``Full = allOf [Base, …]``: ``Base`` is copied to be merged into ``Full``; nothing refers to it as a type."""
    shared = {"definitions": {
        "Base": {"type": "object", "required": ["id"], "properties": {"id": {"type": "integer"}}},
        "Full": {"allOf": [{"$ref": "#/definitions/Base"}, {"properties": {"name": {"type": "string"}}}]}}}
    main = {"title": "Main", "type": "object", "properties": {"full": {"$ref": "shared.json#/definitions/Full"}}}
    write(tmp_path, main=main, shared=shared)
    (tmp_path / "pyproject.toml").write_text('[tool.schemagen]\n[[tool.schemagen.inputs]]\npath = "schemas/main.json"\n')
    result = generate(tmp_path)
    assert result.returncode == 0, result.stderr
    source = (tmp_path / "generated" / "main" / "dataclass_models.py").read_text()
    assert "class Full" in source and "    id: int" in source and "class Base" not in source


# --- a file whose root constrains nothing is `Any`, as `{}` is --------------------------------------

SAYS_NOTHING = [{"$schema": "http://json-schema.org/draft-07/schema#"}, {"additionalItems": False}, {},
                {"definitions": {"Unused": {"type": "string"}}}]
USES = {"title": "Main", "type": "object", "required": ["x"], "properties": {
    "x": {"$ref": "empty.json"}, "y": {"allOf": [{"$ref": "./empty.json#"}, {"type": "integer"}]}}}


@pytest.mark.parametrize("empty", SAYS_NOTHING)
@pytest.mark.parametrize("listed", [False, True], ids=["input", "no input"])
def test_a_reference_to_a_file_whose_root_constrains_nothing_is_any(tmp_path: Path, empty: object,
                                                                    listed: bool) -> None:
    from test_cli import run

    write(tmp_path, main=USES, empty=empty)
    if listed:  # only main.json is an input: what empty.json holds is read for the reference
        (tmp_path / "pyproject.toml").write_text('[tool.schemagen]\n[[tool.schemagen.inputs]]\npath = "schemas/main.json"\n')
    result = generate(tmp_path)
    assert result.returncode == 0 and result.stderr.startswith("generated/: "), result.stderr
    models = (tmp_path / "generated" / "main" / "msgspec_models.py").read_text()
    assert "    x: Any\n    y: int | UnsetType = UNSET\n" in models and "_empty" not in models
    rendered = run(tmp_path, "render", "schemas/main.json", "--variant", "msgspec")
    assert rendered.returncode == 0 and rendered.stdout == models, rendered.stderr
    ir = run(tmp_path, "ir", "schemas/main.json")
    assert ir.returncode == 0 and json.loads(ir.stdout)["declarations"][0]["fields"][0]["type"] == {"node": "AnyType"}


@pytest.mark.parametrize("empty", SAYS_NOTHING[:3])  # (the last declares its definition)
def test_an_input_whose_root_constrains_nothing_is_read_as_an_empty_schema_is(tmp_path: Path, empty: object) -> None:
    from test_cli import run

    write(tmp_path, empty=empty, brace={})
    assert generate(tmp_path).returncode == 0
    for variant in ("dataclass", "typeddict", "msgspec"):
        names = [(tmp_path / "generated" / stem / f"{variant}_models.py").read_text().replace(stem, "_")
                 for stem in ("empty", "brace")]
        assert names[0] == names[1]
    assert run(tmp_path, "ir", "schemas/empty.json").stdout == run(tmp_path, "ir", "schemas/brace.json").stdout


def test_a_reference_to_the_root_of_its_own_document_that_constrains_nothing_is_any(tmp_path: Path) -> None:
    write(tmp_path, tree={"$schema": "http://json-schema.org/draft-07/schema#", "definitions": {
        "Node": {"type": "object", "properties": {"anything": {"$ref": "#"}}}}})
    result = generate(tmp_path)
    assert result.returncode == 0, result.stderr
    assert "    anything: Any | UnsetType = UNSET\n" in (tmp_path / "generated" / "tree" / "msgspec_models.py").read_text()


@pytest.mark.parametrize("listed", [False, True], ids=["input", "no input"])
def test_a_pointer_a_schema_file_does_not_hold_is_not_called_no_schema_file(tmp_path: Path, listed: bool) -> None:
    write(tmp_path, a={"title": "A", "type": "object", "properties": {"x": {"$ref": "b.json#/definitions/Nope"}}},
          b={"definitions": {"B": {"type": "string"}}})
    if listed:
        (tmp_path / "pyproject.toml").write_text('[tool.schemagen]\n[[tool.schemagen.inputs]]\npath = "schemas/a.json"\n')
    result = generate(tmp_path)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr == ("schemas/a.json:1:63: #/properties/x/$ref: 'schemas/b.json' declares nothing at "
                             "#/definitions/Nope - refer to one of its definitions\n")
