"""Names users know: one schema place is one declaration, whatever folds it, named where it is written.

The measure on a real description is ``bench/names.py`` (OpenAI's: 14 places declared 2-3 times
before, 2 now: places the branches of one union share); the test below on it runs where ../shared is.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from conftest import shared
from schemagen import ir
from schemagen.diagnostics import Location, Reporter
from schemagen.frontend.schema import Schema
from schemagen.lower.places import Places
from schemagen.names import singular
from schemagen.project.inputs import Input
from schemagen.project.pipeline import to_ir


def reported(tmp_path: Path, schemas: dict[str, Any]) -> tuple[ir.Module, Reporter]:
    path = tmp_path / "spec.json"
    path.write_text(json.dumps({"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {},
                                "components": {"schemas": schemas}}))
    reporter = Reporter()
    return to_ir(Input("spec", path, "spec.json"), tmp_path, reporter), reporter


def lowered(tmp_path: Path, schemas: dict[str, Any]) -> ir.Module:
    return reported(tmp_path, schemas)[0]


def by_name(module: ir.Module) -> dict[str, ir.Declaration]:
    return {d.name: d for d in module.declarations}


def field_type(module: ir.Module, model: str, wire: str) -> ir.Type:
    found = by_name(module)[model]
    assert isinstance(found, ir.Model)
    return next(f.type for f in found.fields if f.wire_name == wire)


OWNER = {"type": "object", "properties": {"name": {"type": "string"}}}
KEY = {"type": "object", "properties": {"id": {"type": "string"}, "owner": OWNER}}
CREATED = {"allOf": [{"$ref": "#/components/schemas/ApiKey"},
                     {"type": "object", "properties": {"value": {"type": "string"}}}]}


@pytest.mark.parametrize("first", ["ApiKey", "ApiKeyCreated"])
def test_a_folded_place_is_one_declaration_named_where_it_is_written(tmp_path: Path, first: str) -> None:
    schemas = {"ApiKey": KEY, "ApiKeyCreated": CREATED}
    module = lowered(tmp_path, {name: schemas[name] for name in sorted(schemas, key=lambda n: n != first)})
    assert sorted(by_name(module)) == ["ApiKey", "ApiKeyCreated", "ApiKeyOwner"]
    assert field_type(module, "ApiKey", "owner") == field_type(module, "ApiKeyCreated", "owner") == ir.Ref("ApiKeyOwner")


def test_a_place_folded_inside_a_property_is_named_where_it_is_written(tmp_path: Path) -> None:
    listing = {"type": "object", "properties": {"data": {"type": "array", "items": CREATED}}}
    module = lowered(tmp_path, {"KeyList": listing, "ApiKey": KEY})
    assert "ApiKeyOwner" in by_name(module) and "KeyListDataItemOwner" not in by_name(module)
    assert field_type(module, "KeyListDataItem", "owner") == ir.Ref("ApiKeyOwner")


def test_what_folding_changes_at_a_place_is_a_declaration_of_its_own(tmp_path: Path) -> None:
    """A parent that says more of ``owner`` (a required key) has another concept there: two classes."""
    stricter = {"allOf": [{"$ref": "#/components/schemas/ApiKey"},
                          {"type": "object", "properties": {"owner": {"required": ["name"]}}}]}
    module = lowered(tmp_path, {"ApiKey": KEY, "Strict": stricter})
    assert field_type(module, "ApiKey", "owner") == ir.Ref("ApiKeyOwner")
    strict_owner = field_type(module, "Strict", "owner")
    assert isinstance(strict_owner, ir.Ref) and strict_owner.name != "ApiKeyOwner"
    assert [f.required for f in by_name(module)[strict_owner.name].fields] == [True]  # type: ignore[union-attr]


def test_a_place_folding_copies_afresh_is_one_declaration_where_it_is_the_same(tmp_path: Path) -> None:
    """``builtIns`` allows a string or an object, so its object is made anew wherever it is met (a copy
    of the place, with ``type: object``). Folded into two parents that each add a description, it is
    still one place with one content: one class (vector.json's description had 1,447 such copies)."""
    both = {"type": ["string", "object"], "properties": {"include": {"type": "string"}}}
    compile_ = {"type": ["string", "object"], "properties": {"builtIns": both}}
    build = {"type": "object", "properties": {
        "compile": compile_,
        "embed": {"allOf": [{"$ref": "#/definitions/build/properties/compile"}, {"description": "Resources."}]},
        "copy": {"allOf": [{"$ref": "#/definitions/build/properties/compile"}, {"description": "Copied."}]}}}
    path = tmp_path / "project.json"
    path.write_text(json.dumps({"$schema": "http://json-schema.org/draft-07/schema#", "title": "Project",
                                "type": "object", "properties": {"build": {"$ref": "#/definitions/build"}},
                                "definitions": {"build": build}}))
    module = to_ir(Input("project", path, "project.json"), tmp_path, Reporter())
    owners = {d.name for d in module.declarations if d.origin is not None and d.origin.pointer.endswith("/builtIns")}
    assert owners == {"CompileObjectBuiltInsObject"}
    for parent in ("CompileObject", "BuildEmbedObject", "BuildCopyObject"):  # (each says its own description)
        assert field_type(module, parent, "builtIns") == ir.union(ir.Scalar("str"), ir.Ref("CompileObjectBuiltInsObject"))


def test_a_place_is_one_model_per_content_whichever_object_is_met() -> None:
    """``Places``: a copy with the same text is the model declared first; another text at the same place,
    or the same text at another place, is not."""
    here, there = Location("spec.json", "/$defs/A/properties/owner"), Location("spec.json", "/$defs/B/properties/owner")
    first = Schema({"type": "object", "properties": {}}, here)
    places = Places()
    assert places.get(first) is None
    places.add(first, "AOwner", "#/$defs/A")
    assert places.get(first) == ("AOwner", "#/$defs/A")
    assert places.get(Schema(dict(first), here)) == ("AOwner", "#/$defs/A")  # a copy, as folding makes
    other = Schema({"type": "object", "properties": {}, "required": ["x"]}, here)
    assert places.get(other) is None
    places.add(other, "BOwner", "#/$defs/B")
    assert places.get(Schema(dict(other), here)) == ("BOwner", "#/$defs/B")
    assert places.get(Schema(dict(first), here)) == ("AOwner", "#/$defs/A")
    assert places.get(Schema(dict(first), there)) is None


def test_a_cycle_of_folds_ends_and_each_side_has_both_properties(tmp_path: Path) -> None:
    """``home_first`` cuts the cycle where it is met again; folding warns of it (``allOf cycle``)."""
    a = {"allOf": [{"$ref": "#/components/schemas/B"}], "type": "object", "properties": {"x": OWNER}}
    b = {"allOf": [{"$ref": "#/components/schemas/A"}], "type": "object", "properties": {"y": OWNER}}
    module, reporter = reported(tmp_path, {"A": a, "B": b})
    assert {w.kind for w in reporter.warnings} == {"allOf cycle"}
    for name in ("A", "B"):
        model = by_name(module)[name]
        assert isinstance(model, ir.Model) and sorted(f.wire_name for f in model.fields) == ["x", "y"]


def test_no_place_of_openais_description_is_two_declarations() -> None:
    spec = shared("corpora/openai/openapi.yaml")
    module = to_ir(Input("openai", spec, spec.name), spec.parent, Reporter())
    places: dict[tuple[str, str], list[str]] = {}
    for d in module.declarations:
        if d.origin is not None:
            places.setdefault((d.origin.path, d.origin.pointer), []).append(d.name)
    # what is left: a place shared by the branches of one union (named by each branch, see Lowering.placed)
    several = [names for names in places.values() if len(names) > 1]
    assert all(len({re.sub(r"Option\d+", "Option", n) for n in names}) == 1 for names in several), several
    assert len(several) <= 2
    assert {"AdminApiKeyOwner", "ChatCompletionResponseMessageAudio"} <= {d.name for d in module.declarations}


@pytest.mark.parametrize(("plural", "one"), [
    ("choices", "choice"), ("annotations", "annotation"), ("entries", "entry"), ("statuses", "status"),
    ("matches", "match"), ("boxes", "box"), ("classes", "class"), ("responses", "response"),
    ("aliases", "alias"), ("queries", "query"), ("Tools", "Tool"), ("IDs", "ID"), ("URLS", "URL"),
    ("data", None), ("status", None), ("analysis", None), ("series", None), ("content", None),
    ("news", None), ("alias", None), ("bus", None), ("ids2", None), ("s", None),
])
def test_the_singular_of_a_plural_by_its_ending(plural: str, one: str | None) -> None:
    assert singular(plural) == one


def names_of(tmp_path: Path, schemas: dict[str, Any]) -> list[str]:
    return sorted(d.name for d in lowered(tmp_path, schemas).declarations)


def obj(**properties: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties}


def test_an_item_is_named_by_the_singular_of_its_property_else_item(tmp_path: Path) -> None:
    item = obj(n={"type": "integer"})
    chat = obj(choices={"type": "array", "items": item}, data={"type": "array", "items": item},
               entries={"type": "object", "additionalProperties": item})
    assert names_of(tmp_path, {"Chat": chat}) == ["Chat", "ChatChoice", "ChatDataItem", "ChatEntriesValue"]


def test_an_item_whose_singular_is_taken_is_named_item(tmp_path: Path) -> None:
    chat = obj(choices={"type": "array", "items": obj(n={"type": "integer"})})
    assert names_of(tmp_path, {"Chat": chat, "ChatChoice": obj(x={"type": "string"})}) == \
        ["Chat", "ChatChoice", "ChatChoicesItem"]


def test_a_word_the_parent_ends_with_is_said_once_unless_the_name_would_be_the_parents(tmp_path: Path) -> None:
    inner = obj(url={"type": "string"})
    part = obj(image_url=inner, image=inner | {"description": "another"})
    assert names_of(tmp_path, {"PartImage": part}) == ["PartImage", "PartImageImage", "PartImageUrl"]


def test_a_name_a_component_has_is_no_shortened_name(tmp_path: Path) -> None:
    certificate = obj(certificate_details=obj(valid={"type": "boolean"}))
    assert names_of(tmp_path, {"Certificate": certificate, "CertificateDetails": obj(x={"type": "string"})}) == \
        ["Certificate", "CertificateCertificateDetails", "CertificateDetails"]


def test_a_member_titled_as_its_union_is_its_object_and_a_title_taken_is_said_after_its_union(tmp_path: Path) -> None:
    located = {"anyOf": [obj(city={"type": "string"}) | {"title": "Approximate location"}, {"type": "null"}]}
    first = {"anyOf": [obj(a={"type": "string"}) | {"title": "InputDelta"}, obj(b={"type": "integer"})]}
    second = {"anyOf": [obj(a={"type": "integer"}) | {"title": "InputDelta"}, obj(b={"type": "string"})]}
    names = names_of(tmp_path, {"ApproximateLocation": located, "First": first, "Second": second})
    assert "ApproximateLocationObject" in names and "InputDelta" in names and "SecondInputDelta" in names
    assert not [n for n in names if n[-2:] in ("_2", "_3")]


def test_a_spec_name_that_is_no_pascal_case_identifier_becomes_one_and_says_the_schemas(tmp_path: Path) -> None:
    string = {"type": "string"}
    module = lowered(tmp_path, {"Beta_AgentTagParam": obj(a=string), "ServerToolCaller_20260120": obj(b=string),
                                "chatMessage": obj(c=string), "HTTPError": obj(d=string),
                                "Foo_Bar": obj(e=string), "FooBar": obj(f=string)})
    named = by_name(module)
    assert sorted(named) == ["BetaAgentTagParam", "ChatMessage", "FooBar", "Foo_Bar", "HTTPError",
                             "ServerToolCaller20260120"]
    assert named["BetaAgentTagParam"].doc == "The schema's name: `Beta_AgentTagParam`."
    assert named["HTTPError"].doc is None and named["FooBar"].doc is None
    assert [f.wire_name for f in named["Foo_Bar"].fields] == ["e"]  # type: ignore[union-attr]


def stainless(name: str) -> dict[str, Any]:
    return {"x-stainless-naming": {"python": {"type_name": name}}}


def test_a_vendor_extension_names_the_class_unless_another_definition_has_the_name(tmp_path: Path) -> None:
    string = {"type": "string"}
    block = obj(text=string, citation=obj(url=string) | {"x-speakeasy-name-override": "Citation"},
                other={"$ref": "#/components/schemas/Other", "x-speakeasy-name-override": "NotAClass"})
    child = {"allOf": [{"$ref": "#/components/schemas/Beta_text_block"}, obj(b=string)]}
    module = lowered(tmp_path, {"Beta_text_block": block | stainless("TextBlock"),
                                "Other": obj(a=string) | stainless("Beta_text_block"), "Child": child})
    assert sorted(by_name(module)) == ["Child", "Citation", "Other", "TextBlock"]
    assert field_type(module, "TextBlock", "other") == ir.Ref("Other")  # a reference alone is what it refers to
    assert field_type(module, "Child", "citation") == ir.Ref("Citation")  # the name is its place's, not Child's


def test_a_vendor_name_in_json_schema_and_on_a_nested_object(tmp_path: Path) -> None:
    path = tmp_path / "spec.json"
    inner = obj(v={"type": "integer"}) | {"x-speakeasy-name-override": "Inner"}
    path.write_text(json.dumps({"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "root",
                                "$defs": {"a_b": obj(i=inner) | stainless("Ab")}, "type": "object",
                                "properties": {"x": {"$ref": "#/$defs/a_b"}}}))
    module = to_ir(Input("spec", path, "spec.json"), tmp_path, Reporter())
    assert sorted(by_name(module)) == ["Ab", "Inner", "Root"]


@pytest.mark.parametrize(("taken", "named"), [(False, "BetaResponseDone"), (True, "BetaStreamEventResponseDone")])
def test_a_members_own_name_is_told_apart_by_the_runs_of_its_unions_words_it_does_not_say(
        tmp_path: Path, taken: bool, named: str) -> None:
    done = obj(type={"const": "response.done"}, n={"type": "integer"})
    stream = {"allOf": [{"anyOf": [{"$ref": "#/components/schemas/BetaResponseDoneEvent"},
                                   obj(type={"const": "response.failed"})]}, obj(stream_id={"type": "string"})]}
    schemas = {"BetaResponseDoneEvent": done, "BetaResponsesStreamEvent": stream}
    names = names_of(tmp_path, schemas | ({"BetaResponseDone": obj(x={"type": "string"})} if taken else {}))
    assert named in names and "BetaResponseFailed" in names  # (the inline member's tag, told apart the same way)


LONG_ROOT = "CreateChatCompletionRequestOfSomeProvider"  # (41 characters)


def test_a_long_invented_name_is_said_without_its_definitions_name_where_that_is_free_and_two_words(
        tmp_path: Path) -> None:
    inner = obj(city={"type": "string"})
    schemas = {LONG_ROOT: obj(web_search=obj(user_location=inner), url=inner | {"description": "one word"}),
               "Short": obj(web_search=obj(user_location=inner))}
    names = names_of(tmp_path, schemas)
    assert "WebSearch" in names and "WebSearchUserLocation" in names  # (from 50 and 62 characters)
    assert LONG_ROOT + "Url" in names  # one word may have lost the word it shared with the definition's
    assert "ShortWebSearch" in names and "ShortWebSearchUserLocation" in names  # short already


def test_a_short_name_two_classes_want_or_a_declaration_has_is_not_taken(tmp_path: Path) -> None:
    inner = obj(city={"type": "string"})
    other = LONG_ROOT.replace("Provider", "Reseller")
    names = names_of(tmp_path, {LONG_ROOT: obj(web_search=inner, user_location=inner | {"description": "b"}),
                                other: obj(web_search=inner), "UserLocation": obj(x={"type": "string"})})
    assert {LONG_ROOT + "WebSearch", other + "WebSearch", LONG_ROOT + "UserLocation"} <= set(names)


def test_with_sdk_names_every_invented_name_is_said_without_its_definitions_name_where_it_may_be(
        tmp_path: Path) -> None:
    path = tmp_path / "spec.json"
    chat = obj(choices={"type": "array", "items": obj(finish_reason={"type": "string"}, delta=obj(text={"type": "string"}))})
    path.write_text(json.dumps({"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {},
                                "components": {"schemas": {"ChatCompletion": chat}}}))
    module = to_ir(Input("spec", path, "spec.json", names="sdk"), tmp_path, Reporter())
    assert sorted(d.name for d in module.declarations) == ["ChatCompletion", "ChatCompletionChoice", "ChoiceDelta"]
