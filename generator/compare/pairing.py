"""Which member of the other side's union a member pairs with, as msgspec would decode its values.

A value goes to the member of its JSON kind (``candidates``: an integer to ``int`` if there is one,
else to ``float``); among several, ``best`` takes the same format or shape, then the same name, then
the same tag, then the most keys in common. ``constant`` is the one value a model allows at a key
(its tag), which is how a member of a union msgspec tells apart by tag is found.
"""

from __future__ import annotations

from collections.abc import Iterator

from .. import ir
from . import limits as bounds
from .shapes import Typed, bare, describe, flatten, kind, limits, model_tag, shape


class Nothing:
    """No value (``None`` is JSON null)."""


NOTHING = Nothing()


def length(t: ir.Type) -> int | None:
    return len(t.items) if isinstance(t, ir.Tuple) else None


def _items(t: ir.Type) -> tuple[ir.Type, ...]:
    return (t.item,) if isinstance(t, ir.Array) else t.items if isinstance(t, ir.Tuple) else ()


def own_limits(t: Typed) -> ir.Constraints:
    b = bare(t.type)
    return bounds.tuple_limits(len(b.items)) if isinstance(b, ir.Tuple) else limits(t.type)


def candidates(k: str, theirs: list[Typed]) -> list[Typed]:
    """The other side's members a value of kind ``k`` is decoded with (an integer: ``int`` if any, else ``float``)."""
    same = [t for t in theirs if kind(t.type) == k]
    if k == "int" and not same:
        return [t for t in theirs if kind(t.type) == "float"]
    return same


def best(m: Typed, candidates: list[Typed]) -> Typed:
    """The candidate ``m`` pairs with: the same type; the same format or shape; the same name, tag; the
    most keys in common; the fewest limits it lacks."""
    if len(candidates) == 1:
        return candidates[0]
    return max(candidates, key=lambda c: (m.type == c.type, _likeness(m, c),
                                          -len(bounds.loosened(limits(m.type), own_limits(c), False, "", ""))))


def _likeness(m: Typed, c: Typed) -> tuple[int, ...]:
    mine, theirs = bare(m.type), bare(c.type)
    if isinstance(mine, ir.Scalar) and isinstance(theirs, ir.Scalar):
        return (mine.format == theirs.format, theirs.format is None, not isinstance(c.type, ir.Constrained))
    if isinstance(mine, (ir.Array, ir.Tuple)):
        same = type(mine) is type(theirs) and length(mine) == length(theirs)
        held = [{kind(t.type) for i in _items(x) for t in flatten(i, s.scope)} for x, s in ((mine, m), (theirs, c))]
        return (same, describe(m) == describe(c), len(held[0] & held[1]))
    tag, keys = model_tag(c), set(_keys(c))
    mine_keys = list(_keys(m))
    tagged = tag is not None and constant(m, tag.field) == tag.value
    named = isinstance(mine, ir.Ref) and isinstance(theirs, ir.Ref) and mine.name == theirs.name
    shared = len(keys & set(mine_keys)) * 1000 // max(1, len(keys | set(mine_keys)))
    return (type(mine) is type(theirs), named, tagged, shared)


def _keys(t: Typed) -> Iterator[str]:
    return iter(shape(t, tagged=False).fields) if kind(t.type) == "object" else iter(())


def constant(t: Typed, key: str) -> object:
    """The one value the model ``t`` allows at ``key``, if it allows one (its tag, or a constant)."""
    slot = shape(t, tagged=False).fields.get(key) if kind(t.type) == "object" else None
    values: tuple[object, ...] = slot.type.values if slot is not None and isinstance(slot.type, ir.Literal) else ()
    return values[0] if len(values) == 1 else NOTHING


def label(m: Typed, o: Typed) -> str:
    tag = model_tag(m) or model_tag(o)
    return f"{tag.field}={tag.value!r}" if tag is not None else describe(m)

