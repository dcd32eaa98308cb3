"""A property that is required and has a default: one warning per input, and the `required_defaults`
setting (at the top of [tool.schemagen] and per input) that reads such properties as not required.
Run through the command line, as a user runs it."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import msgspec
import pytest

from conftest import bench_module
from schemagen import ir
from schemagen.diagnostics import Reporter
from schemagen.project.inputs import Input
from schemagen.project.pipeline import to_ir
from test_cli import run

REQUEST = {"title": "Request", "type": "object", "required": ["model", "user", "n", "stop", "mode", "seed"],
           "properties": {"model": {"type": "string"}, "user": {"type": ["string", "null"], "default": None},
                          "n": {"type": "integer", "default": 1},
                          "stop": {"type": "array", "items": {"type": "string"}, "default": []},
                          "mode": {"enum": ["auto", "manual"], "default": "auto"},
                          "seed": {"type": "integer", "default": 0}}}


def project(root: Path, table: str, inputs: tuple[str, ...] = ("a", "b")) -> Path:
    (root / "schemas").mkdir()
    for name in inputs:
        (root / "schemas" / f"{name}.json").write_text(json.dumps(REQUEST))
    (root / "pyproject.toml").write_text("[tool.schemagen]\n" + table)
    return root


def imported(path: Path) -> ModuleType:
    return bench_module("modules").exec_module(path.read_text(encoding="utf-8"), path.name)


def test_one_warning_per_input_counts_them_and_names_the_setting(tmp_path: Path) -> None:
    result = run(project(tmp_path, ""), "generate")
    assert result.returncode == 0, result.stderr
    assert [line for line in result.stderr.splitlines() if line.startswith("warning:")] == [
        f"warning: schemas/{name}.json: #/properties/user: 5 properties are required and have a default: "
        "#/properties/user, #/properties/n, #/properties/stop and 2 more - set required_defaults = \"optional\" to "
        "read them as not required" for name in ("a", "b")]
    assert "2 warnings: 2 required defaults\n" in result.stderr
    assert "    n: int\n" in (tmp_path / "generated" / "a" / "msgspec_models.py").read_text()  # read as written


def test_optional_reads_them_as_not_required_and_a_payload_may_leave_them_out(tmp_path: Path) -> None:
    result = run(project(tmp_path, 'required_defaults = "optional"\n', ("a",)), "generate")
    assert result.returncode == 0 and "warning" not in result.stderr.replace("0 warnings", ""), result.stderr
    text = (tmp_path / "generated" / "a" / "msgspec_models.py").read_text()
    assert "    model: str\n    user: str | None = None\n    n: int = 1\n" in text
    request = msgspec.json.decode(b'{"model": "m"}', type=imported(tmp_path / "generated" / "a" / "msgspec_models.py").Request)
    assert (request.model, request.user, request.n, request.stop, request.mode, request.seed) == ("m", None, 1, [], "auto", 0)
    with pytest.raises(msgspec.ValidationError, match="missing required field `model`"):
        msgspec.json.decode(b"{}", type=type(request))
    dataclass = imported(tmp_path / "generated" / "a" / "dataclass_models.py").Request(model="m")
    assert (dataclass.user, dataclass.n, dataclass.stop) == (None, 1, [])
    typeddict = imported(tmp_path / "generated" / "a" / "typeddict_models.py").Request
    assert typeddict.__required_keys__ == {"model"}


NESTED = {"title": "Run", "type": "object", "required": ["config", "fixed"],
          "properties": {"config": {"$ref": "#/definitions/Config", "default": {}},
                         "fixed": {"$ref": "#/definitions/Fixed", "default": {}}},
          "definitions": {"Config": {"type": "object", "required": ["level"],
                                     "properties": {"level": {"type": "integer", "default": 3}}},
                          "Fixed": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}}}}


def test_optional_checks_a_default_against_the_fields_as_it_reads_them(tmp_path: Path) -> None:
    """``config``'s default ``{}`` lacks ``level``, which is required as written but not as read with
    "optional" (it has a default): so ``config`` is optional and ``{}`` builds ``Config(level=3)``.
    Before, defaults were checked as written first, ``{}`` was dropped and ``config`` stayed required.
    ``fixed``'s ``{}`` lacks ``name``, which has no default: dropped with its warning, and required."""
    (tmp_path / "schemas").mkdir()
    (tmp_path / "schemas" / "run.json").write_text(json.dumps(NESTED))
    (tmp_path / "pyproject.toml").write_text('[tool.schemagen]\nrequired_defaults = "optional"\n')
    result = run(tmp_path, "generate")
    assert result.returncode == 0, result.stderr
    assert [line for line in result.stderr.splitlines() if line.startswith("warning:")] == [
        "warning: schemas/run.json: #/properties/fixed/default: default {} does not fit the type of 'fixed'; "
        "it is left out"]
    models = imported(tmp_path / "generated" / "run" / "msgspec_models.py")
    decoded = msgspec.json.decode(b'{"fixed": {"name": "n"}}', type=models.Run)
    assert (decoded.config, decoded.fixed) == (models.Config(level=3), models.Fixed(name="n"))
    with pytest.raises(msgspec.ValidationError, match="missing required field `fixed`"):
        msgspec.json.decode(b"{}", type=models.Run)


def test_the_warning_counts_what_optional_would_read_as_not_required(tmp_path: Path) -> None:
    """``config``'s ``{}`` fits only as "optional" reads ``Config``: it is counted; ``fixed``'s never fits."""
    (tmp_path / "schemas").mkdir()
    (tmp_path / "schemas" / "run.json").write_text(json.dumps(NESTED))
    (tmp_path / "pyproject.toml").write_text("[tool.schemagen]\n")
    result = run(tmp_path, "generate")
    assert result.returncode == 0, result.stderr
    assert "warning: schemas/run.json: #/properties/config: 2 properties are required and have a default: " \
           "#/properties/config, #/definitions/Config/properties/level - set required_defaults" in result.stderr


def test_the_setting_of_an_input_wins_over_the_table(tmp_path: Path) -> None:
    table = ('required_defaults = "optional"\n\n[[tool.schemagen.inputs]]\npath = "schemas/a.json"\n'
             'required_defaults = "required"\n\n[[tool.schemagen.inputs]]\npath = "schemas/b.json"\n')
    result = run(project(tmp_path, table), "generate")
    assert result.returncode == 0 and "warning:" not in result.stderr, result.stderr  # "required", said: no warning
    assert "    n: int\n" in (tmp_path / "generated" / "a" / "msgspec_models.py").read_text()
    assert "    n: int = 1\n" in (tmp_path / "generated" / "b" / "msgspec_models.py").read_text()
    rendered = run(tmp_path, "render", "schemas/a.json", "--variant", "msgspec")  # render reads the input's setting
    assert rendered.returncode == 0 and rendered.stdout == (tmp_path / "generated" / "a" / "msgspec_models.py").read_text()


@pytest.mark.parametrize(("table", "where"), [
    ('required_defaults = "yes"\n', "pyproject.toml:2:1: #/tool/schemagen/required_defaults"),
    ('[[tool.schemagen.inputs]]\npath = "schemas/a.json"\n  required_defaults = true\n',
     "pyproject.toml:4:3: #/tool/schemagen/inputs/0/required_defaults"),
])
def test_a_value_that_is_no_setting_is_an_error_at_its_line(tmp_path: Path, table: str, where: str) -> None:
    result = run(project(tmp_path, table, ("a",)), "generate")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith(f'{where}: must be "required" (a required property with a default is required) '
                                    'or "optional" (it is not required, and takes its default when absent), not ')
    assert not (tmp_path / "generated").exists()


def test_a_default_on_the_referenced_schema_is_the_propertys_own_wins(tmp_path: Path) -> None:
    """As JSON Schema annotations are read, through ``$ref`` and a one-member ``allOf`` (pydantic writes
    the default on the referenced schema): the property's own default wins; else its target's."""
    usage = {"anyOf": [{"type": "object", "properties": {"n": {"type": "integer"}}}, {"type": "null"}],
             "default": None}
    schema = {"title": "Run", "type": "object", "required": ["iterations", "wrapped", "own", "chained", "plain"],
              "properties": {"iterations": {"$ref": "#/$defs/IterationsUsage"},
                             "wrapped": {"allOf": [{"$ref": "#/$defs/IterationsUsage"}], "description": "d"},
                             "own": {"$ref": "#/$defs/Mode", "default": "fast"},
                             "chained": {"$ref": "#/$defs/Alias"},
                             "plain": {"$ref": "#/$defs/Plain"}},
              "$defs": {"IterationsUsage": usage, "Mode": {"enum": ["fast", "slow"], "default": "slow"},
                        "Alias": {"$ref": "#/$defs/Mode"}, "Plain": {"type": "string"}}}
    (tmp_path / "run.json").write_text(json.dumps(schema))
    module = to_ir(Input("run", tmp_path / "run.json", "run.json", required_defaults="optional"), tmp_path, Reporter())
    [run] = [d for d in module.declarations if d.name == "Run"]
    assert [(f.wire_name, f.required, f.default and f.default.value) for f in run.fields] == [  # type: ignore[union-attr]
        ("iterations", False, None), ("wrapped", False, None), ("own", False, "fast"), ("chained", False, "slow"),
        ("plain", True, None)]
    assert [f.default for f in run.fields][:2] == [ir.Default(None), ir.Default(None)]  # type: ignore[union-attr]
