"""Does a JSON value fit an IR type? (Defaults are checked against their field's type.)"""

from __future__ import annotations

import base64
import binascii
import datetime
import decimal
import re
from collections.abc import Callable, Mapping
from typing import Any

from . import nodes as ir

def _uuid(value: Any) -> object:
    """``uuid.UUID(value)``, imported when first asked for: ``uuid`` imports ``platform``, whose patterns cost
    every run some 5 ms, and a default or an example of that format is rare."""
    import uuid

    return uuid.UUID(value)


#: How a string of each format is parsed into the Python value it stands for.
PARSE: Mapping[ir.Format, Callable[[Any], object]] = {
    "date-time": datetime.datetime.fromisoformat, "date": datetime.date.fromisoformat,
    "time": datetime.time.fromisoformat, "uuid": _uuid, "decimal": lambda v: decimal.Decimal(str(v)),
    "base64": lambda v: base64.b64decode(v, validate=True),
}


def fits(value: Any, t: ir.Type, declarations: Mapping[str, ir.Declaration]) -> bool:
    return _fits(value, t, declarations, set())


def _fits(value: Any, t: ir.Type, declarations: Mapping[str, ir.Declaration], open_refs: set[tuple[str, int]]) -> bool:
    """``open_refs``: the references being followed for each value (by ``id``); met again for the same
    value (an alias that is itself, ``A = A | int``), that way leads nowhere."""
    def fits(value: Any, t: ir.Type, declarations: Mapping[str, ir.Declaration]) -> bool:
        return _fits(value, t, declarations, open_refs)

    match t:
        case ir.AnyType():
            return True
        case ir.Null():
            return value is None
        case ir.Scalar(kind, fmt):
            return _scalar(value, kind) and (fmt is None or _parses(value, fmt))
        case ir.Literal(values):
            return any(value == v and type(value) is type(v) for v in values)
        case ir.Array(item):
            return isinstance(value, list) and all(fits(v, item, declarations) for v in value)
        case ir.Tuple(items):
            return isinstance(value, list) and len(value) == len(items) and all(
                fits(v, i, declarations) for v, i in zip(value, items))
        case ir.Map(item):
            return isinstance(value, dict) and all(fits(v, item, declarations) for v in value.values())
        case ir.Union(members):
            return any(fits(value, m, declarations) for m in members)
        case ir.Constrained(inner, constraints):
            return fits(value, inner, declarations) and _within(value, constraints)
        case ir.Ref(name, module):
            if module is not None:
                return False  # another input's type: a default for it cannot be checked here
            key = (name, id(value))
            if key in open_refs:
                return False
            open_refs.add(key)
            try:
                target = declarations[name]
                if isinstance(target, ir.Alias):
                    return fits(value, target.type, declarations)
                return isinstance(value, dict) and _model(value, target, declarations, open_refs)
            finally:
                open_refs.discard(key)
    raise AssertionError(f"unknown IR type {t!r}")


def _scalar(value: Any, kind: str) -> bool:
    if kind == "float":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return type(value) is {"str": str, "int": int, "bool": bool}[kind]


def _parses(value: Any, fmt: ir.Format) -> bool:
    if fmt not in PARSE or (fmt != "decimal" and not isinstance(value, str)):
        return False  # no stdlib parser (duration): such a default cannot be built
    try:
        PARSE[fmt](value)
        return True
    except (ValueError, TypeError, decimal.InvalidOperation, binascii.Error):
        return False


def _within(value: Any, c: ir.Constraints) -> bool:
    size = len(value) if isinstance(value, (str, list, dict)) else None
    checks = [
        c.min_length is None or size is None or size >= c.min_length,
        c.max_length is None or size is None or size <= c.max_length,
        c.pattern is None or not isinstance(value, str) or re.search(c.pattern, value) is not None,
    ]
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        checks += [c.ge is None or value >= c.ge, c.gt is None or value > c.gt,
                   c.le is None or value <= c.le, c.lt is None or value < c.lt]
    return all(checks)


def _model(value: dict[str, Any], model: ir.Model, declarations: Mapping[str, ir.Declaration],
           open_refs: set[tuple[str, int]]) -> bool:
    wires = {f.wire_name: f for f in model.fields}
    if model.closed and not set(value) <= set(wires):
        return False
    return all(
        (f.wire_name in value and _fits(value[f.wire_name], f.type, declarations, open_refs))
        or (not f.required and f.wire_name not in value)
        for f in model.fields
    )
