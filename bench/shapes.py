"""Schemas of one shape at any size: what ``bench/growth.py`` times and ``tests/test_growth.py`` counts.

Each shape is a function ``n -> document`` (a JSON Schema, or an OpenAPI document where the shape is
OpenAPI's) whose size is linear in ``n``: doubling ``n`` doubles the schema, so a stage whose cost more
than doubles with it costs more than linear time in the input.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Document = dict[str, Any]


def depth(n: int) -> Document:
    """Inline objects nested ``n`` deep (``x`` holds an object whose ``x`` holds an object…)."""
    inner: Document = {"type": "string"}
    for _ in range(n):
        inner = {"type": "object", "properties": {"x": inner}, "required": ["x"]}
    return {"title": "Deep", **inner}


def unions_in_unions(n: int) -> Document:
    """``anyOf`` inside ``anyOf``, ``n`` deep, each level adding an object member of its own."""
    inner: Document = {"type": "string"}
    for i in range(n):
        member = {"type": "object", "properties": {f"p{i}": {"type": "integer"}}, "required": [f"p{i}"]}
        inner = {"anyOf": [member, inner]}
    return {"title": "Nested", "type": "object", "properties": {"u": inner}}


def all_of_chain(n: int) -> Document:
    """``D0`` is ``allOf [D1, own property]``, ``D1`` is ``allOf [D2, …]``: ``n`` links."""
    defs: Document = {f"D{i}": {"allOf": [{"$ref": f"#/$defs/D{i + 1}"},
                                          {"type": "object", "properties": {f"p{i}": {"type": "string"}}}]}
                      for i in range(n)}
    defs[f"D{n}"] = {"type": "object", "properties": {"last": {"type": "integer"}}}
    return {"title": "Chain", "$ref": "#/$defs/D0", "$defs": defs}


def ref_chain(n: int) -> Document:
    """``R0`` is ``$ref R1``, … ``n`` links to one object."""
    defs: Document = {f"R{i}": {"$ref": f"#/$defs/R{i + 1}"} for i in range(n)}
    defs[f"R{n}"] = {"type": "object", "properties": {"x": {"type": "string"}}}
    return {"title": "Refs", "type": "object", "properties": {"r": {"$ref": "#/$defs/R0"}}, "$defs": defs}


def wide(n: int) -> Document:
    """One object with ``n`` properties of several kinds, under keys of several kinds: a name as it is,
    one no variant can take (``p-1``), one only pydantic cannot take (``_p3``, a private attribute there)."""
    kinds = ({"type": "string"}, {"type": "integer", "minimum": 0}, {"type": ["string", "null"]},
             {"type": "array", "items": {"type": "number"}}, {"type": "object", "properties": {"a": {"type": "string"}}})
    keys = [(f"p{i}", f"p-{i}", f"p{i}", f"_p{i}")[i % 4] for i in range(n)]
    return {"title": "Wide", "type": "object",
            "properties": {key: kinds[i % len(kinds)] for i, key in enumerate(keys)}, "required": keys[::2]}


def wide_union(n: int) -> Document:
    """One ``anyOf`` of ``n`` objects (an untagged union: each has a title and a property of its own)."""
    members = [{"title": f"Member{i}", "type": "object", "properties": {f"m{i}": {"type": "string"}},
                "required": [f"m{i}"]} for i in range(n)]
    return {"title": "Either", "type": "object", "properties": {"u": {"anyOf": members}}}


def long_enum(n: int) -> Document:
    """A named enum of ``n`` values, used by a property."""
    return {"title": "Enums", "type": "object", "properties": {"e": {"$ref": "#/$defs/Kind"}},
            "$defs": {"Kind": {"enum": [f"value_{i}" for i in range(n)]}}}


def shared_members(n: int) -> Document:
    """``n`` tagged members and ``n`` unions, each of eight of them, tagged by ``type``
    (an OpenAPI document: ``discriminator``)."""
    schemas: Document = {
        f"M{i}": {"type": "object", "required": ["type"],
                  "properties": {"type": {"type": "string", "enum": [f"m{i}"]}, f"v{i}": {"type": "integer"}}}
        for i in range(n)}
    for i in range(n):
        members = [f"M{(i + k) % n}" for k in range(min(8, n))]
        schemas[f"U{i}"] = {"oneOf": [{"$ref": f"#/components/schemas/{m}"} for m in members],
                            "discriminator": {"propertyName": "type"}}
    return {"openapi": "3.1.0", "info": {"title": "Shared", "version": "1"}, "paths": {},
            "components": {"schemas": schemas}}


def inline_copies(n: int) -> Document:
    """``n`` named objects, each with an inline copy of the next one's shape: the sharing pass's work."""
    def shape(i: int) -> Document:
        return {"type": "object", "properties": {"k": {"type": "string"}, f"q{i}": {"type": "integer"}}}
    defs: Document = {f"C{i}": {**shape(i), "properties": {**shape(i)["properties"], "next": shape(i + 1)}}
                      for i in range(n)}
    defs[f"C{n}"] = shape(n)
    return {"title": "Copies", "type": "object", "properties": {"c": {"$ref": "#/$defs/C0"}}, "$defs": defs}


def fold_fan_in(n: int) -> Document:
    """``n`` components, each ``allOf`` a base with an inline object and a list of them, and an own
    property: one inline class for all of them (``Lowering.inline``), each lowered after the base."""
    base = {"type": "object", "properties": {"owner": {"type": "object", "properties": {"name": {"type": "string"}}},
                                             "choices": {"type": "array", "items": {
                                                 "type": "object", "properties": {"i": {"type": "integer"}}}}}}
    schemas: Document = {f"K{i}": {"allOf": [{"$ref": "#/components/schemas/Base"},
                                            {"type": "object", "properties": {f"v{i}": {"type": "string"}}}]}
                         for i in range(n)}
    schemas["Base"] = base  # (listed last: lowered first all the same)
    return {"openapi": "3.1.0", "info": {"title": "Fan", "version": "1"}, "paths": {}, "components": {"schemas": schemas}}


def wide_warnings(n: int) -> Document:
    """One object with ``n`` properties, each with a problem the meta-schema check warns of (``examples``
    not a list): the problems put in the document's order (``validate.problems``)."""
    return {"title": "Warned", "type": "object",
            "properties": {f"p{i}": {"type": "string", "examples": f"e{i}"} for i in range(n)}}


def union_fan_in(n: int) -> Document:
    """``n`` components, each ``allOf`` a base whose union sits beside its properties: each folds the
    union's branches afresh, with its own property in them, at the same places (``lower.places``: a
    place met with many contents)."""
    base = {"type": "object", "properties": {"id": {"type": "string"}},
            "oneOf": [{"properties": {"kind": {"const": "a"}, "a": {"type": "string"}}, "required": ["kind"]},
                      {"properties": {"kind": {"const": "b"}, "b": {"type": "integer"}}, "required": ["kind"]}]}
    schemas: Document = {f"K{i}": {"allOf": [{"$ref": "#/components/schemas/Base"},
                                            {"type": "object", "properties": {f"v{i}": {"type": "string"}}}]}
                         for i in range(n)}
    schemas["Base"] = base
    return {"openapi": "3.1.0", "info": {"title": "Unions", "version": "1"}, "paths": {},
            "components": {"schemas": schemas}}


def path_item_chain(n: int) -> Document:
    """``n`` paths, each a ``$ref`` to the first of a chain of ``n`` path items that ends in one with an
    operation: each link followed once, not once per path."""
    items: Document = {f"P{i}": {"$ref": f"#/components/pathItems/P{i + 1}"} for i in range(n)}
    items[f"P{n}"] = {"get": {"operationId": "getIt", "responses": {"200": {"description": "ok", "content": {
        "application/json": {"schema": {"type": "object", "properties": {"a": {"type": "string"}}}}}}}}}
    paths = {f"/p{i}": {"$ref": "#/components/pathItems/P0"} for i in range(n)}
    return {"openapi": "3.1.0", "info": {"title": "Chain", "version": "1"}, "paths": paths,
            "components": {"pathItems": items}}


SHAPES: dict[str, Callable[[int], Document]] = {
    "depth": depth,
    "anyOf in anyOf": unions_in_unions,
    "allOf chain": all_of_chain,
    "$ref chain": ref_chain,
    "wide object": wide,
    "wide union": wide_union,
    "long enum": long_enum,
    "shared members": shared_members,
    "inline copies": inline_copies,
    "allOf fan-in": fold_fan_in,
    "path-item chain": path_item_chain,
    "wide warnings": wide_warnings,
    "union fan-in": union_fan_in,
}
