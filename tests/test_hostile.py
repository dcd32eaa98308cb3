"""Hostile schemas give inert code: strings from a schema reach a module only as safe literals.

Names, descriptions, titles, enum values, defaults and ``$id``s full of quotes, backslashes,
control characters, template syntax and Python code must give modules that compile, import
without side effects, and keep every value exactly.
"""

from __future__ import annotations

import importlib
import inspect
import json
import subprocess
import sys
import typing
from pathlib import Path

import msgspec
import pytest

from conftest import output_package
from schemagen import render
from schemagen.diagnostics import Reporter
from schemagen.project.config import ALL_VARIANTS
from schemagen.project.inputs import Input
from schemagen.project.pipeline import to_ir

CANARY = "/tmp/schemagen-hostile-canary"
HOSTILE = [
    f'"""; import os; os.system("touch {CANARY}") #',
    f"__import__('os').system('touch {CANARY}')",
    "back\\slash\\", "\\\"'''", "'", '"', "nul\x00here", "cr\r\nlf", "line\u2028sep\u2029", "esc\x1b[31m",
    "{{ 7*7 }} {% if 1 %}x{% endif %}", "tab\there", "\\N{BULLET}\\x41", "ünïcødé", "",
]


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("hostile")
    schema = {
        "$id": "https://example.com/" + HOSTILE[0], "title": HOSTILE[0], "description": HOSTILE[0],
        "type": "object",
        "properties": {h: {"type": "string", "description": h, "title": h, "default": h, "enum": [h, "ok"]}
                       for h in HOSTILE},
        "definitions": {h or "empty": {"type": "string", "enum": [h], "description": h} for h in HOSTILE},
    }
    path = root / "hostile.json"
    path.write_text(json.dumps(schema))
    module = to_ir(Input("hostile", path, "hostile.json"), root, Reporter())
    target = output_package(root, "hostile_out") / "hostile_models"
    target.mkdir()
    (target / "__init__.py").write_text("")
    for variant in ALL_VARIANTS:
        (target / f"{variant}_models.py").write_text(render.render(module, variant, HOSTILE[0], render.environment()))
    return root


def test_modules_import_without_side_effects(package: Path) -> None:
    Path(CANARY).unlink(missing_ok=True)
    code = ("import hostile_out.hostile_models.dataclass_models, hostile_out.hostile_models.typeddict_models, "
            "hostile_out.hostile_models.msgspec_models")
    result = subprocess.run([sys.executable, "-c", code], cwd=package, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert not Path(CANARY).exists()


def _load(package: Path, variant: str):  # type: ignore[no-untyped-def]
    if str(package) not in sys.path:
        sys.path.insert(0, str(package))
    return importlib.import_module(f"hostile_out.hostile_models.{variant}_models")


def _root(module: object) -> type:
    return next(v for v in vars(module).values() if inspect.isclass(v) and v.__module__ == module.__name__  # type: ignore[attr-defined]
                and ("Touch" in v.__name__ or "touch" in v.__name__))


def test_enum_values_and_defaults_are_exact(package: Path) -> None:
    m = _load(package, "msgspec")
    root = _root(m)
    hints = typing.get_type_hints(root, include_extras=True)
    literals = {v for hint in hints.values() for v in typing.get_args(hint) if isinstance(v, str)}
    assert set(HOSTILE) - {h for h in HOSTILE if not _portable(h)} <= literals
    for f in msgspec.structs.fields(root):
        assert f.default == f.encode_name  # the default of each property is its own key


def test_wire_names_round_trip(package: Path) -> None:
    m = _load(package, "msgspec")
    root = _root(m)
    payload = {h: h for h in HOSTILE if _portable(h)}
    decoded = msgspec.json.decode(json.dumps(payload).encode(), type=root)
    assert json.loads(msgspec.json.encode(decoded)) == payload
    td = _load(package, "typeddict")
    assert set(typing.get_type_hints(_root(td))) == set(HOSTILE)
    dc = _load(package, "dataclass")
    import dataclasses
    wire = {f.metadata.get("wire_name", f.name) for f in dataclasses.fields(_root(dc))}
    assert wire == set(HOSTILE)


def test_docstrings_keep_the_text(package: Path) -> None:
    """The description, and the title the class name was rebuilt from (``naming``), as text."""
    dc = _load(package, "dataclass")
    said = f"The schema's name: `{HOSTILE[0]}`."
    assert inspect.cleandoc(_root(dc).__doc__ or "") == inspect.cleandoc(HOSTILE[0]) + "\n\n" + said


def test_keys_msgspec_cannot_carry_are_warned(package: Path) -> None:
    """msgspec refuses renamed fields with quotes, backslashes or control characters."""
    m = _load(package, "msgspec")
    names = {f.encode_name for f in msgspec.structs.fields(_root(m))}
    assert not any(not _portable(n) for n in names)


def _portable(text: str) -> bool:
    return not any(c in '"\\' or ord(c) < 0x20 for c in text)
