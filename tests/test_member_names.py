"""Union members: the component itself where the member is one, and names that do not depend on position.

The measure is OpenAI's description (../shared/corpora/openai/openapi.yaml): a member inserted at the
front of every union there renames nothing else, and ``diff`` reads the change as compatible.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path
from collections.abc import Iterator
from typing import Any

import pytest

from conftest import shared
from schemagen import ir
from schemagen.diagnostics import Reporter
from schemagen.frontend.read import read_document
from schemagen.project.inputs import Input
from schemagen.project.pipeline import to_ir
from schemagen.review.changes import compare


def _ir(tmp_path: Path, document: dict[str, Any], name: str = "spec.json") -> ir.Module:
    path = tmp_path / name
    path.write_text(json.dumps(document))
    return to_ir(Input("spec", path, name), tmp_path, Reporter())


def _openapi(schemas: dict[str, Any]) -> dict[str, Any]:
    return {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {},
            "components": {"schemas": schemas}}


def _names(module: ir.Module) -> list[str]:
    return [d.name for d in module.declarations]


def _alias(module: ir.Module, name: str) -> ir.Type:
    found = next(d for d in module.declarations if d.name == name)
    assert isinstance(found, ir.Alias), found
    return found.type


PETS = {
    "Cat": {"type": "object", "required": ["type"], "properties": {"type": {"type": "string"}, "meow": {"type": "boolean"}}},
    "Dog": {"type": "object", "required": ["type"], "properties": {"type": {"type": "string"}, "bark": {"type": "boolean"}}},
}


def test_a_member_that_type_object_beside_adds_nothing_to_is_the_component(tmp_path: Path) -> None:
    pet = {"type": "object", "oneOf": [{"$ref": "#/components/schemas/Cat"}, {"$ref": "#/components/schemas/Dog"}],
           "discriminator": {"propertyName": "type", "mapping": {"cat": "#/components/schemas/Cat",
                                                                 "dog": "#/components/schemas/Dog"}}}
    module = _ir(tmp_path, _openapi({"Pet": pet, **PETS}))
    assert sorted(_names(module)) == ["Cat", "Dog", "Pet"]
    assert _alias(module, "Pet") == ir.Union((ir.Ref("Cat"), ir.Ref("Dog")), "type", (("Cat", "cat"), ("Dog", "dog")))


def test_a_member_that_what_is_beside_changes_is_still_its_own_class(tmp_path: Path) -> None:
    pet = {"type": "object", "required": ["meow"], "oneOf": [{"$ref": "#/components/schemas/Cat"},
                                                             {"$ref": "#/components/schemas/Dog"}]}
    module = _ir(tmp_path, _openapi({"Pet": pet, **PETS}))
    # `meow` is required in each member now: both are new models, named by what they refer to
    assert _alias(module, "Pet") == ir.Union((ir.Ref("PetCat"), ir.Ref("PetDog")))


def test_a_ref_whose_siblings_the_target_already_says_is_the_target(tmp_path: Path) -> None:
    owner = {"type": "object", "properties": {"pet": {"$ref": "#/components/schemas/Cat", "required": ["type"]}}}
    module = _ir(tmp_path, _openapi({"Owner": owner, **PETS}))
    assert sorted(_names(module)) == ["Cat", "Dog", "Owner"]


def test_a_type_beside_a_nullable_target_takes_its_null_away(tmp_path: Path) -> None:
    cat = {**PETS["Cat"], "type": ["object", "null"]}
    owner = {"type": "object", "properties": {"pet": {"type": "object", "anyOf": [{"$ref": "#/components/schemas/Cat"},
                                                                                  {"$ref": "#/components/schemas/Dog"}]}}}
    module = _ir(tmp_path, _openapi({"Owner": owner, "Cat": cat, "Dog": PETS["Dog"]}))
    model = next(d for d in module.declarations if d.name == "Owner")
    assert isinstance(model, ir.Model)
    assert model.fields[0].type == ir.Union((ir.Ref("Cat"), ir.Ref("Dog")))


def test_an_inline_object_written_as_a_component_is_that_component(tmp_path: Path) -> None:
    strategy = {"type": "object", "description": "Auto.", "properties": {"type": {"const": "auto"}}}
    owner = {"type": "object", "properties": {"strategy": {**strategy, "description": "Auto."},
                                              "other": {**strategy, "description": "Something else."}}}
    module = _ir(tmp_path, _openapi({"Owner": owner, "Auto": strategy}))
    model = next(d for d in module.declarations if d.name == "Owner")
    assert isinstance(model, ir.Model)
    # the same words are the component; other words are another concept (its own class)
    assert [f.type for f in model.fields] == [ir.Ref("Auto"), ir.Ref("OwnerOther")]


def test_two_inline_objects_alike_stay_two(tmp_path: Path) -> None:
    item = {"type": "object", "properties": {"a": {"type": "string"}}}
    module = _ir(tmp_path, _openapi({"Owner": {"type": "object", "properties": {"x": item, "y": item}}}))
    assert sorted(_names(module)) == ["Owner", "OwnerX", "OwnerY"]


def _member(title: str | None = None, tag: str | None = None, **extra: Any) -> dict[str, Any]:
    properties: dict[str, Any] = {"value": {"type": "string"}}
    if tag is not None:
        properties = {"type": {"const": tag}, **properties}
    return {"type": "object", **({"title": title} if title else {}), "properties": properties, **extra}


def test_members_are_named_by_title_then_tag_then_reference_then_kind_then_place(tmp_path: Path) -> None:
    event = {"anyOf": [
        _member("Text delta"),                                  # a title in words: after the union's name
        _member("ResponseAudioDone"),                           # a title written as a class name: as it is
        _member(tag="response.audio.delta"),                    # its tag
        {"$ref": "#/components/schemas/Cat", "required": ["meow"]},  # what it refers to
        {"type": "array", "items": _member()},                   # the one array: the union's name, items …Item
        _member(), _member(),                                   # nothing of their own: their place
    ]}
    module = _ir(tmp_path, _openapi({"Event": event, **PETS}))
    assert sorted(_names(module)) == sorted(["Event", "EventTextDelta", "ResponseAudioDone", "EventResponseAudioDelta",
                                             "EventCat", "EventItem", "EventOption1", "EventOption2", "Cat", "Dog"])


def test_a_name_two_members_share_is_no_member_s_name(tmp_path: Path) -> None:
    event = {"anyOf": [_member("Same", tag="a"), _member("Same", tag="b")]}
    module = _ir(tmp_path, _openapi({"Event": event}))
    assert sorted(_names(module)) == ["Event", "EventA", "EventB"]


def test_inserting_a_member_renames_no_other(tmp_path: Path) -> None:
    members = [_member("First"), _member(tag="second"), _member(), {"$ref": "#/components/schemas/Cat", "required": ["meow"]}]
    before = _ir(tmp_path, _openapi({"Event": {"anyOf": members}, **PETS}), "before.json")
    after = _ir(tmp_path, _openapi({"Event": {"anyOf": [_member("Inserted"), *members]}, **PETS}), "after.json")
    assert set(_names(before)) < set(_names(after))
    changes = compare("p", before, after)
    assert changes and {c.severity for c in changes} == {"compatible"}, changes


def _insert_everywhere(node: Any, schemas: dict[str, Any], counter: list[int], *, least: int) -> Any:
    """``node`` with a new titled object member first in every ``anyOf`` and ``oneOf`` list of at
    least ``least`` members but null: a new kind of event, tagged as the members it joins are (``_tags``)."""
    if isinstance(node, list):
        return [_insert_everywhere(v, schemas, counter, least=least) for v in node]
    if not isinstance(node, dict):
        return node
    out = {k: _insert_everywhere(v, schemas, counter, least=least) for k, v in node.items()}
    for keyword in ("anyOf", "oneOf"):
        members = out.get(keyword)
        if isinstance(members, list) and sum(1 for m in members if m != {"type": "null"}) >= least:
            counter[0] += 1
            n = counter[0]
            tags = _tags(node, schemas)
            out[keyword] = [{"type": "object", "title": f"Inserted member {n}", "required": tags,
                             "properties": {f"inserted_{n}": {"type": "string"},
                                            **{t: {"type": "string", "enum": [f"inserted_{n}"]} for t in tags}}},
                            *members]
    return out


def _tags(union: dict[str, Any], schemas: dict[str, Any]) -> list[str]:
    """The properties a union's members are told apart by: the discriminator's, and those that every
    object it may be (through references and nested unions) gives one value, when there are two or more."""
    discriminator = union.get("discriminator")
    found = [discriminator["propertyName"]] if isinstance(discriminator, dict) and "propertyName" in discriminator else []
    objects = list(_objects(union, schemas, set()))
    if len(objects) < 2:
        return found
    return found + [name for name in objects[0] if name not in found and all(
        isinstance(p.get(name), dict) and ("const" in p[name] or len(p[name].get("enum") or []) == 1) for p in objects)]


def _objects(schema: Any, schemas: dict[str, Any], seen: set[str]) -> Iterator[dict[str, Any]]:
    """The properties of each object a schema may be, through references, ``allOf`` and nested unions."""
    if not isinstance(schema, dict):
        return
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/components/schemas/") and ref not in seen:
        yield from _objects(schemas.get(ref.rsplit("/", 1)[1]), schemas, seen | {ref})
        return
    if isinstance(schema.get("allOf"), list):  # the properties of all its parts, as one object
        merged: dict[str, Any] = dict(schema.get("properties") or {})
        for part in schema["allOf"]:
            for found in _objects(part, schemas, seen):
                merged.update(found)
        yield merged
        return
    if isinstance(schema.get("properties"), dict):
        yield schema["properties"]
        return
    for keyword in ("anyOf", "oneOf"):
        for member in schema.get(keyword) or []:
            yield from _objects(member, schemas, seen)


@pytest.fixture(scope="module")
def openai() -> tuple[dict[str, Any], ir.Module]:
    document = read_document(shared("corpora/openai/openapi.yaml"), "openapi.yaml")
    return document, _lowered(document)


def _lowered(document: dict[str, Any]) -> ir.Module:
    folder = Path(tempfile.mkdtemp(prefix="member-names-"))
    try:
        return _ir(folder, document)
    finally:
        shutil.rmtree(folder)


def _inserted(document: dict[str, Any], least: int) -> tuple[ir.Module, int]:
    counter = [0]
    schemas = document["components"]["schemas"]
    components = _insert_everywhere(document["components"], schemas, counter, least=least)
    return _lowered({**document, "components": components}), counter[0]


def test_a_member_inserted_first_in_every_anyof_and_oneof_of_openai_renames_nothing(
        openai: tuple[dict[str, Any], ir.Module]) -> None:
    document, before = openai
    after, unions = _inserted(document, least=1)
    assert unions > 1000, unions  # nullable wrappers (`anyOf: [X, null]`) and unions alike
    lost = set(_names(before)) - set(_names(after))
    assert not lost, sorted(lost)


def test_a_member_inserted_first_in_every_union_of_openai_is_a_compatible_change(
        openai: tuple[dict[str, Any], ir.Module]) -> None:
    """Into a nullable wrapper, a second member would make a union of what was one type; here only
    into unions of two or more alternatives, where ``diff`` must see additions only."""
    document, before = openai
    after, unions = _inserted(document, least=2)
    assert unions > 300, unions
    changes = compare("openai", before, after)
    assert {c.severity for c in changes} == {"compatible"}, "\n".join(str(c) for c in changes if c.severity != "compatible")


def test_a_member_that_is_a_union_of_its_own_passes_the_name_on(tmp_path: Path) -> None:
    holder = {"type": "object", "properties": {"approval": {"anyOf": [
        {"oneOf": [_member("Approval filter"), {"type": "string", "title": "Approval setting"}]},
        {"type": "null"}]}}}
    module = _ir(tmp_path, _openapi({"Holder": holder}))
    assert sorted(_names(module)) == ["Holder", "HolderApprovalFilter"]
