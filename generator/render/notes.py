"""What a field's or an alias's docstring adds to the schema's description: the constraints a
variant does not enforce, and the union members the msgspec variant widens.

Types are named as annotations spell them, without constraints (``list[str]``); the constraints of a
union's member name that member (``Constraints: `str`: min length 1; `list[str]`: max length 3.``).
"""

from __future__ import annotations

from collections.abc import Sequence

from .. import ir
from ..ir.walk import children
from .annotations import TypeStyle, describe, plain, unconstrained, unenforced

Labelled = tuple[str | None, ir.Constraints]
"""Constraints, and the union member they belong to (``None``: not inside a union)."""


def constraints_note(t: ir.Type, style: TypeStyle, *, enforced: bool,
                     lost: Sequence[tuple[ir.Type, ir.Constraints]] = ()) -> str | None:
    """The constraints on ``t`` in words: all of them, or (``enforced``) those msgspec cannot
    enforce where the rest are, with those ``lost`` where a union had to be widened (each with its member)."""
    found = _constraints(t, style, None)
    if enforced:
        dropped = [c for _, c in lost]
        found = [(label, u) for label, c in found if c not in dropped and (u := unenforced(c)) is not None]
        found += list(dict.fromkeys((plain(member, style), c) for member, c in lost))
    text = "; ".join(f"`{label}`: {describe(c)}" if label else describe(c) for label, c in found)
    return f"Constraints{' not enforced' if enforced else ''}: {text}." if text else None


def widening_note(widened: Sequence[tuple[tuple[ir.Type, ...], ir.Type]], style: TypeStyle) -> str | None:
    """The members of unions decoded as a wider type: ``Not enforced here: `list[str] | list[int]` is
    decoded as `list[str | int]`.`` (a widening that only drops constraints is said by ``constraints_note``)."""
    said: dict[str, None] = {}
    for group, by in widened:
        before, after = plain(ir.union(*map(unconstrained, group)), style), plain(by, style)
        if before != after:
            said[f"`{before}` is decoded as `{after}`"] = None
    return "Not enforced here: " + "; ".join(said) + "." if said else None


def _constraints(t: ir.Type, style: TypeStyle, label: str | None) -> list[Labelled]:
    """The constraints on and inside ``t``, outside in; those inside the members of the outermost
    union of two or more types besides null are labelled with their member."""
    if label is None and isinstance(t, ir.Union) and sum(m != ir.Null() for m in t.members) > 1:
        return [c for m in t.members for c in _constraints(m, style, plain(m, style))]
    here: list[Labelled] = [(label, t.constraints)] if isinstance(t, ir.Constrained) else []
    return here + [c for child in children(t) for c in _constraints(child, style, label)]
