"""Warnings of likely mistakes in a schema you do not control, each rule once with and once without
its mistake: the warning's kind, its place and its words, read from the same stages `generate` runs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from generator.diagnostics import Reporter
from generator.project.inputs import Input
from generator.project.pipeline import to_ir


def lint(tmp_path: Path, document: dict[str, Any], kind: str, name: str = "spec.json") -> list[str]:
    """The warnings of ``kind`` that generating ``document`` (written to ``name``) gives."""
    path = tmp_path / name
    path.write_text(json.dumps(document) if name.endswith(".json") else yaml.safe_dump(document, sort_keys=False))
    reporter = Reporter()
    to_ir(Input("spec", path, name), tmp_path, reporter)
    return [str(w) for w in reporter.warnings if w.kind == kind]


def components(schemas: dict[str, Any], version: str = "3.1.0") -> dict[str, Any]:
    return {"openapi": version, "info": {"title": "t", "version": "1"}, "paths": {}, "components": {"schemas": schemas}}


# a `required` key that nothing holds ------------------------------------------------------------

def test_a_required_key_that_additional_properties_false_forbids(tmp_path: Path) -> None:
    closed = {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id", "data"],
              "additionalProperties": False}
    bare = {"type": "object", "required": ["data"], "additionalProperties": False}
    found = lint(tmp_path, {"$defs": {"Closed": closed, "Bare": bare}}, "unknown required key")
    assert found == [
        "warning: spec.json: #/$defs/Closed/required: `required` names 'data', which `additionalProperties: false` "
        "forbids: no object is valid - add the property, or fix the name in `required`",
        "warning: spec.json: #/$defs/Bare/required: `required` names 'data', which `additionalProperties: false` "
        "forbids: no object is valid - add the property, or fix the name in `required`",
    ]


def test_a_required_key_missing_from_properties_is_a_typo(tmp_path: Path) -> None:
    schema = {"title": "Event", "type": "object", "required": ["type", "sequence_nubmer", "response_id"],
              "properties": {"type": {"type": "string"}, "sequence_number": {"type": "integer"}}}
    assert lint(tmp_path, schema, "unknown required key") == [
        "warning: spec.json: #/required: `required` names 'sequence_nubmer', which is not one of its `properties` "
        "(did you mean 'sequence_number'?); it is read as a required field of any type - add the property, or fix "
        "the name in `required`",
        "warning: spec.json: #/required: `required` names 'response_id', which is not one of its `properties`; it is "
        "read as a required field of any type - add the property, or fix the name in `required`",
    ]


def test_a_required_key_a_pattern_or_other_keys_hold_is_no_mistake(tmp_path: Path) -> None:
    held = {"$defs": {
        "Pattern": {"type": "object", "properties": {"a": {}}, "patternProperties": {"^x-": {}},
                    "additionalProperties": False, "required": ["a", "x-trace"]},
        "Extra": {"type": "object", "properties": {"a": {}}, "additionalProperties": {"type": "string"},
                  "required": ["a", "b"]},
        "Open": {"type": "object", "required": ["anything"]},  # no properties: any key may be required
        "Base": {"type": "object", "properties": {"id": {"type": "string"}}},
        "Derived": {"allOf": [{"$ref": "#/$defs/Base"}, {"properties": {"n": {}}, "required": ["id", "n"]}]},
        "Control": {"type": "object", "properties": {"a": {}}, "required": ["b"]},  # the rule runs here
    }}
    assert [w.split(": `")[0] for w in lint(tmp_path, held, "unknown required key")] == [
        "warning: spec.json: #/$defs/Control/required"]


def test_a_mistake_folded_into_other_schemas_is_reported_where_it_is_written(tmp_path: Path) -> None:
    base = {"type": "object", "properties": {"type": {"const": "done"}}, "required": ["type", "response_id"]}
    event = {"anyOf": [{"allOf": [{"$ref": "#/$defs/Done"}, {"title": "WsDone"}]}, {"type": "null"}]}
    assert lint(tmp_path, {"$defs": {"Done": base, "Event": event}}, "unknown required key") == [
        "warning: spec.json: #/$defs/Done/required: `required` names 'response_id', which is not one of its "
        "`properties`; it is read as a required field of any type - add the property, or fix the name in `required`"]
