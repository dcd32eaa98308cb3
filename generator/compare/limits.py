"""Limits one side sets and the other does not, or sets looser: where the accepting side takes a
value of a scalar, list or map that the other side refuses by its limits.

Limits are named as in the IR and in msgspec's ``Meta`` (``min_length``, ``ge``…). On an integer,
``gt 0`` and ``ge 1`` are the same limit. A difference that msgspec does not check (unique items, a
fractional ``multipleOf``, any limit on a formatted string) is still a difference of the schemas;
its ``why`` says why no payload shows it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .. import frozen, ir

Bound = tuple[float, bool]
"""A bound and whether it is inclusive."""


@dataclass(frozen=True, slots=True)
class Loosened:
    what: str
    names: tuple[str, ...]
    """The limits of ``b`` that make the difference."""
    why: str | None = None
    """What to say when no payload shows it."""


def loosened(a: ir.Constraints, b: ir.Constraints, integer: bool, x: str, y: str,
             formatted: bool = False) -> list[Loosened]:
    """Where ``a`` (side ``x``) lets through what ``b`` (side ``y``) does not; ``integer``: the
    values are integers; ``formatted``: ``b`` is on a formatted string (msgspec checks none of it)."""
    found: list[Loosened] = []
    unchecked = f"{y}'s msgspec model does not check limits on a formatted string" if formatted else None
    if (b.min_length or 0) > (a.min_length or 0):
        found.append(Loosened(f"min_length {b.min_length} in {y}, {_or_none(a.min_length)} in {x}", ("min_length",),
                              unchecked))
    if b.max_length is not None and (a.max_length is None or a.max_length > b.max_length):
        found.append(Loosened(f"max_length {b.max_length} in {y}, {_or_none(a.max_length)} in {x}", ("max_length",),
                              unchecked))
    for side, names in (("lower", ("ge", "gt")), ("upper", ("le", "lt"))):
        mine, theirs = _bound(a, side, integer), _bound(b, side, integer)
        if theirs is not None and (mine is None or _looser(mine, theirs, side)):
            found.append(Loosened(f"{_name(b, names)} in {y}, {_name(a, names)} in {x}", names, unchecked))
    step = b.multiple_of
    if step is not None and not _divides(step, a.multiple_of):
        why = unchecked or (f"{y}'s msgspec model does not check a fractional multipleOf"
                            if isinstance(step, float) and not step.is_integer() else None)
        found.append(Loosened(f"multiple_of {step!r} in {y}, {_or_none(a.multiple_of)} in {x}", ("multiple_of",), why))
    if b.pattern is not None and a.pattern != b.pattern:
        hard = f"no string was found that {x}'s model takes and {y}'s pattern refuses"
        found.append(Loosened(f"pattern {b.pattern!r} in {y}, {_or_none(a.pattern, repr)} in {x}", ("pattern",),
                              unchecked or hard))
    if b.unique_items and not a.unique_items:
        found.append(Loosened(f"unique items in {y}, not in {x}", ("unique_items",),
                              f"{y}'s msgspec model does not check unique items"))
    return found


def _or_none(value: object, spell: type[str] | object = str) -> str:
    if value is None:
        return "none"
    return repr(value) if spell is repr else str(value)


def _name(c: ir.Constraints, names: tuple[str, str]) -> str:
    """``ge 1``, ``gt 0 and ge 1``, or ``none``."""
    parts = [f"{n} {getattr(c, n)!r}" for n in names if getattr(c, n) is not None]
    return " and ".join(parts) or "none"


def _bound(c: ir.Constraints, side: str, integer: bool) -> Bound | None:
    """The tighter of the two bounds on one side (as an inclusive bound on an integer)."""
    inclusive, exclusive = (c.ge, c.gt) if side == "lower" else (c.le, c.lt)
    found: list[Bound] = []
    if inclusive is not None:
        found.append((_whole(inclusive, side) if integer else inclusive, True))
    if exclusive is not None:
        if integer:
            found.append((math.floor(exclusive) + 1 if side == "lower" else math.ceil(exclusive) - 1, True))
        else:
            found.append((exclusive, False))
    if not found:
        return None
    key = (lambda b: (b[0], not b[1])) if side == "lower" else (lambda b: (-b[0], not b[1]))
    return max(found, key=key)


def _whole(value: float, side: str) -> float:
    if math.isinf(value):
        return value
    return math.ceil(value) if side == "lower" else math.floor(value)


def _looser(mine: Bound, theirs: Bound, side: str) -> bool:
    """Does ``mine`` let through a value ``theirs`` does not?"""
    (m, m_incl), (t, t_incl) = mine, theirs
    if m != t:
        return m < t if side == "lower" else m > t
    return m_incl and not t_incl


def _divides(step: int | float, mine: int | float | None) -> bool:
    """Is every multiple of ``mine`` a multiple of ``step``?"""
    if mine is None:
        return False
    quotient = mine / step
    return abs(quotient - round(quotient)) < 1e-9 and round(quotient) != 0


def without(t: ir.Type, names: tuple[str, ...]) -> ir.Type:
    """``t`` without the limits ``names`` (a tuple, of its length: a list of its items)."""
    if isinstance(t, ir.Tuple) and {"min_length", "max_length"} & set(names):
        return ir.Array(ir.union(*t.items)) if t.items else ir.Array(ir.AnyType())
    if not isinstance(t, ir.Constrained):
        return t
    cleared = {n: False if n == "unique_items" else None for n in names}
    return ir.Constrained(t.type, frozen.replace(t.constraints, **cleared))


def tuple_limits(items: int) -> ir.Constraints:
    """What a tuple says of its length."""
    return ir.Constraints(min_length=items, max_length=items)
