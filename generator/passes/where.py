"""Where a pass's message about a declaration points."""

from __future__ import annotations

from .. import ir
from ..diagnostics import Location


def location(d: ir.Declaration, *tokens: str) -> Location:
    origin = d.origin or ir.Origin("<schema>", "")
    return Location(origin.path, origin.pointer).child(*tokens)
