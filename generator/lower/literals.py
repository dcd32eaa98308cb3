"""``const`` and ``enum``: a ``Literal`` of their strings, integers and booleans, and null beside it."""

from __future__ import annotations

from typing import Any

from .. import ir
from ..diagnostics import Reporter
from ..frontend.schema import Schema
from .constraints import INT64
from .shapes import distinct, json_type, type_of_value


def literal(schema: Schema, values: list[Any], reporter: Reporter) -> ir.Type:
    """The type of ``values`` (those of the schema's ``type``); ``None`` is a ``Null`` member."""
    kinds = schema.get("type")
    allowed = [kinds] if isinstance(kinds, str) else kinds if isinstance(kinds, list) else None
    if allowed is not None:
        values = [v for v in values if json_type(v) in allowed or (json_type(v) == "integer" and "number" in allowed)]
    if not values:
        reporter.warn(schema.loc, "an enum that no value can satisfy is typed as Any", kind="impossible schema")
        return ir.AnyType()
    plain = all(v is None or isinstance(v, (str, int)) for v in values)  # (booleans are ints)
    large = plain and any(type(v) is int and not INT64[0] <= v <= INT64[1] for v in values)  # msgspec: int64 only
    if not plain or large:
        what = "integers beyond 64 bits" if large else "values that are not strings, integers or booleans"
        reporter.warn(schema.loc, f"enum or const {what} are typed by their JSON type", kind="loose enum")
        return ir.union(*(type_of_value(v) for v in values))
    present = tuple(v for v in distinct(values) if v is not None)
    found: ir.Type = ir.Literal(present) if present else ir.Null()
    return ir.union(found, ir.Null()) if None in values else found
