"""The normalised schema: what both dialects are rewritten into before lowering.

A ``SchemaSet`` is JSON Schema 2020-12 in a canonical shape: every subschema is a ``Schema``
(a dict that knows where it came from), every ``$ref`` is the key of a definition of the set,
``null`` is spelt as a type or an ``anyOf`` member, and ``discriminator`` names the property
that tells the members of a ``oneOf``/``anyOf`` apart. Dialect keywords are gone.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from ..diagnostics import Location
from ..frozen import Frozen

#: Keywords whose value is one subschema, a list of them, or a map of names to them.
ONE_SCHEMA = (
    "items", "additionalProperties", "not", "contains", "if", "then", "else",
    "propertyNames", "unevaluatedItems", "unevaluatedProperties", "additionalItems",
)
SCHEMA_LIST = ("anyOf", "oneOf", "allOf", "prefixItems")
SCHEMA_MAP = ("properties", "patternProperties", "definitions", "$defs", "dependentSchemas")
#: The same as sets, for the walks that ask it of every key (``items`` holds a list of schemas before 2020-12).
ONE_KEYS, LIST_KEYS, MAP_KEYS = frozenset(ONE_SCHEMA), frozenset(SCHEMA_LIST) | {"items"}, frozenset(SCHEMA_MAP)
#: The Python name a vendor extension gives a schema (``x-stainless-naming``, ``x-speakeasy-name-override``),
#: as the front end writes it: the one ``x-`` key a normalised schema keeps. An annotation: it says
#: what to call the schema's class, nothing of what it accepts; it names that schema only, so folding
#: takes it from the folded schema itself, never from what it folds in.
PYTHON_NAME = "x-python-name"


Place = Location | tuple[Any, ...]
"""Where a schema is: its ``Location``, or (until first asked) the place of the schema or list or map it is
in and the tokens down from there, which ``Schema.loc`` makes a ``Location`` of (``wrap`` makes no
``Location`` for the subschemas of a document: most are never asked where they are)."""


class Schema(dict[str, Any]):
    """A schema object together with the place it was read from."""

    __slots__ = ("_place",)

    def __init__(self, data: dict[str, Any], loc: Place) -> None:
        super().__init__(data)
        self._place = loc

    @property
    def loc(self) -> Location:
        """Where the schema was read from."""
        place = self._place
        if isinstance(place, Location):
            return place
        up: list[tuple[Any, ...]] = []  # (each step up, from this schema to the nearest Location)
        while not isinstance(place, Location):
            up.append(place)
            place = place[0]
        found = self._place = place.child(*(token for step in reversed(up) for token in step[1:]))
        return found

    @property
    def place(self) -> Place:
        """Where the schema is, as ``Schema`` takes it (for a copy in its place: its ``Location`` is not made)."""
        return self._place

    @property
    def file(self) -> str:
        """``loc.path``: the file the schema was read from (its ``Location`` is not made for it)."""
        place = self._place
        while not isinstance(place, Location):
            place = place[0]
        return place.path


class Definition(Frozen, frozen=True):
    key: str
    """What a canonical ``$ref`` says to name this definition."""
    name: str
    """The name the schema gives it (a definition key, a component name, a title), or one made for it
    (``derived``)."""
    schema: Schema
    derived: bool = False
    """``name`` is made from where the schema is used (an OpenAPI operation's body), not given by the
    schema: it is chosen after every name the schema gives and what those definitions declare inline,
    so that adding such a definition renames nothing else, and its declaration is an inline one."""


class SchemaSet(Frozen, frozen=True):
    definitions: dict[str, Definition]
    """By key, in document order; the root document (if it is a type itself) comes first."""
    anything: frozenset[str] = frozenset()
    """Keys that a ``$ref`` may name and no definition holds, because what they name constrains
    nothing: the root of a JSON Schema document of metadata alone (``{"$schema": …}``, as ``{}``).
    A reference to one is ``Any``."""
    openapi: bool = False
    """Read from an OpenAPI (or Swagger) document or component files: a schema file it refers to is
    read with their keywords (``nullable``, ``discriminator``), not as plain JSON Schema (``bundle``)."""
    responses: frozenset[str] | None = None
    """The keys of the definitions that are the bodies of responses (what a client reads), where
    operations have bodies; ``None``: not known (no operation read has a body; a JSON Schema document;
    component files)."""
    examples: tuple[tuple[Location, str, Any, Schema], ...] = ()
    """The values the dialect read as examples (OpenAPI's ``example``: where, what, the value, its
    schema), to be checked against their schemas in this set (``lint.rejected``, a JSON text too): with
    the other checks, after reading (``project.pipeline``)."""
    self_contained: bool = False
    """Every ``$ref`` names a place of the set's own document or folder (the dialect saw each one made
    canonical): ``bundle`` has no other file to read. ``False``: not known."""


def wrap(node: Any, loc: Place) -> Any:
    """Turn every subschema of ``node`` into a ``Schema`` that knows its location."""
    if isinstance(node, bool):
        return Schema({} if node else {"not": Schema({}, loc)}, loc)
    if not isinstance(node, dict):
        return node
    out = Schema({}, loc)  # (filled in place: every subschema of a document passes here)
    for key, value in node.items():
        if key in ONE_KEYS and isinstance(value, (dict, bool)):
            out[key] = wrap(value, (loc, key))
        elif key in LIST_KEYS and isinstance(value, list):
            out[key] = [wrap(v, (loc, key, i)) for i, v in enumerate(value)]
        elif key in MAP_KEYS and isinstance(value, dict):
            out[key] = {k: wrap(v, (loc, key, k)) for k, v in value.items()}
        else:
            out[key] = value
    return out


def canonical_text(schema: Schema) -> str:
    """What ``schema`` says, as text (not where: locations are no part of it). Two schemas with one text
    are one schema: the key of a meta-schema verdict (``cache.verdicts``), of an inline model at a place
    (``lower.places``)."""
    return json.dumps(schema, separators=(",", ":"), default=repr)


def refs_of(schema: Any) -> list[str]:
    """Every ``$ref`` string in ``schema`` and its subschemas."""
    found: list[str] = []
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, Schema):
            if isinstance(node.get("$ref"), str):
                found.append(node["$ref"])
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, dict):
            stack.extend(node.values())
    return found


def reached(definitions: Mapping[str, Definition], roots: Iterable[str]) -> set[str]:
    """The keys of the definitions ``roots`` name, and of those they refer to, in turn (each walked once)."""
    seen: set[str] = set()
    todo = [key for key in roots if key in definitions]
    while todo:
        key = todo.pop()
        if key not in seen:
            seen.add(key)
            todo.extend(ref for ref in refs_of(definitions[key].schema) if ref in definitions and ref not in seen)
    return seen
