"""References between inputs: one class per target, imported where used, cycles refused."""

from __future__ import annotations

import json
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
    return subprocess.run([sys.executable, "-m", "generator", "--project", str(project), "generate"],
                          capture_output=True, text=True, env={"PYTHONPATH": str(ROOT), "PATH": ""})


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
    check = subprocess.run(
        [sys.executable, "-c",
         "import msgspec, generated.order.msgspec_models as o, generated.common.msgspec_models as c;"
         "x = msgspec.json.decode(b'{\"total\": {\"amount\": \"1\", \"currency\": \"USD\"}}', type=o.Order);"
         "assert type(x.total) is c.Money"],
        cwd=tmp_path, capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    proc = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--config-file", "",
                           "-p", "generated"], cwd=tmp_path, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout


@pytest.mark.parametrize(("schemas", "message"), [
    ({"a": {"title": "A", "type": "object", "properties": {"b": {"$ref": "b.json#/definitions/B"}}},
      "b": {"definitions": {"B": {"type": "object", "properties": {"a": {"$ref": "a.json"}}}}}},
     "inputs refer to each other in a cycle: schemas/a.json -> schemas/b.json -> schemas/a.json"),
    ({"a": {"title": "A", "type": "object", "properties": {"x": {"$ref": "../outside.json#/definitions/X"}}}},
     "'outside.json' is not an input of this project"),
    ({"a": {"title": "A", "type": "object", "properties": {"x": {"$ref": "b.json#/definitions/Nope"}}},
      "b": {"definitions": {"B": {"type": "string"}}}},
     "'schemas/b.json' declares nothing at #/definitions/Nope"),
])
def test_bad_references_between_inputs_are_clear_errors(tmp_path: Path, schemas: dict[str, object], message: str) -> None:
    write(tmp_path, **schemas)
    result = generate(tmp_path)
    assert result.returncode == 1 and message in result.stderr, result.stderr
    assert "Traceback" not in result.stderr and not (tmp_path / "generated").exists()
