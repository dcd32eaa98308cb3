"""Value constraints and formats read from a (canonical) schema, per JSON type."""

from __future__ import annotations

import math
import re
from typing import Any

from .. import ir
from ..diagnostics import Reporter
from ..frontend.schema import Schema

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
                reporter.warn(schema.loc.child("pattern"), f"pattern is not a Python regular expression ({exc}); it is not enforced",
                             kind="unenforced constraint")
    elif kind in ("integer", "number"):
        found.update(_bounds(schema, reporter))
        step = schema.get("multipleOf")
        if isinstance(step, (int, float)) and not isinstance(step, bool) and 0 < step < math.inf:
            found["multiple_of"] = step
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


#: Bound keywords, their ``msgspec.Meta`` names, whether they bound from below, and their operators.
BOUNDS = (("minimum", "ge", True, ">="), ("exclusiveMinimum", "gt", True, ">"),
          ("maximum", "le", False, "<="), ("exclusiveMaximum", "lt", False, "<"))


def _bounds(schema: Schema, reporter: Reporter) -> dict[str, int | float]:
    """The finite bounds of a number, at most one from below and one from above.

    ``Meta`` takes only finite bounds, and never ``ge`` with ``gt`` (nor ``le`` with ``lt``).
    An infinite bound on the permissive side (``minimum: -1e400``) says nothing and is dropped.
    One on the other side (``minimum: 1e400``, which reads as ``inf``) leaves no number a float
    holds: that is an error rather than a dropped bound, since dropping it would accept every
    value the schema rejects. Of a pair, the stricter bound stays (on a tie, the exclusive one).
    """
    found: dict[str, int | float] = {}
    for keyword, name, lower, _ in BOUNDS:
        value = schema.get(keyword)
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            continue
        if math.isnan(value):
            reporter.warn(schema.loc.child(keyword), f"`{keyword}` is not a number (NaN); it is ignored",
                          kind="unenforced constraint")
        elif math.isinf(value):
            if (value > 0) == lower:
                reporter.error(schema.loc.child(keyword), f"no number satisfies `{keyword}: {value}`",
                               "the bound is beyond the range of a float; remove it or use a finite one")
        else:
            found[name] = value
    for inclusive, exclusive, lower in (("ge", "gt", True), ("le", "lt", False)):
        if inclusive in found and exclusive in found:
            at_least_as_strict = found[exclusive] >= found[inclusive] if lower else found[exclusive] <= found[inclusive]
            del found[inclusive if at_least_as_strict else exclusive]
    return found


def _integer_bounds(found: dict[str, Any], schema: Schema, reporter: Reporter) -> None:
    """Bounds of an integer as integers: ``>= 1.5`` is ``>= 2``, ``< 2.5`` is ``<= 2``."""
    for name, rounded in (("ge", math.ceil), ("le", math.floor)):
        if isinstance(found.get(name), float):
            found[name] = rounded(found[name])
    if isinstance(found.get("gt"), float):
        found["ge"] = max(found.get("ge", -math.inf), math.floor(found.pop("gt")) + 1)
    if isinstance(found.get("lt"), float):
        found["le"] = min(found.get("le", math.inf), math.ceil(found.pop("lt")) - 1)
    for keyword, name, lower, operator in BOUNDS:  # ``Meta`` holds 64-bit integers only
        if name in found and not INT64[0] <= found[name] <= INT64[1]:
            bound = found.pop(name)
            if (bound > 0) == lower:  # every integer of 64 bits is out: dropping it admits them all
                reporter.warn(schema.loc.child(keyword) if keyword in schema else schema.loc,
                              f"the bound {operator} {bound} is beyond 64-bit integers; it is not enforced",
                              kind="unenforced constraint")
    step = found.get("multiple_of")
    if isinstance(step, float) and step.is_integer():
        found["multiple_of"] = step = int(step)
    if isinstance(step, float) or (step is not None and step > INT64[1]):
        del found["multiple_of"]
        what = "a fractional `multipleOf`" if isinstance(step, float) else "a `multipleOf` beyond 64-bit integers"
        reporter.warn(schema.loc.child("multipleOf"), f"{what} on an integer is not enforced", kind="unenforced constraint")


def _ints(schema: Schema, **names: str) -> dict[str, int]:
    """Whole, non-negative lengths. msgspec takes lengths up to ``2**63 - 1`` (``Py_ssize_t``) and
    refuses a larger one at import; no value is that long, so a larger limit is dropped."""
    out = {}
    for name, keyword in names.items():
        value = schema.get(keyword)
        if isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value <= INT64[1] \
                and float(value).is_integer():
            out[name] = int(value)
    return out
