"""Where one side's models take a payload that the other side's refuse: a subtype check over two IRs.

``Checker(acc, oth, letters).run()`` walks the two roots together and reports each place where the
accepting side ``acc`` lets through a value that ``oth`` refuses: a key ``oth`` requires that
``acc`` may leave out; a value, union member or type only ``acc`` allows; null only in ``acc``; a
looser limit; a key ``acc`` lets through where ``oth`` forbids unknown keys or types it.

Pairing: the roots are a pair; from a pair of objects, keys pair by wire name, and what the same key
holds on both sides pairs whatever its name, through lists, maps and unions. A union member pairs
with the other side's member of its JSON kind (an integer with ``int`` if there is one, as msgspec
decodes it); among objects by tag, else by name, else by the keys they share. Each pair of models is
compared once, at the first place it is met (which also ends recursion).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from .. import ir
from . import limits as bounds
from .pairing import NOTHING, Nothing, best, candidates, constant, label, length, own_limits
from .shapes import (JSON, Scope, Typed, admits, bare, constrain, describe, describe_all, flatten, kind, limits,
                     model_tag, root, shape, tag_field)
from .sides import Side

WORDS = {"str": "string", "int": "integer", "float": "number", "bool": "boolean"}
Segments = tuple[tuple[str, str | int | None], ...]
"""A place as steps: (``field``, key), (``item``, None), (``index``, i), (``value``, None), (``member``, label)."""


@dataclass(frozen=True, eq=False)
class Step:
    """From a container to what it holds: ``field`` (a key of an object), ``item``, ``index``, ``value``."""

    kind: str
    key: str | int | None
    acc: Typed
    oth: Typed
    at: Segments = ()
    """The place of the container."""


@dataclass(frozen=True, eq=False)
class Edit:
    """What a witness holds where a difference is: a value of ``member`` that ``against`` refuses
    (anything of ``member`` when ``against`` is ``None``), or ``value``. With ``pair``: that pair's
    object without ``key`` (no ``member``), or with ``key`` (a key of neither side when ``None``)
    holding such a value."""

    member: Typed | None = None
    against: Typed | None = None
    relaxed: Typed | None = None
    """What ``against`` would take but for the difference: the value must pass it (its other limits)."""
    value: JSON | Nothing = NOTHING
    pair: tuple[Typed, Typed] | None = None
    key: str | None = None
    at: Segments = ()
    """The place of ``pair``'s object."""


@dataclass(frozen=True, eq=False)
class Found:
    segments: Segments
    acc_decl: str
    oth_decl: str
    field: str | None
    what: str
    trail: tuple[Step, ...] = ()
    edit: Edit | None = None
    why: str | None = None
    """What to say when no witness is found (a limit msgspec does not check, a pattern)."""


@dataclass(frozen=True, eq=False)
class Place:
    segments: Segments
    trail: tuple[Step, ...]
    acc_decl: str
    oth_decl: str
    field: str | None = None

    def step(self, kind: str, key: str | int | None, acc: Typed, oth: Typed) -> Place:
        segment = (kind, key if kind in ("field", "index") else None)
        own = self.field if self.field is not None or kind != "field" else key
        return replace(self, segments=(*self.segments, segment), trail=(*self.trail, Step(kind, key, acc, oth, self.segments)),
                       field=own if isinstance(own, str) else None)

    def labelled(self, label: str) -> Place:
        return replace(self, segments=(*self.segments, ("member", label)))


@dataclass
class Checker:
    acc: Side
    oth: Side
    letters: tuple[str, str] = ("A", "B")
    docs: bool = False
    found: list[Found] = field(default_factory=list)
    notes: list[Found] = field(default_factory=list)
    """Description differences (with ``docs``)."""
    pairs: dict[tuple[str, str], None] = field(default_factory=dict)
    seen: dict[tuple[str, str, bool, bool], Segments] = field(default_factory=dict)
    """Each pair of models compared, and where."""
    again: dict[Segments, Segments] = field(default_factory=dict)
    """Where a pair of models was met again (and not compared), and where it was compared."""

    def run(self) -> Checker:
        a, b = (Typed(*root(side)) for side in (self.acc, self.oth))
        self.types(a, b, Place((), (), self.acc.root, self.oth.root))
        return self

    def report(self, place: Place, what: str, edit: Edit | None, trail: tuple[Step, ...] | None = None,
               why: str | None = None) -> None:
        self.found.append(Found(place.segments, place.acc_decl, place.oth_decl, place.field, what,
                                place.trail if trail is None else trail, edit, why))

    # Types -------------------------------------------------------------------------------------

    def types(self, a: Typed, b: Typed, place: Place) -> None:
        x, y = self.letters
        if isinstance(a.type, ir.Ref) and isinstance(b.type, ir.Ref):
            self.pairs.setdefault((_named(a), _named(b)))
        mine, theirs = flatten(a.type, a.scope), flatten(b.type, b.scope)
        their_kinds = {kind(m.type) for m in theirs}
        if "any" in their_kinds or not mine:
            return
        my_kinds = [kind(m.type) for m in mine]
        if "any" in my_kinds:
            self.report(place, f"any value in {x}, {describe_all(theirs)} in {y}", Edit(mine[my_kinds.index("any")], b))
            return
        if "null" in my_kinds and "null" not in their_kinds:
            self.report(place, f"null only in {x}", Edit(value=None))
        for m in mine:
            for v in m.type.values if isinstance(m.type, ir.Literal) else ():
                if not admits(v, theirs):
                    self.report(place, f"value {v!r} only in {x}", Edit(value=v))
        others = [m for m, k in zip(mine, my_kinds) if k not in ("null", "literal")]
        tagged = (tag_field(mine, a.scope) is not None, tag_field(theirs, b.scope) is not None)
        their_tag = tag_field(theirs, b.scope)
        for m in others:
            k = kind(m.type)
            pool = candidates(k, theirs)
            if k == "object" and their_tag is not None:  # msgspec picks the member by the tag alone
                mine_tag = constant(m, their_tag)
                if mine_tag is not NOTHING:
                    pool = [c for c in pool if constant(c, their_tag) == mine_tag]
            if not pool:
                self.missing(m, others, theirs, b, place)
                continue
            o = best(m, pool)
            twice = max(sum(kind(t.type) == k for t in side) for side in (mine, theirs)) > 1
            here = place.labelled(label(m, o)) if twice else place
            self.member(m, o, b, here, tagged)
            integers = candidates("int", theirs)
            mine_ints = [t for t in others if kind(t.type) == "int"]
            if k == "float" and integers and integers[0] is not o and not mine_ints:  # integers go to the int member
                whole = Typed(constrain(ir.Scalar("int"), limits(m.type)), m.scope)
                self.scalar(whole, integers[0], b, here)

    def missing(self, m: Typed, others: list[Typed], theirs: list[Typed], b: Typed, place: Place) -> None:
        x, y = self.letters
        k = kind(m.type)
        values = [v for t in theirs if isinstance(t.type, ir.Literal) for v in t.type.values
                  if k in WORDS and type(v).__name__ == k]
        solid = [t for t in theirs if kind(t.type) != "null"]
        tag = model_tag(m)
        if values:
            what = f"any {WORDS[k]} in {x}, only {', '.join(map(repr, values))} in {y}"
        elif tag is not None and tag_field(theirs, b.scope) is not None:
            what = f"member {describe(m)} ({tag.field}={tag.value!r}) only in {x}"
        elif len(others) == 1 and len(solid) == 1:
            what = f"{describe(m)} in {x}, {describe(solid[0])} in {y}"
        else:
            what = f"member {describe(m)} only in {x}"
        self.report(place, what, Edit(m, b))

    def member(self, m: Typed, o: Typed, b: Typed, place: Place, tagged: tuple[bool, bool]) -> None:
        k = kind(m.type)
        if k == "array":
            self.array(m, o, b, place)
        elif k == "object":
            self.objects(m, o, b, place, tagged)
        else:
            self.scalar(m, o, b, place)

    def scalar(self, m: Typed, o: Typed, b: Typed, place: Place) -> None:
        x, y = self.letters
        mine, theirs = bare(m.type), bare(o.type)
        assert isinstance(mine, ir.Scalar) and isinstance(theirs, ir.Scalar)
        if theirs.format is not None and theirs.format != mine.format:
            self.report(place, f"{describe(m)} in {x}, {describe(o)} in {y}", Edit(m, b))
            return
        self.limited(m, o, b, place, limits(m.type), mine.kind == "int", theirs.format is not None)

    def limited(self, m: Typed, o: Typed, b: Typed, place: Place, mine: ir.Constraints, integer: bool = False,
                formatted: bool = False) -> None:
        x, y = self.letters
        for loose in bounds.loosened(mine, own_limits(o), integer, x, y, formatted):
            relaxed = Typed(bounds.without(o.type, loose.names), o.scope)
            self.report(place, loose.what, Edit(m, b, relaxed), why=loose.why)

    def array(self, m: Typed, o: Typed, b: Typed, place: Place) -> None:
        x, y = self.letters
        mine, theirs = bare(m.type), bare(o.type)
        if isinstance(mine, ir.Array) and isinstance(theirs, ir.Array):
            self.limited(m, o, b, place, limits(m.type))
            self.types(Typed(mine.item, m.scope), Typed(theirs.item, o.scope), place.step("item", None, m, o))
        elif isinstance(mine, ir.Tuple) and (isinstance(theirs, ir.Array) or length(theirs) == len(mine.items)):
            self.limited(m, o, b, place, bounds.tuple_limits(len(mine.items)))
            for i, item in enumerate(mine.items):
                other = theirs.item if isinstance(theirs, ir.Array) else theirs.items[i]  # type: ignore[union-attr]
                self.types(Typed(item, m.scope), Typed(other, o.scope), place.step("index", i, m, o))
        else:
            self.report(place, f"{describe(m)} in {x}, {describe(o)} in {y}", Edit(m, b))

    # Objects -----------------------------------------------------------------------------------

    def objects(self, m: Typed, o: Typed, b_type: Typed, place: Place, tagged: tuple[bool, bool]) -> None:
        x, y = self.letters
        mine, theirs = shape(m, tagged[0]), shape(o, tagged[1])
        if mine.name is not None and theirs.name is not None:
            met = (mine.name, theirs.name, *tagged)
            if met in self.seen:
                self.again.setdefault(place.segments, self.seen[met])
                return
            self.seen[met] = place.segments
            self.pairs.setdefault((mine.name, theirs.name))
            if not place.segments:
                self.described(place, mine.doc, theirs.doc)
            place = replace(place, acc_decl=mine.name, oth_decl=theirs.name, field=None)
        self.limited(m, o, b_type, place, limits(m.type))
        pair, at = (m, o), place.segments
        for key in dict.fromkeys([*mine.fields, *theirs.fields]):
            a, b = mine.fields.get(key), theirs.fields.get(key)
            here = place.step("field", key, m, o)
            if a is not None and b is not None:
                if b.required and not a.required:
                    note = " (its union's tag)" if b.tag and not theirs_requires(o, key) else ""
                    self.report(here, f"required in {y}{note}, optional in {x}", Edit(pair=pair, key=key, at=at), place.trail)
                self.types(Typed(a.type, mine.scope), Typed(b.type, theirs.scope), here)
                self.described(here, _doc(a.doc, a.type, mine.scope), _doc(b.doc, b.type, theirs.scope))
            elif a is not None:
                if theirs.extra is None:
                    self.report(here, f"field only in {x}; {y} forbids unknown fields",
                                Edit(Typed(a.type, mine.scope), None, pair=pair, key=key, at=at), place.trail)
                else:
                    self.types(Typed(a.type, mine.scope), Typed(theirs.extra, theirs.scope), here)
            elif b is not None:
                if b.required:  # (then what A lets through under the key is not said again)
                    self.report(here, f"required in {y}, absent in {x}", Edit(pair=pair, key=key, at=at), place.trail)
                elif mine.extra is not None:
                    self.unknown(Typed(mine.extra, mine.scope), Typed(b.type, theirs.scope), here)
        if mine.extra is not None:
            if theirs.extra is None:
                self.report(place, f"unknown fields pass in {x}, {y} forbids them",
                            Edit(Typed(mine.extra, mine.scope), None, pair=pair, at=at))
            else:
                self.types(Typed(mine.extra, mine.scope), Typed(theirs.extra, theirs.scope),
                           place.step("value", None, m, o))

    def unknown(self, extra: Typed, b: Typed, place: Place) -> None:
        """A key that is no field of the accepting side, which lets it through holding ``extra``."""
        x, y = self.letters
        theirs = flatten(b.type, b.scope)
        if kind(extra.type) != "any":
            self.types(extra, b, place)
        elif "any" not in {kind(t.type) for t in theirs}:
            self.report(place, f"not a field of {x} (any value passes), {describe_all(theirs)} in {y}", Edit(extra, b))

    def described(self, place: Place, mine: str | None, theirs: str | None) -> None:
        if not self.docs:
            return
        x, y = self.letters
        mine, theirs = (" ".join(d.split()) if d and d.strip() else None for d in (mine, theirs))
        if _words(mine) != _words(theirs):
            what = (f"description only in {x}" if theirs is None else f"description only in {y}" if mine is None
                    else "description differs")
            self.notes.append(Found(place.segments, place.acc_decl, place.oth_decl, place.field, what))


def _named(t: Typed) -> str:
    """The name of the declaration the reference ``t`` names, as the output shows it."""
    assert isinstance(t.type, ir.Ref)
    declaration, there = t.scope.resolve(t.type)
    return there.named(declaration.name)


def _words(doc: str | None) -> str | None:
    """A description as compared: whitespace, case and a last full stop make no difference."""
    return None if doc is None else doc.casefold().rstrip(". ")


def _doc(doc: str | None, t: ir.Type, scope: Scope) -> str | None:
    """What describes a field: its own description, else that of the declaration it names (maybe nullable)."""
    if doc:
        return doc
    named = [m for m in (t.members if isinstance(t, ir.Union) else (t,)) if not isinstance(m, ir.Null)]
    if len(named) == 1 and isinstance(named[0], ir.Ref):
        return scope.resolve(named[0])[0].doc
    return None


def theirs_requires(o: Typed, key: str) -> bool:
    """Does the schema itself require ``key`` of the model ``o`` (not only its union's tag)?"""
    return shape(o, tagged=False).fields[key].required
