"""``allOf``: the members of an intersection folded into one schema (canonical form in, out).

Properties are merged (a property in several members is the ``allOf`` of its schemas), required
is the union, types intersect, bounds take the tighter value, enums intersect. The first member
that documents something wins (the schema's own keywords come first). Types that cannot
intersect raise ``Conflict``: an error in an ``allOf``, a branch that never matches in a union.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..diagnostics import Location, Reporter
from ..frontend.schema import PYTHON_NAME, Schema
from .shapes import NEVER, implied_kind

LOWER_BOUNDS = ("minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties")
UPPER_BOUNDS = ("maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties")
ANNOTATIONS = frozenset({"title", "description", "default", "examples", "deprecated", "$comment", "readOnly",
                         "writeOnly", "$id", "$schema", "$anchor", "definitions", "$defs", PYTHON_NAME})
"""Keywords that describe a schema and do not restrict what it accepts."""
FIRST_WINS = ("title", "description", "default", "examples", "deprecated", "$comment", "discriminator", PYTHON_NAME)


class Conflict(Exception):
    """The members cannot all hold at once: no value satisfies the intersection."""

    def __init__(self, location: Location, message: str) -> None:
        super().__init__(message)
        self.location = location
        self.message = message


def fold(schema: Schema, resolve: Callable[[Schema], Schema | None], reporter: Reporter) -> Schema:
    """``schema`` with its ``allOf`` members (``$ref``s resolved by ``resolve``) folded in.

    Raises ``Conflict`` when the members' types cannot intersect.
    """
    parts: list[Schema] = [Schema({k: v for k, v in schema.items() if k != "allOf"}, schema.place)]
    for member in schema.get("allOf") or []:
        if isinstance(member, Schema):
            target = resolve(member)
            if target is not None:
                parts.append(target)
    merged: dict[str, Any] = {}
    for part in parts:
        for key, value in part.items():
            if key not in merged:
                merged[key] = value
            else:
                merged[key] = _combine(key, merged[key], value, part, reporter)
    if PYTHON_NAME in merged and PYTHON_NAME not in parts[0]:
        del merged[PYTHON_NAME]  # the name of what is folded in names that, not this schema
    return Schema(merged, schema.place)


def _combine(key: str, old: Any, new: Any, part: Schema, reporter: Reporter) -> Any:
    if old == new or key in FIRST_WINS:
        return old
    if key == "properties" and isinstance(old, dict) and isinstance(new, dict):
        out = dict(old)
        for name, sub in new.items():
            out[name] = Schema({"allOf": [out[name], sub]}, sub.place) if name in out else sub
        return out
    if key == "required" and isinstance(old, list) and isinstance(new, list):
        return old + [r for r in new if r not in old]
    if key == "type":
        return _intersect_types(old, new, part)
    if key == "enum" and isinstance(old, list) and isinstance(new, list):
        return [v for v in old if v in new]
    if key in LOWER_BOUNDS and _numbers(old, new):
        return max(old, new)
    if key in UPPER_BOUNDS and _numbers(old, new):
        return min(old, new)
    if key == "additionalProperties":
        if old == NEVER or new == NEVER:
            reporter.warn(part.loc.child(key), "`additionalProperties: false` inside `allOf` is read as closing the merged object",
                        kind="allOf conflict")
            return NEVER
        return Schema({"allOf": [old, new]}, part.place)
    if isinstance(old, Schema) and isinstance(new, Schema):
        return Schema({"allOf": [old, new]}, part.place)
    reporter.warn(part.loc.child(key), f"`allOf` members disagree on `{key}`; the first one is kept", kind="allOf conflict")
    return old


def adds_nothing(base: dict[str, Any], target: Schema) -> bool:
    """Whether ``target`` already says all that ``base`` says, so that ``base ∧ target`` is the target's
    declaration: a reference to it, with ``base``'s ``type`` beside (``references.ref`` reads that).

    Annotations add nothing; neither does a keyword the target has with the same value, ``required``
    names the target requires, a property the target has alike, or a ``type`` that allows every kind
    of the target (null aside: the ``type`` beside the reference takes it away).
    """
    for key, value in base.items():
        if key in ANNOTATIONS or key.startswith("x-") or target.get(key) == value:
            continue
        if key == "type" and _kinds_within(target, value):
            continue
        if key == "required" and isinstance(value, list) and set(value) <= set(target.get("required") or ()):
            continue
        if key == "properties" and isinstance(value, dict) \
                and all(sub in ({}, (target.get("properties") or {}).get(name)) for name, sub in value.items()):
            continue
        return False
    return True


def _kinds_within(target: Schema, kinds: Any) -> bool:
    allowed = {kinds} if isinstance(kinds, str) else set(kinds) if isinstance(kinds, list) else set()
    allowed |= {"integer"} if "number" in allowed else set()
    own = target.get("type")
    if own is None:  # typed by its keywords: it restricts values of that kind only
        kind = implied_kind(target)
        return kind is not None and kind in allowed
    mine = ({own} if isinstance(own, str) else set(own) if isinstance(own, list) else {"?"}) - {"null"}
    return bool(mine) and mine <= allowed


def _intersect_types(old: Any, new: Any, part: Schema) -> Any:
    a = [old] if isinstance(old, str) else list(old)
    b = [new] if isinstance(new, str) else list(new)
    both = [t for t in a if t in b or (t == "integer" and "number" in b)]
    both += [t for t in b if t == "integer" and "number" in a and t not in both]
    if not both:
        raise Conflict(part.loc.child("type"), f"types {old!r} and {new!r} cannot both hold")
    return both[0] if len(both) == 1 else both


def _numbers(*values: Any) -> bool:
    return all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)
