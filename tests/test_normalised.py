"""Each definition's normal form kept by the pieces it was read from (generator/cache/normalised.py): a run
after an edit rewrites the edited definition and takes the others as kept, and the set it gives is the
one normalising the document without any cache gives (the oracle): the same definitions, schemas and
places, examples, and whether it refers to another file."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from schemagen.cache import normalised, yaml_pieces
from schemagen.cache.places import Places
from schemagen.cache.store import Cache
from schemagen.diagnostics import Reporter
from schemagen.frontend.dialects import openapi
from schemagen.frontend.read import load_yaml, yaml_version
from schemagen.frontend.schema import Schema, SchemaSet

DOCUMENT: dict[str, Any] = {
    "openapi": "3.0.3",
    "info": {"title": "t", "version": "1"},
    "paths": {"/pets": {"get": {"responses": {"200": {"description": "ok", "content": {"application/json": {
        "schema": {"type": "array", "items": {"$ref": "#/components/schemas/Pet"}, "example": [{"kind": "cat"}]}}}}}}}},
    "components": {"schemas": {
        "Pet": {"type": "object", "required": ["kind"], "discriminator": {"propertyName": "kind", "mapping": {
            "cat": "Cat", "dog": "#/components/schemas/Dog"}}, "properties": {"kind": {"type": "string"}},
            "example": {"kind": "dog"}},
        "Cat": {"allOf": [{"$ref": "#/components/schemas/Pet"}, {"nullable": True}], "x-stainless-naming": {
            "python": {"type_name": "Kitty"}}, "description": "a cat"},
        "Dog": {"type": "object", "nullable": True, "required": ["secret"], "properties": {
            "secret": {"type": "string", "writeOnly": True}, "bark": {"type": "string", "example": "woof"}}},
        "Shared": {"$ref": "common.yaml#/components/schemas/Thing"},
    }},
}


def _read(text: str, cache: Cache) -> tuple[Any, Places]:
    found: yaml_pieces.Sources = []
    document, _ = yaml_pieces.load_measured(text, load_yaml, cache, yaml_version(), 1, found)
    return document, Places("api.yaml", found)


def _normalised(text: str, cache: Cache, made: list[str], made_from: dict[str, str] | None = None) -> SchemaSet:
    """The document normalised through the cache's keeper; ``made``: the keys it rewrote; ``made_from``: where
    the keeper's ``made_from`` is put."""
    document, places = _read(text, cache)
    keeper = normalised.Normalised(cache, "salt", "project").keeper(places)

    def keep(key: str, where: Any, context: str, own: str, make: Any) -> openapi.NormalForm:
        def noted() -> openapi.NormalForm:
            made.append(key)
            return make()
        return keeper(key, where, context, own, noted)

    schemas = openapi.normalise_document(document, "api.yaml", Reporter(), keep=keep)
    keeper.store()
    if made_from is not None:
        made_from.update(keeper.made_from())
    return schemas


def _schemas(node: Any) -> Iterator[Schema]:
    if isinstance(node, Schema):
        yield node
    if isinstance(node, dict):
        for value in node.values():
            yield from _schemas(value)
    elif isinstance(node, list):
        for value in node:
            yield from _schemas(value)


def _same(got: SchemaSet, oracle: SchemaSet) -> None:
    assert list(got.definitions) == list(oracle.definitions)
    for key, definition in oracle.definitions.items():
        kept = got.definitions[key]
        assert (kept.key, kept.name, kept.derived) == (definition.key, definition.name, definition.derived)
        assert kept.schema == definition.schema
        assert [s.loc for s in _schemas(kept.schema)] == [s.loc for s in _schemas(definition.schema)]
    assert [(where, kind, value, schema) for where, kind, value, schema in got.examples] == list(oracle.examples)
    inside = {id(s) for d in got.definitions.values() for s in _schemas(d.schema)}
    assert all(id(schema) in inside for *_, schema in got.examples)  # (each example's schema is its definition's)
    assert (got.self_contained, got.responses) == (oracle.self_contained, oracle.responses)


@pytest.fixture(autouse=True)
def cut_everything(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(yaml_pieces, "SPLIT", 0)


def test_an_edit_rewrites_the_edited_definition_and_gives_what_normalising_gives(tmp_path: Path) -> None:
    cache = Cache(tmp_path / "cache")
    text = yaml.safe_dump(DOCUMENT, sort_keys=False)
    for run, edited in enumerate([text, text, text.replace("description: a cat", "description: a small cat")]):
        made: list[str] = []
        got = _normalised(edited, cache, made)
        _same(got, openapi.normalise_document(load_yaml(edited), "api.yaml", Reporter()))
        assert made == [[*got.definitions], [], ["#/components/schemas/Cat"]][run]
        assert len(got.examples) == 3 and not got.self_contained  # (the body's, Pet's and bark's; common.yaml)


def test_what_a_definition_was_made_from_changes_with_its_text_and_the_context_only(tmp_path: Path) -> None:
    """``Keeper.made_from`` keys what follows from a definition alone (the meta-schema verdicts): the same for
    a definition an edit left alone, another for the edited one, and for all when the context changed."""
    cache = Cache(tmp_path / "cache")
    text = yaml.safe_dump(DOCUMENT, sort_keys=False)
    more = {**DOCUMENT, "components": {"schemas": {**DOCUMENT["components"]["schemas"], "Bird": {"type": "object"}}}}
    runs: list[dict[str, str]] = []
    for edited in [text, text.replace("description: a cat", "description: a small cat"),
                   yaml.safe_dump(more, sort_keys=False)]:
        _normalised(edited, cache, [], made_from := {})
        runs.append(made_from)
    first, second, third = runs
    assert set(first) == set(second) and len(first) == 5  # (the four components and the operation's body)
    assert {key for key in first if first[key] != second[key]} == {"#/components/schemas/Cat"}
    assert not set(first.values()) & set(third.values())
    assert len(set(first.values())) == len(first)


def test_a_new_component_name_is_a_new_context_every_definition_is_rewritten(tmp_path: Path) -> None:
    """A discriminator's mapping reads the names of the components: another name, another normal form."""
    cache = Cache(tmp_path / "cache")
    _normalised(yaml.safe_dump(DOCUMENT, sort_keys=False), cache, [])
    more = {**DOCUMENT, "components": {"schemas": {**DOCUMENT["components"]["schemas"], "Bird": {"type": "object"}}}}
    text = yaml.safe_dump(more, sort_keys=False)
    made: list[str] = []
    got = _normalised(text, cache, made)
    assert made == list(got.definitions)
    _same(got, openapi.normalise_document(load_yaml(text), "api.yaml", Reporter()))


def test_a_damaged_bucket_is_a_miss(tmp_path: Path) -> None:
    cache = Cache(tmp_path / "cache")
    text = yaml.safe_dump(DOCUMENT, sort_keys=False)
    _normalised(text, cache, [])
    slots = normalised.Normalised(cache, "salt", "project").keeper(_read(text, cache)[1]).slots
    cache.put_many(normalised.NAMESPACE, {slot: b"not a pickle" for slot in slots})
    made: list[str] = []
    got = _normalised(text, cache, made)
    assert made == list(got.definitions)
    _same(got, openapi.normalise_document(load_yaml(text), "api.yaml", Reporter()))


def test_a_body_named_where_it_is_used_is_named_anew_when_only_that_place_changes(tmp_path: Path) -> None:
    """An operation's body takes its name from the first operation that reaches it, which may be written
    elsewhere than the body (here, ``/a`` refers to ``/b``'s response): renaming that operation renames
    the body, whose own pieces did not change."""
    body = {"description": "ok", "content": {"application/json": {"schema": {
        "type": "object", "properties": {"x": {"type": "string"}}}}}}
    document = {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {
        "/a": {"get": {"operationId": "listThings", "responses": {"200": {"$ref": "#/paths/~1b/get/responses/200"}}}},
        "/b": {"get": {"operationId": "other", "responses": {"200": body}}}}}
    cache = Cache(tmp_path / "cache")
    text = yaml.safe_dump(document, sort_keys=False)
    _normalised(text, cache, [])
    renamed = text.replace("listThings", "listStuff")
    got = _normalised(renamed, cache, [])
    oracle = openapi.normalise_document(load_yaml(renamed), "api.yaml", Reporter())
    assert [d.name for d in oracle.definitions.values()] == ["ListStuffResponse"]
    _same(got, oracle)
