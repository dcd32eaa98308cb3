"""What a canonical schema says on its own: readings of one schema or value that need none of
lowering's state (``lower`` keeps that state; these are the questions it asks on the way)."""

from __future__ import annotations

from typing import Any

from .. import ir
from ..frontend.schema import PYTHON_NAME, Schema

#: Keywords beside a ``$ref`` that only describe it: the reference is the referenced type itself.
REF_ANNOTATIONS = frozenset(
    {"$ref", "description", "title", "default", "examples", "deprecated", "$comment", "type",
     "readOnly", "writeOnly", "$id", "$schema", "$anchor", "definitions", "$defs", "format", PYTHON_NAME}
)
NEVER: dict[str, Any] = {"not": {}}
"""The schema that accepts nothing (``false``, as the front end writes it)."""
KINDS: dict[str, ir.ScalarKind | None] = {
    "string": "str", "integer": "int", "number": "float", "boolean": "bool",
    "null": None, "array": None, "object": None,
}


def is_file_ref(ref: str) -> bool:
    """``schemas/other.json#/definitions/X``, as the normaliser writes a reference to another file."""
    file = ref.split("#", 1)[0]
    return bool(file) and ":" not in file.split("/", 1)[0]


def has_constant(schema: Schema, field: str) -> bool:
    sub = (schema.get("properties") or {}).get(field)
    return isinstance(sub, Schema) and ("const" in sub or len(sub.get("enum") or []) == 1)


def implied_kind(schema: Schema) -> str | None:
    """``object`` or ``array`` for a schema typed only by its keywords (see ``_type_of``)."""
    if any(k in schema for k in ("type", "$ref", "const", "enum", "anyOf", "oneOf")):
        return None
    if any(k in schema for k in ("properties", "additionalProperties", "patternProperties", "required")):
        return "object"
    return "array" if "items" in schema or "prefixItems" in schema else None


def mixed_with_object(schema: Schema) -> bool:
    """``type: ["object", "string"]``: an object or another kind (``null`` aside)."""
    kinds = schema.get("type")
    return isinstance(kinds, list) and "object" in kinds and any(k not in ("object", "null") for k in kinds)


def is_model(schema: Schema) -> bool:
    kinds = schema.get("type")
    objecty = kinds is None or kinds == "object" or (isinstance(kinds, list) and "object" in kinds)
    plain = not any(k in schema for k in ("$ref", "anyOf", "oneOf", "allOf", "enum", "const"))
    return objecty and plain and bool(schema.get("properties"))


def json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "integer" if value.is_integer() else "number"
    names: dict[type[Any], str] = {str: "string", list: "array", dict: "object"}
    return names[type(value)]


def type_of_value(value: Any) -> ir.Type:
    kind = json_type(value)
    if kind == "array":
        return ir.Array(ir.AnyType())
    if kind == "object":
        return ir.Map(ir.AnyType())
    scalar_kind = KINDS[kind]
    return ir.Scalar("float" if kind == "integer" and isinstance(value, float) else scalar_kind) if scalar_kind else ir.Null()


def distinct(values: list[Any]) -> list[Any]:
    """Values without repeats, telling ``1`` and ``True`` apart (``dict.fromkeys`` would not); inside
    an array or object, Python's ``==`` (``[1]`` is ``[1.0]``). One look-up a value."""
    seen: dict[tuple[type, Any], Any] = {}
    for v in values:
        seen.setdefault((type(v), _frozen(v)), v)
    return list(seen.values())


def _frozen(value: Any) -> Any:
    """``value``, hashable, equal where the JSON values are ``==``."""
    if isinstance(value, dict):
        return frozenset((k, _frozen(v)) for k, v in value.items())
    if isinstance(value, list):
        return tuple(map(_frozen, value))
    return value


def description(schema: Schema) -> str | None:
    """The schema's description; for ``anyOf [X, null]``, X's (the same thing said another way)."""
    own = text(schema.get("description"))
    if own is not None:
        return own
    for member in schema.get("allOf") or []:  # a property merged from several allOf members
        found = description(member) if isinstance(member, Schema) else None
        if found:
            return found
    for keyword in ("anyOf", "oneOf"):
        options = [s for s in schema.get(keyword) or [] if isinstance(s, Schema) and s.get("type") != "null"]
        if len(options) == 1:
            return description(options[0])
    return None


def text(value: Any) -> str | None:
    return value if isinstance(value, str) and value.strip() else None
