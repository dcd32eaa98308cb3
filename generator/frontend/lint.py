"""Likely mistakes in a schema you do not control, as warnings with their place (the canonical set,
after the meta-schema check). Each rule is a warning kind of its own:

- ``stray mapping``: a ``discriminator`` maps a value to a schema that is no member of the
  ``oneOf``/``anyOf`` beside it (or to no schema at all);
- ``rejected value``: an ``examples`` item, or a ``default`` anywhere but on a property, that the
  schema it is written in rejects (``values``). A property's default is checked against its field's
  type, and left out when it does not fit (``passes.defaults``); OpenAPI's ``example``, which its
  dialect reads (``SchemaSet.examples``), is checked as written or as the JSON text of a value
  (``examples``).

Other rules need what the front end does not know: a ``required`` key no property holds is found
once ``allOf`` is folded (``lower.objects``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ..diagnostics import Location, Reporter, few
from .schema import LIST_KEYS, MAP_KEYS, ONE_KEYS, Definition, Schema, SchemaSet
from .values import Values



def check(schemas: SchemaSet, reporter: Reporter) -> None:
    values = walked(schemas.definitions, schemas.definitions, reporter)
    if values:
        rejected(values, schemas.definitions, reporter)


def walked(walk: Mapping[str, Definition], definitions: Mapping[str, Definition],
           reporter: Reporter) -> list[tuple[Location, str, Any, Schema]]:
    """The schemas of the definitions ``walk`` (of ``definitions``), each once: their ``discriminator`` mappings
    checked, and the values they give themselves (each ``default`` but a property's, each ``examples`` item)
    to check, in the order met."""
    values: list[tuple[Location, str, Any, Schema]] = []
    for schema, keyword in _walk(walk):
        if "discriminator" in schema:
            mapping(schema, definitions, reporter)
        if "default" in schema and keyword != "properties":
            values.append((schema.loc.child("default"), "default", schema["default"], schema))
        items = schema.get("examples")
        if isinstance(items, list):
            values.extend((schema.loc.child("examples", i), "`examples` item", v, schema) for i, v in enumerate(items))
    return values


def examples(schemas: SchemaSet, reporter: Reporter) -> None:
    """Warn of each example the dialect read (``SchemaSet.examples``) that its schema rejects."""
    if schemas.examples:
        rejected(list(schemas.examples), schemas.definitions, reporter, text_too=True)


def rejected(values: list[tuple[Location, str, Any, Schema]], definitions: Mapping[str, Definition],
             reporter: Reporter, *, text_too: bool = False) -> None:
    """Warn of each (place, what, value, its schema) that the schema rejects. ``text_too``: a string is
    also accepted when it is the JSON text of a value the schema accepts (as OpenAPI lets an
    ``example`` be written)."""
    import json

    checker = Values(definitions)
    for where, what, value, schema in values:
        reason = checker.rejection(value, schema)
        if reason is not None and text_too and isinstance(value, str):
            try:
                reason = checker.rejection(json.loads(value), schema) and reason
            except ValueError:
                pass
        if reason is not None:
            reporter.warn(where, f"the {what} is rejected by its own schema: {reason}",
                          "fix the value or the schema (schemagen does not use it)", kind="rejected value")


def mapping(schema: Schema, definitions: Mapping[str, Definition], reporter: Reporter) -> None:
    """Each ``discriminator.mapping`` target must be a member of the union beside it."""
    tags = schema.get("discriminator")
    targets = tags.get("mapping") if isinstance(tags, dict) else None
    keyword = next((k for k in ("oneOf", "anyOf") if isinstance(schema.get(k), list)), None)
    if not isinstance(targets, dict) or keyword is None:
        return  # (a discriminator on a base schema that others extend: no members to check)
    members = [m for m in (_member(o) for o in schema[keyword]) if m is not None]
    names = [definitions[m].name if m in definitions else m for m in members]
    for value, target in targets.items():
        if not isinstance(target, str) or target in members:
            continue
        said = f"names no schema of {schema.loc.path}" if target not in definitions else \
            f"is not a member of the `{keyword}` beside it ({few(names, ' | ') or 'no reference'})"
        reporter.warn(schema.loc.child("discriminator", "mapping", value),
                      f"`discriminator` maps {value!r} to {target}, which {said}",
                      f"add it to the `{keyword}`, or fix the mapping", kind="stray mapping")


def _member(option: Any) -> str | None:
    """The definition a union member is: its ``$ref``, or the one reference of its ``allOf``."""
    if not isinstance(option, Schema):
        return None
    members = option.get("allOf")
    if "$ref" not in option and isinstance(members, list) and len(members) == 1 and isinstance(members[0], Schema):
        option = members[0]
    ref = option.get("$ref")
    return ref if isinstance(ref, str) else None


def _walk(definitions: Mapping[str, Definition]) -> Iterator[tuple[Schema, str | None]]:
    """Every schema of the set once, with the keyword it is found under (``None`` for a definition)."""
    seen: set[int] = set()
    stack: list[tuple[Schema, str | None]] = [(d.schema, None) for d in reversed(list(definitions.values()))]
    while stack:
        schema, keyword = stack.pop()
        if id(schema) in seen:
            continue
        seen.add(id(schema))
        yield schema, keyword
        found: list[tuple[Schema, str | None]] = []
        for key, value in schema.items():
            if key in ONE_KEYS and isinstance(value, Schema):
                found.append((value, key))
            elif key in LIST_KEYS and isinstance(value, list):
                found.extend((v, key) for v in value if isinstance(v, Schema))
            elif key in MAP_KEYS and isinstance(value, dict):
                found.extend((v, key) for v in value.values() if isinstance(v, Schema))
        stack.extend(reversed(found))
