"""Small JSON values of a type, checked with each side's decoder: what witnesses are made of.

``common(a, b)`` is the smallest value both sides' models take at a place: null first, then a
literal, ``false``, the number nearest 0 within the limits, the shortest string (a pattern's
shortest match), the shortest list, an object with just the keys either side requires.
``only(member, against)`` is the first small value of ``member`` that ``against`` refuses, tried
near the limits of both. ``instance(a, b, …)`` is an object of a pair of models with one key set
or left out.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from itertools import islice

from .. import ir
from .check import Segments
from .decode import Decoder
from .pairing import label
from .shapes import JSON, Typed, bare, flatten, kind, limits, shape
from .sides import Side
from .strings import PLAIN, samples

ORDER = ("null", "literal", "bool", "int", "float", "str", "array", "object", "any")
FORMATTED: Mapping[str, tuple[str, ...]] = {
    "date-time": ("1970-01-01T00:00:00Z",), "date": ("1970-01-01",), "time": ("00:00:00",), "duration": ("PT0S",),
    "uuid": ("00000000-0000-0000-0000-000000000000",), "decimal": ("0",), "base64": ("",),
}
ANYTHING: tuple[JSON, ...] = (None, False, 0, 0.5, "", [], {})
MAX_DEPTH = 40
MAX_TRIES = 400
MAX_ITEMS = 1000
"""The most items or keys a value is built with (a ``minItems`` or ``minProperties`` above it: no witness)."""


class NoValue(Exception):
    """No value was found; ``str(exc)`` says what was looked for. ``at``: the place, from where the value
    was wanted, at which no value both sides take exists (``None``: not known to be so, as when a value
    would be too big to build)."""

    def __init__(self, message: str, at: Segments | None = None) -> None:
        super().__init__(message)
        self.at = at

    def under(self, *steps: tuple[str, str | int | None]) -> NoValue:
        """This failure, as seen from the container of ``steps``."""
        return NoValue(str(self), None if self.at is None else (*steps, *self.at))


class Builder:
    def __init__(self, *sides: Side) -> None:
        self.decoders = {id(side): Decoder(side) for side in sides}

    def takes(self, value: JSON, t: Typed) -> bool:
        return self.decoders[id(t.scope.side)].accepts(value, t.type, t.scope)

    def common(self, a: Typed, b: Typed, depth: int = 0) -> JSON:
        if depth > MAX_DEPTH:
            raise NoValue("the values nest too deeply")
        mine, theirs = flatten(a.type, a.scope), flatten(b.type, b.scope)
        failed: list[Failure] = []
        for m in sorted(mine, key=lambda t: ORDER.index(kind(t.type))):
            for value in islice(self._values(m, theirs, depth, failed=failed), MAX_TRIES):
                if self.takes(value, a) and self.takes(value, b):
                    return value
        raise NoValue("no value both sides take", _blocked(failed, mine, theirs))

    def only(self, member: Typed, against: Typed | None, relaxed: Typed | None = None) -> JSON:
        """A value ``member`` takes and ``against`` refuses (any value of ``member`` without ``against``),
        which ``relaxed`` takes."""
        hints = flatten(against.type, against.scope) if against is not None else []
        compound = kind(member.type) in ("array", "object")
        partners = [*(h for h in hints if kind(h.type) == kind(member.type) or not compound),
                    *flatten(member.type, member.scope)]
        for value in islice(self._values(member, partners, 0, near=hints), MAX_TRIES):
            if (self.takes(value, member) and (against is None or not self.takes(value, against))
                    and (relaxed is None or self.takes(value, relaxed))):
                return value
        raise NoValue("no value was found that one side takes and the other refuses")

    def instance(self, a: Typed, b: Typed, set_: Mapping[str, JSON] | None = None, omit: str | None = None,
                 depth: int = 0) -> dict[str, JSON]:
        """The object of models ``a`` and ``b`` with the keys either requires (and each model's tag),
        ``set_`` set and ``omit`` left out."""
        mine, theirs = shape(a, tagged=False), shape(b, tagged=False)
        given = dict(set_ or {})
        out: dict[str, JSON] = {}
        for key in dict.fromkeys([*mine.fields, *theirs.fields, *given]):
            if key == omit:
                continue
            if key in given:
                out[key] = given[key]
                continue
            x, y = mine.fields.get(key), theirs.fields.get(key)
            if not any(s is not None and (s.required or s.tag) for s in (x, y)):
                continue
            tx, ty = (x.type if x else mine.extra), (y.type if y else theirs.extra)
            if tx is None or ty is None:
                raise NoValue(f"key {key!r} is required on one side and refused on the other", (("field", key),))
            try:
                out[key] = self.common(Typed(tx, mine.scope), Typed(ty, theirs.scope), depth + 1)
            except NoValue as exc:
                said = f"{exc} at key {key!r}" if " at key " not in str(exc) else str(exc)
                raise NoValue(said, exc.under(("field", key)).at) from None
        wanted = max(mine.limits.min_length or 0, theirs.limits.min_length or 0)
        if wanted > MAX_ITEMS:
            raise NoValue(f"an object of at least {wanted} keys is more than a witness holds ({MAX_ITEMS})")
        while len(out) < wanted and mine.extra is not None and theirs.extra is not None:
            out[fresh_key(out, a, b)] = self.common(Typed(mine.extra, a.scope), Typed(theirs.extra, b.scope), depth + 1)
        return out

    def items(self, a: Typed, b: Typed, count: int, depth: int = 0) -> list[JSON]:
        """``count`` items both lists (or tuples) ``a`` and ``b`` take, position by position."""
        if count > MAX_ITEMS:
            raise NoValue(f"{count} items are more than a witness holds ({MAX_ITEMS})")
        out = []
        for i in range(count):
            try:
                out.append(self.common(_item(a, i), _item(b, i), depth + 1))
            except NoValue as exc:
                raise exc.under(("index", i) if isinstance(bare(a.type), ir.Tuple) else ("item", None)) from None
        return out

    def _values(self, m: Typed, partners: list[Typed], depth: int, near: list[Typed] | None = None,
                failed: list[Failure] | None = None) -> Iterator[JSON]:
        """Candidates for ``m``, smallest first; ``partners``: the other side's members (their
        literals and limits are tried too), ``near``: members whose limits to try values around;
        ``failed``: where lists and objects could not be built, and why."""
        members = flatten(m.type, m.scope)
        if len(members) != 1 or members[0].type != m.type or members[0].scope is not m.scope:
            for member in sorted(members, key=lambda t: ORDER.index(kind(t.type))):  # a union, or an alias
                yield from self._values(member, partners, depth, near, failed)
            return
        k = kind(m.type)
        if k == "null":
            yield None
        elif k == "literal":
            yield from m.type.values  # type: ignore[union-attr]
        elif k == "any":
            for p in partners:
                if kind(p.type) != "any":
                    yield from self._values(p, [p], depth)
            yield from ANYTHING
        elif k == "array":
            yield from self._lists(m, partners, depth, failed)
        elif k == "object":
            yield from self._objects(m, partners, depth, failed)
        else:
            yield from _scalars(m, [*partners, *(near or [])])

    def _lists(self, m: Typed, partners: list[Typed], depth: int, failed: list[Failure] | None) -> Iterator[JSON]:
        for p in [p for p in partners if kind(p.type) == "array"] or [m]:
            mine, theirs = lengths(m), lengths(p)
            counts = {mine[0], theirs[0], mine[0] + 1, max(theirs[0] - 1, 0)}
            if theirs[1] != math.inf:
                counts.add(int(theirs[1]) + 1)
            for count in sorted(counts):
                if count > min(mine[1], MAX_ITEMS):
                    continue
                try:
                    yield self.items(m, p, count, depth)
                except NoValue as exc:
                    _failed(failed, m, p, exc)

    def _objects(self, m: Typed, partners: list[Typed], depth: int, failed: list[Failure] | None) -> Iterator[JSON]:
        for p in [p for p in partners if kind(p.type) == "object"] or [m]:
            try:
                yield self.instance(m, p, depth=depth)
            except NoValue as exc:
                _failed(failed, m, p, exc)


Failure = tuple[Typed, Typed, NoValue]
"""A member, the other side's member it was built against, and why no value was."""


def _failed(failed: list[Failure] | None, m: Typed, p: Typed, exc: NoValue) -> None:
    if failed is not None:
        failed.append((m, p, exc))


def _blocked(failed: list[Failure], mine: list[Typed], theirs: list[Typed]) -> Segments | None:
    """Where no value both sides take is, from the place of the union ``mine`` against ``theirs``: the
    place of the first member that could not be built (named as ``check`` names it where a side has
    two of its kind), else here; ``None`` when some member could not be built for another reason."""
    if any(exc.at is None for _, _, exc in failed):
        return None
    if not failed:
        return ()
    m, p, exc = failed[0]
    k = kind(m.type)
    twice = max(sum(kind(t.type) == k for t in side) for side in (mine, theirs)) > 1
    return exc.under(("member", label(m, p))).at if twice else exc.at


def fresh_key(taken: Mapping[str, JSON], *objects: Typed) -> str:
    """A key that is no field of ``objects`` and not in ``taken``: ``unknown``, ``unknown_2``…"""
    used = set(taken)
    for t in objects:
        if kind(t.type) == "object":
            used.update(shape(t, tagged=False).fields)
    key, n = "unknown", 1
    while key in used:
        n += 1
        key = f"unknown_{n}"
    return key


def _item(t: Typed, index: int) -> Typed:
    b = bare(t.type)
    if isinstance(b, ir.Tuple):
        return Typed(b.items[index] if index < len(b.items) else ir.Null(), t.scope)
    assert isinstance(b, ir.Array)
    return Typed(b.item, t.scope)


def lengths(t: Typed) -> tuple[int, float]:
    b, c = bare(t.type), limits(t.type)
    if isinstance(b, ir.Tuple):
        return len(b.items), len(b.items)
    return max(c.min_length or 0, 0), math.inf if c.max_length is None else c.max_length


def _scalars(m: Typed, near: list[Typed]) -> Iterator[JSON]:
    b, c = bare(m.type), limits(m.type)
    assert isinstance(b, ir.Scalar)
    literals = [v for p in near if isinstance(p.type, ir.Literal) for v in p.type.values]
    constraints = [c, *(limits(p.type) for p in near)]
    if b.kind == "bool":
        yield from (False, True)
    elif b.kind == "str":
        yield from FORMATTED.get(b.format or "", ())
        yield from (v for v in literals if isinstance(v, str))
        yield from _strings(constraints)
    else:  # whole numbers and short decimals first, nearest 0 first
        numbers = list(dict.fromkeys(_numbers(constraints, b.kind == "int", literals)))
        yield from sorted(numbers, key=lambda v: (not _short(v), abs(v), v < 0, isinstance(v, float)))


def _short(v: int | float) -> bool:
    """A number as one would write it (``0.5``, not ``5e-324``)."""
    return isinstance(v, int) or (not math.isinf(v) and abs(v) < 1e15 and v == round(v, 2))


def _strings(constraints: list[ir.Constraints]) -> Iterator[str]:
    for pattern in dict.fromkeys(c.pattern for c in constraints if c.pattern):
        yield from samples(pattern)
    sizes = {0, 1}
    for c in constraints:
        for n in (c.min_length, c.max_length):
            if n is not None and n < 10_000:
                sizes.update({n - 1, n, n + 1})
    for n in sorted(s for s in sizes if s >= 0):
        yield "a" * n
    yield from PLAIN


def _numbers(constraints: list[ir.Constraints], integer: bool, literals: Sequence[object]) -> Iterator[int | float]:
    yield from (0, 1, -1)
    yield from (v for v in literals if isinstance(v, int) and not isinstance(v, bool))
    for c in constraints:
        for bound in (c.ge, c.gt, c.le, c.lt):
            if bound is None or math.isinf(bound):
                continue
            for near in (bound - 1, bound, bound + 1):
                yield math.floor(near) if integer else near
                if integer:
                    yield math.ceil(near)
            if not integer:
                yield from (bound - 0.5, bound + 0.5, math.nextafter(bound, math.inf), math.nextafter(bound, -math.inf))
        if c.multiple_of is not None:
            step = c.multiple_of
            for n in (1, 2, -1):
                value = step * n
                yield round(value) if integer and float(value).is_integer() else value
            yield step / 2 if not integer else 1
            for bound in (c.ge, c.gt, c.le, c.lt):  # the multiples next to each bound
                if bound is not None and not math.isinf(bound) and abs(bound / step) < 2**53:
                    for n in (math.floor(bound / step), math.ceil(bound / step), math.ceil(bound / step) + 1):
                        value = step * n
                        yield round(value) if integer and float(value).is_integer() else value
        if c.ge is not None and c.le is not None and not integer:
            yield (c.ge + c.le) / 2
    if not integer:
        yield from (0.5, -0.5, 1.5)
