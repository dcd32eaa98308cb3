"""Literals beside a scalar of their kind, in a union msgspec decodes.

msgspec decodes a JSON string with the union's ``str`` member when it has one, and checks that
member's constraints before it looks at the string literals: ``Literal["a"] | Annotated[str,
Meta(pattern="^x")]`` refuses ``"a"``. A JSON integer goes to the ``int`` member, or to the
integer literals when there is none (``Literal[1] | float`` refuses ``2``), never to ``float``.

So a union is kept as it is only when every literal is accepted by the scalar member that
decodes it. Otherwise the literals are folded into that member: for a string constrained by a
pattern alone, the pattern also matches each literal exactly (``\\A(?:a|b)\\Z|<pattern>``); for
anything else the member loses its constraints, which the caller records as not enforced.
"""

from __future__ import annotations

import re

from .. import ir
from ..ir.values import fits


def literals_fit(members: list[ir.Type]) -> bool:
    """Does every literal value reach a member that accepts it?"""
    for kind, values in _literal_values(members).items():
        scalar = _decoder(members, kind)
        if scalar is not None and not (_kind(scalar) == kind and _accepts(scalar, values)):
            return False
    return True


def fold(members: list[ir.Type], lost: list[tuple[ir.Type, ir.Constraints]]) -> list[ir.Type]:
    """``members`` with each literal that its scalar would refuse folded into that scalar (the
    constraints that gives up go to ``lost``, with their member)."""
    for kind, values in _literal_values(members).items():
        scalar = _decoder(members, kind)
        if scalar is None or (_kind(scalar) == kind and _accepts(scalar, values)):
            continue
        folded = scalar if _accepts(scalar, values) else _widened(scalar, values, lost)
        kept = [folded if m is scalar else _without(m, values) for m in members]
        members = [m for m in kept if m is not None]
    return members


def _literal_values(members: list[ir.Type]) -> dict[str, list[str | int]]:
    """The string and the integer literal values of the union (booleans and null never clash)."""
    found: dict[str, list[str | int]] = {}
    for m in members:
        for v in m.values if isinstance(m, ir.Literal) else ():
            if isinstance(v, str) or (isinstance(v, int) and not isinstance(v, bool)):
                found.setdefault(type(v).__name__, []).append(v)
    return found


def _decoder(members: list[ir.Type], kind: str) -> ir.Type | None:
    """The scalar member msgspec decodes a JSON ``kind`` value with, instead of the literals."""
    scalars = {_kind(m): m for m in members if _kind(m) is not None}
    return scalars.get(kind) or (scalars.get("float") if kind == "int" else None)


def _kind(t: ir.Type) -> str | None:
    bare = t.type if isinstance(t, ir.Constrained) else t
    return bare.kind if isinstance(bare, ir.Scalar) and bare.format is None else None


def _accepts(scalar: ir.Type, values: list[str | int]) -> bool:
    return all(fits(v, scalar, {}) and _multiple(v, scalar) for v in values)


def _multiple(value: str | int, scalar: ir.Type) -> bool:
    """``fits`` leaves out ``multipleOf``; ``Meta`` enforces a whole step (annotations.py)."""
    step = scalar.constraints.multiple_of if isinstance(scalar, ir.Constrained) else None
    if not isinstance(value, int) or step is None or (isinstance(step, float) and not step.is_integer()):
        return True
    return value % step == 0


def _widened(scalar: ir.Type, values: list[str | int], lost: list[tuple[ir.Type, ir.Constraints]]) -> ir.Type:
    """``scalar`` accepting ``values`` too: by its pattern if that is its only constraint, else
    without constraints (recorded in ``lost``)."""
    assert isinstance(scalar, ir.Constrained)  # an unconstrained scalar accepts every value of its kind
    c = scalar.constraints
    if c.pattern is not None and c == ir.Constraints(pattern=c.pattern):
        exact = "\\A(?:" + "|".join(re.escape(str(v)) for v in values) + ")\\Z"
        try:
            return ir.Constrained(scalar.type, ir.Constraints(pattern=re.compile(exact + "|" + c.pattern).pattern))
        except re.error:  # a pattern that opens with global flags (`(?i)…`) cannot follow another
            pass
    lost.append((scalar, c))
    return scalar.type


def _without(t: ir.Type, values: list[str | int]) -> ir.Type | None:
    """A literal member without ``values`` (``None`` when nothing is left); other members as they are."""
    if not isinstance(t, ir.Literal):
        return t
    kept = tuple(v for v in t.values if not (type(v) is type(values[0]) and v in values))
    return ir.Literal(kept) if kept else None
