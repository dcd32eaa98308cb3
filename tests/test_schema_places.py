"""Where ``wrap`` says each subschema is (generator/frontend/schema.py): a ``Location`` made only when asked,
the one the pointer to it gives, whichever subschema is asked first. The oracle is a walk of the raw
document that writes each pointer out itself (RFC 6901: ``~`` as ``~0``, ``/`` as ``~1``)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from schemagen.diagnostics import Location
from schemagen.frontend.schema import LIST_KEYS, MAP_KEYS, ONE_KEYS, Schema, wrap

DOCUMENT: dict[str, Any] = {
    "type": "object",
    "properties": {
        "a/b": {"type": "array", "items": {"anyOf": [{"type": "string"}, {"$ref": "#/$defs/x~y"}]}},
        "plain": {"allOf": [{"properties": {"deep": {"not": {"type": "null"}}}}, True, False]},
        "7": {"additionalProperties": {"prefixItems": [{"const": 1}, {"const": 2}]}},
    },
    "$defs": {"x~y": {"type": "integer"}, "": {"description": "an empty key"}},
}


def _escaped(token: str | int) -> str:
    return str(token).replace("~", "~0").replace("/", "~1")


def _expected(raw: Any, made: Any, pointer: str) -> Iterator[tuple[Schema, str]]:
    """Every ``Schema`` of ``made`` (what ``wrap`` made of ``raw``) with the pointer to its place in ``raw``."""
    if not isinstance(made, Schema):
        return
    yield made, pointer
    if isinstance(raw, bool):  # (``false`` is ``{"not": {}}``, both in its place)
        yield from ((sub, pointer) for sub in made.values() if isinstance(sub, Schema))
        return
    for key, value in raw.items():
        here = f"{pointer}/{_escaped(key)}"
        if key in ONE_KEYS and isinstance(value, (dict, bool)):
            yield from _expected(value, made[key], here)
        elif key in LIST_KEYS and isinstance(value, list):
            for i, item in enumerate(value):
                yield from _expected(item, made[key][i], f"{here}/{i}")
        elif key in MAP_KEYS and isinstance(value, dict):
            for name, item in value.items():
                yield from _expected(item, made[key][name], f"{here}/{_escaped(name)}")


@pytest.mark.parametrize("seed", range(5))
def test_each_subschema_is_where_its_pointer_says_whatever_is_asked_first(seed: int) -> None:
    root = Location("schemas/api.yaml", "/components/schemas/Model")
    found = list(_expected(DOCUMENT, wrap(DOCUMENT, root), root.pointer))
    assert len(found) == 18
    random.Random(seed).shuffle(found)  # (a child asked before its parent, and after)
    for schema, pointer in found:
        assert schema.file == root.path
        assert schema.loc == Location(root.path, pointer)
        assert schema.loc is schema.loc  # (made once)


def test_a_schema_made_with_its_location_keeps_it() -> None:
    where = Location("a.json", "/x", line=3, column=5)
    assert Schema({}, where).loc is where
    assert Schema({}, where).file == "a.json"
