"""Warnings of likely mistakes in a schema you do not control, each rule once with and once without
its mistake: the warning's kind, its place and its words, read from the same stages `generate` runs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from schemagen.diagnostics import Reporter
from schemagen.project.inputs import Input
from schemagen.project.pipeline import to_ir


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
    swapped = {"type": "object", "properties": {"nmae": {}}, "required": ["name"], "additionalProperties": False}
    found = lint(tmp_path, {"$defs": {"Closed": closed, "Bare": bare, "Swapped": swapped}}, "unknown required key")
    assert found == [
        "warning: spec.json: #/$defs/Closed/required: `required` names 'data', which `additionalProperties: false` "
        "forbids: no object is valid - add the property, or fix the name in `required`",
        "warning: spec.json: #/$defs/Bare/required: `required` names 'data', which `additionalProperties: false` "
        "forbids: no object is valid - add the property, or fix the name in `required`",
        "warning: spec.json: #/$defs/Swapped/required: `required` names 'name', which `additionalProperties: false` "
        "forbids (did you mean 'nmae'?): no object is valid - add the property, or fix the name in `required`",
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


# a discriminator mapping target outside the union -----------------------------------------------

def pets(mapping: dict[str, str], **others: Any) -> dict[str, Any]:
    cat = {"type": "object", "properties": {"kind": {"type": "string"}, "lives": {"type": "integer"}}}
    dog = {"type": "object", "properties": {"kind": {"type": "string"}, "bark": {"type": "string"}}}
    pet = {"oneOf": [{"$ref": "#/components/schemas/Cat"}, {"allOf": [{"$ref": "#/components/schemas/Dog"}]}],
           "discriminator": {"propertyName": "kind", "mapping": mapping}}
    return components({"Pet": pet, "Cat": cat, "Dog": dog, "Bird": cat, **others})


def test_a_mapping_target_that_is_no_member_or_no_schema(tmp_path: Path) -> None:
    spec = pets({"cat": "Cat", "dog": "#/components/schemas/Dog", "bird": "Bird", "fish": "Fsh"})
    assert lint(tmp_path, spec, "stray mapping", "pets.yaml") == [
        "warning: pets.yaml: #/components/schemas/Pet/discriminator/mapping/bird: `discriminator` maps 'bird' to "
        "#/components/schemas/Bird, which is not a member of the `oneOf` beside it (Cat | Dog) - add it to the "
        "`oneOf`, or fix the mapping",
        "warning: pets.yaml: #/components/schemas/Pet/discriminator/mapping/fish: `discriminator` maps 'fish' to "
        "#/components/schemas/Fsh, which names no schema of pets.yaml - add it to the `oneOf`, or fix the mapping",
    ]


def test_mapping_targets_that_are_members_or_extend_a_base(tmp_path: Path) -> None:
    base = {"type": "object", "properties": {"kind": {"type": "string"}},
            "discriminator": {"propertyName": "kind", "mapping": {"cat": "Cat"}}}  # no union: others extend it
    control = {"anyOf": [{"$ref": "#/components/schemas/Cat"}], "discriminator": {"propertyName": "kind",
                                                                                "mapping": {"x": "Dog"}}}
    spec = pets({"cat": "Cat", "dog": "Dog"}, Base=base, Control=control)
    assert [w.split(": `")[0] for w in lint(tmp_path, spec, "stray mapping", "pets.yaml")] == [
        "warning: pets.yaml: #/components/schemas/Control/discriminator/mapping/x"]


def test_a_mapping_target_that_is_no_string_is_left_alone(tmp_path: Path) -> None:
    union = {"oneOf": [{"$ref": "#/$defs/A"}], "discriminator": {"propertyName": "k", "mapping": {
        "x": ["#/$defs/A"], "y": "#/$defs/B"}}}
    found = lint(tmp_path, {"$defs": {"A": {"type": "object", "properties": {"k": {}}}, "U": union}}, "stray mapping")
    assert [w.split(": `")[0] for w in found] == ["warning: spec.json: #/$defs/U/discriminator/mapping/y"]


# a default or example its own schema rejects -----------------------------------------------------

def test_defaults_and_examples_their_schema_rejects(tmp_path: Path) -> None:
    schema = {"$defs": {
        "Include": {"type": "string", "enum": ["logprobs"], "default": []},
        "Modalities": {"type": "array", "items": {"type": "string", "default": ["text"]}},
        "Usage": {"type": "object", "required": ["total"], "properties": {"total": {"type": "integer"}},
                  "examples": [{"total": 3}, {"total": "3"}]},
        "Wrapper": {"type": "object", "properties": {"usage": {"$ref": "#/$defs/Usage"}},
                    "examples": [{"usage": {}}]},
    }}
    assert lint(tmp_path, schema, "rejected value") == [
        "warning: spec.json: #/$defs/Include/default: the default is rejected by its own schema: [] is not of type "
        "'string' - fix the value or the schema (schemagen does not use it)",
        "warning: spec.json: #/$defs/Modalities/items/default: the default is rejected by its own schema: ['text'] is "
        "not of type 'string' - fix the value or the schema (schemagen does not use it)",
        "warning: spec.json: #/$defs/Usage/examples/1: the `examples` item is rejected by its own schema: at $.total: "
        "'3' is not of type 'integer' - fix the value or the schema (schemagen does not use it)",
        "warning: spec.json: #/$defs/Wrapper/examples/0: the `examples` item is rejected by its own schema: at "
        "$.usage: 'total' is a required property - fix the value or the schema (schemagen does not use it)",
    ]


def test_an_openapi_example_is_checked_as_the_canonical_schema_reads_it(tmp_path: Path) -> None:
    spec = components({
        "Choice": {"type": "object", "properties": {
            "logprobs": {"type": "object", "nullable": True, "example": "example_value"},
            "refusal": {"type": "string", "nullable": True, "example": None},  # null: 3.0's nullable
            "meta": {"type": "object", "example": '{"a": 1}'},  # JSON text, as OpenAPI allows
            "broken": {"type": "object", "example": '{"a": 1,}'},
            "count": {"type": "integer", "minimum": 1, "example": 0},
        }},
    }, "3.0.3")
    assert lint(tmp_path, spec, "rejected value", "spec.yaml") == [
        "warning: spec.yaml: #/components/schemas/Choice/properties/logprobs/example: the example is rejected by its "
        "own schema: 'example_value' is not of type 'object', 'null' - fix the value or the schema (schemagen does "
        "not use it)",
        "warning: spec.yaml: #/components/schemas/Choice/properties/broken/example: the example is rejected by its "
        "own schema: '{\"a\": 1,}' is not of type 'object' - fix the value or the schema (schemagen does not use it)",
        "warning: spec.yaml: #/components/schemas/Choice/properties/count/example: the example is rejected by its "
        "own schema: 0 is less than the minimum of 1 - fix the value or the schema (schemagen does not use it)",
    ]


def test_values_their_schema_accepts_and_property_defaults_are_left_to_the_type_check(tmp_path: Path) -> None:
    both = {"type": "object", "properties": {"kind": {"type": "string"}}}
    schema = {"$defs": {
        "Either": {"oneOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}], "examples": [{"kind": "a"}]},
        "A": both, "B": both,  # the example fits both members: `oneOf` is read as `anyOf`
        "Elsewhere": {"$ref": "other.json#/$defs/X", "examples": ["s"]},  # read from the file beside
        "Pattern": {"type": "string", "pattern": "\\p{L}+", "default": "é"},  # Python cannot read the pattern
        "Owner": {"type": "object", "properties": {"n": {"type": "integer", "default": "x"}}},
        "Control": {"type": "integer", "default": "x"},
    }}
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(schema))
    (tmp_path / "other.json").write_text(json.dumps({"$defs": {"X": {"type": "string"}}}))
    reporter = Reporter()
    to_ir(Input("spec", path, "spec.json"), tmp_path, reporter)
    assert [(w.kind, w.location.pointer) for w in reporter.warnings
            if w.kind in ("rejected value", "dropped default")] == [
        ("rejected value", "/$defs/Control/default"), ("dropped default", "/$defs/Owner/properties/n/default")]


# `$ref` siblings that OpenAPI 3.0 and Swagger 2.0 ignore ----------------------------------------

def referring(version: str) -> dict[str, Any]:
    code = {"type": "string"}
    usage = {"type": "object", "properties": {"total": {"type": "integer"}}}
    holder = {"type": "object", "properties": {
        "usage": {"$ref": "#/components/schemas/Usage", "nullable": True},
        "code": {"$ref": "#/components/schemas/Code", "maxLength": 3, "pattern": "^[A-Z]+$"},
        "noted": {"$ref": "#/components/schemas/Code", "description": "Said here.", "default": "A", "example": "B",
                  "readOnly": True, "x-order": 1},
        "again": {"$ref": "#/components/schemas/Maybe", "nullable": True},  # the target says so already
        "typed": {"$ref": "#/components/schemas/Usage", "type": "object"},
    }}
    return components({"Holder": holder, "Code": code, "Usage": usage,
                       "Maybe": {"type": "string", "nullable": True}}, version)


def test_siblings_of_a_ref_that_openapi_30_ignores_and_schemagen_applies(tmp_path: Path) -> None:
    assert lint(tmp_path, referring("3.0.3"), "$ref sibling", "spec.yaml") == [
        "warning: spec.yaml: #/components/schemas/Holder/properties/usage: OpenAPI 3.0 ignores `nullable` beside "
        "`$ref`; schemagen applies it, as OpenAPI 3.1 does - to say so in OpenAPI 3.0, put the reference alone in an "
        "`allOf` beside it",
        "warning: spec.yaml: #/components/schemas/Holder/properties/code: OpenAPI 3.0 ignores `maxLength`, `pattern` "
        "beside `$ref`; schemagen applies them, as OpenAPI 3.1 does - to say so in OpenAPI 3.0, put the reference "
        "alone in an `allOf` beside them",
    ]


def test_swagger_20_siblings_are_named_for_swagger(tmp_path: Path) -> None:
    spec = {"swagger": "2.0", "info": {"title": "t", "version": "1"}, "paths": {}, "definitions": {
        "Code": {"type": "string"}, "Holder": {"type": "object", "properties": {
            "code": {"$ref": "#/definitions/Code", "maxLength": 3},
            "maybe": {"$ref": "#/definitions/Code", "x-nullable": True}}}}}  # an extension made for this
    assert lint(tmp_path, spec, "$ref sibling", "spec.yaml") == [
        "warning: spec.yaml: #/definitions/Holder/properties/code: Swagger 2.0 ignores `maxLength` beside `$ref`; "
        "schemagen applies it, as OpenAPI 3.1 does - to say so in Swagger 2.0, put the reference alone in an `allOf` "
        "beside it"]


def test_openapi_31_reads_siblings_as_schemagen_does(tmp_path: Path) -> None:
    assert lint(tmp_path, referring("3.1.0"), "$ref sibling", "spec.yaml") == []
    assert len(lint(tmp_path, referring("3.0.0"), "$ref sibling", "spec.yaml")) == 2  # the same, as 3.0
