"""Arrays: a list of its items' type, or a tuple when the schema fixes every position."""

from __future__ import annotations

from .. import ir
from ..diagnostics import Location
from ..frontend.schema import Schema
from ..names import singular, words
from .context import Context
from .shapes import NEVER


def array(lw: Context, schema: Schema, hint: str) -> ir.Type:
    items = schema.get("items")
    prefix = [s for s in schema.get("prefixItems") or [] if isinstance(s, Schema)]
    rest = lw.type_of(items, item_name(lw, hint)) if isinstance(items, Schema) and items != NEVER else None
    if not prefix:
        return ir.Array(rest if rest is not None else ir.AnyType())
    positional = [lw.type_of(s, f"{hint}Item{i}") for i, s in enumerate(prefix, 1)]
    minimum = schema.get("minItems", 0)
    if items == NEVER and isinstance(minimum, int) and minimum >= len(prefix):
        return ir.Tuple(tuple(positional))
    where = _tuple_keyword(schema, prefix[0])
    keyword = where.pointer.rsplit("/", 1)[-1]
    lw.scope.reporter.warn(where, f"the item positions of `{keyword}` are not enforced (only a closed, fixed-length "
                           "tuple is); read as a list", kind="open tuple")
    extra = [] if items == NEVER else [rest if rest is not None else ir.AnyType()]
    return ir.Array(ir.union(*positional, *extra))


def item_name(lw: Context, hint: str) -> str:
    """What an array's items declare under: the singular of its name's last word (``…Choices`` →
    ``…Choice``) where that is a plural and no declaration has the name, else ``…Item``."""
    last = words(hint)[-1:] or [""]
    one = singular(last[0]) if hint.endswith(last[0]) else None
    named = hint[: len(hint) - len(last[0])] + one if one else None
    return named if named and lw.free(named) else hint + "Item"


def _tuple_keyword(schema: Schema, first: Schema) -> Location:
    """Where the source wrote the positions: ``prefixItems``, or the draft-07 array-form ``items`` that
    the front end renamed (its members keep the locations they were read at, ``…/items/0``)."""
    written = first.loc.pointer.rsplit("/", 1)[0]
    if written.rsplit("/", 1)[-1] in ("items", "prefixItems"):
        return Location(first.loc.path, written)
    return schema.loc.child("prefixItems")
