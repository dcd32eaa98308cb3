"""Value constraints and formats read from a (canonical) schema, per JSON type."""

from __future__ import annotations

import math
import re
from typing import Any

from . import ir
from .errors import Reporter
from .schema import Schema

#: JSON Schema / OpenAPI ``format`` values with a type of their own (others are plain strings).
#: (``duration`` stays a string: ``P1Y`` is valid ISO 8601 but no ``timedelta``; a number with
#: ``format: decimal`` stays a number: as ``Decimal`` msgspec would write it back as a string.)
STRING_FORMATS: dict[str, ir.Format] = {
    "date-time": "date-time", "date": "date", "time": "time", "uuid": "uuid", "byte": "base64", "decimal": "decimal",
}
NUMBER_FORMATS: dict[str, ir.Format] = {}
INT64 = (-(2**63), 2**63 - 1)


def scalar(kind: ir.ScalarKind, schema: Schema) -> ir.Scalar:
    formats = STRING_FORMATS if kind == "str" else NUMBER_FORMATS if kind == "float" else {}
    fmt = schema.get("format")
    return ir.Scalar(kind, formats.get(fmt) if isinstance(fmt, str) else None)


def constrain(t: ir.Type, kind: str, schema: Schema, reporter: Reporter) -> ir.Type:
    """``t`` (the lowering of ``schema`` as JSON type ``kind``) with the limits the schema sets."""
    found: dict[str, Any] = {}
    if kind == "string":
        found.update(_ints(schema, min_length="minLength", max_length="maxLength"))
        pattern = schema.get("pattern")
        if isinstance(pattern, str):
            try:
                re.compile(pattern)
                found["pattern"] = pattern
            except (re.error, RecursionError) as exc:
                reporter.warn(schema.loc.child("pattern"), f"pattern is not a Python regular expression ({exc}); it is not enforced")
    elif kind in ("integer", "number"):
        for keyword, name in (("minimum", "ge"), ("exclusiveMinimum", "gt"), ("maximum", "le"),
                              ("exclusiveMaximum", "lt"), ("multipleOf", "multiple_of")):
            value = schema.get(keyword)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                found[name] = value
        if isinstance(found.get("multiple_of"), (int, float)) and found["multiple_of"] <= 0:
            del found["multiple_of"]
        if kind == "integer":
            _integer_bounds(found, schema, reporter)
    elif kind == "array":
        found.update(_ints(schema, min_length="minItems", max_length="maxItems"))
        if schema.get("uniqueItems") is True:
            found["unique_items"] = True
    elif kind == "object":
        found.update(_ints(schema, min_length="minProperties", max_length="maxProperties"))
    if found.get("min_length") == 0:
        del found["min_length"]
    return ir.Constrained(t, ir.Constraints(**found)) if found else t


def _integer_bounds(found: dict[str, Any], schema: Schema, reporter: Reporter) -> None:
    """Bounds of an integer as integers: ``>= 1.5`` is ``>= 2``, ``< 2.5`` is ``<= 2``."""
    for name, rounded in (("ge", math.ceil), ("le", math.floor)):
        if isinstance(found.get(name), float):
            found[name] = rounded(found[name])
    if isinstance(found.get("gt"), float):
        found["ge"] = max(found.get("ge", -math.inf), math.floor(found.pop("gt")) + 1)
    if isinstance(found.get("lt"), float):
        found["le"] = min(found.get("le", math.inf), math.ceil(found.pop("lt")) - 1)
    for name in ("ge", "le"):  # msgspec's integers are 64-bit: a bound outside is no bound
        if name in found and not INT64[0] <= found[name] <= INT64[1]:
            del found[name]
    step = found.get("multiple_of")
    if isinstance(step, float):
        if step.is_integer():
            found["multiple_of"] = int(step)
        else:
            del found["multiple_of"]
            reporter.warn(schema.loc.child("multipleOf"), "a fractional `multipleOf` on an integer is not enforced")


def _ints(schema: Schema, **names: str) -> dict[str, int]:
    out = {}
    for name, keyword in names.items():
        value = schema.get(keyword)
        if isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value <= INT64[1] \
                and float(value).is_integer():
            out[name] = int(value)
    return out
