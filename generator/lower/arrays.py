"""Arrays: a list of its items' type, or a tuple when the schema fixes every position."""

from __future__ import annotations

from .. import ir
from ..frontend.schema import Schema
from .context import Context
from .shapes import NEVER


def array(lw: Context, schema: Schema, hint: str) -> ir.Type:
    items = schema.get("items")
    prefix = [s for s in schema.get("prefixItems") or [] if isinstance(s, Schema)]
    rest = lw.type_of(items, hint + "Item") if isinstance(items, Schema) and items != NEVER else None
    if not prefix:
        return ir.Array(rest if rest is not None else ir.AnyType())
    positional = [lw.type_of(s, f"{hint}Item{i}") for i, s in enumerate(prefix, 1)]
    minimum = schema.get("minItems", 0)
    if items == NEVER and isinstance(minimum, int) and minimum >= len(prefix):
        return ir.Tuple(tuple(positional))
    lw.scope.reporter.warn(schema.loc.child("prefixItems"),
                           "item positions are not enforced (only a closed, fixed-length tuple is); read as a list",
                           kind="open tuple")
    extra = [] if items == NEVER else [rest if rest is not None else ir.AnyType()]
    return ir.Array(ir.union(*positional, *extra))
