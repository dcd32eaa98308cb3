"""A definition lowered on its own: what it reads of the other definitions, and what it makes from them.

Lowering a definition reads others only through a ``$ref``, in three ways:

- folding copies a target's subschemas in (an ``allOf`` member, a ``$ref`` beside constraining
  keywords, the branches of a union beside what they share: ``homes.folded``), and the target's own
  folds in turn;
- a reference reads its target as folded: whether it allows null, its kind beside a ``type``
  (``references``), whether it has a constant tag when it is a member of a discriminated union
  (``unions``);
- a property's default is the nearest along a chain of references (``references.default``).

Names are no part of it: a definition's class name is decided over the whole set (``context.Names``),
and so are the inline names another definition took first (``context.Taken``) and the inline models
another declared first (``Lowering.inline``). ``Lowering.met`` lists the definitions whose lowering
met one of those; every other definition makes, lowered on its own from what ``reads`` lists (``alone``),
exactly the declarations it makes in the whole lowering. An edit of one definition leaves the others'
declarations as they were unless they read it, which is what keeping them by their sources needs.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from .. import ir
from ..diagnostics import Diagnostic, Reporter
from ..frontend.schema import Definition, Schema, SchemaSet
from ..frozen import Frozen
from .context import External, Known
from .homes import BESIDE_NOTHING, folded, own_nodes
from .lowering import Lowering
from .references import looked_up
from .shapes import REF_ANNOTATIONS


def reads(definitions: Mapping[str, Definition], key: str) -> frozenset[str]:
    """The keys of the definitions that lowering definition ``key`` may read, its own among them."""
    return Reads(definitions).of(key)


class Reads:
    """``reads`` for many definitions of one set, each definition walked once for each thing asked of it."""

    def __init__(self, definitions: Mapping[str, Definition],
                 direct: Mapping[str, Sequence[str]] | None = None) -> None:
        """``direct``: ``homes.folded`` of each definition, where it is known already."""
        self.definitions = definitions
        self.own = {id(d.schema) for d in definitions.values()}
        self.direct = direct
        self._walks: dict[str, tuple[list[str], bool]] = {}
        self._folds: dict[str, frozenset[str]] = {}

    def of(self, key: str) -> frozenset[str]:
        if self.merging(key):  # merged, a `$ref` is folded in, and what it refers to…
            return self._closure(key)
        found = {key}
        for target in self.refs(key):
            found |= self.folds(target)
            found.update(self.chain(target))
        return frozenset(found)

    def merging(self, key: str) -> bool:
        """Folding merges schemas somewhere in ``key``'s schema (not in the definitions nested in it): an
        ``allOf``, a ``$ref`` beside constraining keywords, a union beside what its branches share. Two
        properties of one name merged fold a ``$ref`` in; its target's properties may be merged in turn."""
        return self._walk(key)[1]

    def refs(self, key: str) -> list[str]:
        """The definitions ``key``'s schema refers to, each once (not those nested in it: theirs)."""
        return self._walk(key)[0]

    def _walk(self, key: str) -> tuple[list[str], bool]:
        found = self._walks.get(key)
        if found is None:
            refs, merging = _walked(self.definitions[key].schema, self.own)
            found = self._walks[key] = ([t for t in refs if t in self.definitions], merging)
        return found

    def folded(self, key: str) -> Sequence[str]:
        """``homes.folded`` of ``key``'s schema."""
        if self.direct is not None and key in self.direct:
            return self.direct[key]
        return folded(self.definitions[key].schema, self.own)

    def folds(self, key: str) -> frozenset[str]:
        """``key`` and the definitions folding copies into it, in turn."""
        found = self._folds.get(key)
        if found is None:
            seen = {key}
            todo = [key]
            while todo:
                for target in self.folded(todo.pop()):
                    if target in self.definitions and target not in seen:
                        seen.add(target)
                        todo.append(target)
            found = self._folds[key] = frozenset(seen)
        return found

    def _closure(self, key: str) -> frozenset[str]:
        """``key`` and every definition it refers to, in turn (``schema.reached``)."""
        seen = {key}
        todo = [key]
        while todo:
            for target in self.refs(todo.pop()):
                if target not in seen:
                    seen.add(target)
                    todo.append(target)
        return frozenset(seen)

    def chain(self, key: str) -> list[str]:
        """The definitions a default is looked for along from ``key`` (``references.default``), folds aside."""
        found = [key]
        following = self.then(key)
        while following is not None and following not in found:
            found.append(following)
            following = self.then(following)
        return found

    def then(self, key: str) -> str | None:
        """The definition after ``key`` on the chain a default is looked for along (``after``)."""
        target = after(self.definitions[key].schema)
        return target if target in self.definitions else None


class Unit(Frozen, frozen=True):
    """What lowering one definition made, and what of the other definitions' lowering it met: enough
    to put it back among them (``again``) instead of lowering it."""

    declarations: tuple[ir.Declaration, ...]
    declared_in: tuple[tuple[str, str], ...]
    """``Lowering.declared_in`` of its inline declarations."""
    said: tuple[Diagnostic, ...]
    """What it reported, each time it did (``Lowering.said``)."""
    names: frozenset[str]
    """The class names its lowering took (a derived definition's own among them: ``Names``)."""
    asked: frozenset[str]
    """The class names its lowering asked about, taken or not (``Taken.asked``)."""
    places: frozenset[tuple[str, str]]
    """Where it declared inline models (``Places``)."""
    met: frozenset[str]
    """``Lowering.met``: the definitions whose names or models it met."""
    outside: bool
    """It asked ``external`` for a type (another input's: read again in every run)."""
    folds: tuple[str, ...]
    """``homes.folded``: what decides the order it is lowered in (``home_first``)."""
    refs: tuple[str, ...]
    """``Reads.refs``: the definitions it refers to."""
    merges: bool
    """``Reads.merging``: it reads every definition it refers to, in turn."""
    then: str | None
    """``Reads.then``: where a default is looked for after it."""


def record(lowering: Lowering, reads: Reads, keys: Collection[str] | None = None) -> dict[str, Unit]:
    """Each definition ``lowering`` lowered (or those of ``keys``), as a ``Unit``."""
    names: dict[str, set[str]] = {}
    for name, owner in lowering.taken.by.items():
        names.setdefault(owner, set()).add(name)
    places: dict[str, set[tuple[str, str]]] = {}
    for place, unit in lowering.placed.owners():
        places.setdefault(unit, set()).add(place)
    inline = lowering.declared_in
    units = {}
    for key, (start, end) in lowering.spans.items():
        if keys is not None and key not in keys:
            continue
        made = tuple(d for d in lowering.declarations[start:end] if d is not None)
        first, last = lowering.said[key]
        units[key] = Unit(made, tuple((d.name, inline[d.name]) for d in made if d.name in inline),
                          tuple(lowering.heard.said[first:last]), frozenset(names.get(key, ())),
                          frozenset(lowering.taken.asked.get(key, ())), frozenset(places.get(key, ())),
                          frozenset(lowering.met.get(key, ())), key in lowering.outside,
                          tuple(reads.folded(key)), tuple(reads.refs(key)), reads.merging(key), reads.then(key))
    return units


def to_lower_again(units: Mapping[str, Unit], changed: Collection[str]) -> set[str]:
    """The definitions to lower again when those ``changed`` have: those whose ``reads`` holds one, those
    that ask another input for a type, and those that met one of them, or that one of them met, in turn."""
    found = readers(units, changed) | {key for key, unit in units.items() if unit.outside}
    met: dict[str, list[str]] = {}
    for key, unit in units.items():
        for other in unit.met:
            met.setdefault(key, []).append(other)
            met.setdefault(other, []).append(key)
    return _back(found, met)


def readers(units: Mapping[str, Unit], changed: Collection[str]) -> set[str]:
    """The definitions whose ``reads`` holds one of ``changed``, worked out backwards from what each unit
    says of itself (what it refers to, folds in, looks a default up in next): each edge walked once."""
    referred: dict[str, list[str]] = {}
    folded_by: dict[str, list[str]] = {}
    before: dict[str, list[str]] = {}
    for key, unit in units.items():
        for target in unit.refs:
            referred.setdefault(target, []).append(key)
        for target in unit.folds:
            folded_by.setdefault(target, []).append(key)
        if unit.then is not None:
            before.setdefault(unit.then, []).append(key)
    start = {key for key in changed if key in units}
    found = set(start)
    for target in _back(start, folded_by) | _back(start, before):  # what holds a changed one in its folds or chain
        found.update(key for key in referred.get(target, ()) if not units[key].merges)
    found.update(key for key in _back(start, referred) if units[key].merges)
    return found


def _back(start: Collection[str], edges: Mapping[str, Sequence[str]]) -> set[str]:
    """``start`` and what reaches it along ``edges`` (each key with those that lead to it)."""
    seen = set(start)
    todo = list(seen)
    while todo:
        for key in edges.get(todo.pop(), ()):
            if key not in seen:
                seen.add(key)
                todo.append(key)
    return seen


def again(schemas: SchemaSet, external: External | None, own: dict[str, str], known: Known,
          kept: Mapping[str, Unit], order: Sequence[str], redo: Collection[str]) -> Lowering | None:
    """The lowering of the definitions ``order`` lists, in that order: those in ``redo`` lowered again,
    the others ``kept`` as an earlier lowering made them; ``None`` when what is lowered again would meet
    what is kept, or be met by it (a name, an inline model), or stop saying what a kept one does not say:
    then the whole set is to be lowered."""
    told = Reporter()  # (what it says is taken from ``said``, definition by definition)
    lowering = Lowering(schemas, told, external, own, known)
    for key, unit in kept.items():
        if key not in redo:
            for name in unit.names:
                lowering.taken.by[name] = key
    for key in order:
        if key in redo:
            lowering.unit(key)
    if told.errors or any(key not in kept or kept[key].met - set(redo) for key in redo):
        return None
    if any(lowering.met.get(key, set()) - set(redo) for key in redo):
        return None  # a name or model taken by a definition kept
    taken_now = {name for name, owner in lowering.taken.by.items() if owner in redo}
    taken_before = {name for key in redo for name in kept[key].names}
    # a name a kept definition found free, or a derived one chose its name among (``Names``: it is kept)
    asked = {name for key, unit in kept.items() if key not in redo or schemas.definitions[key].derived
             for name in unit.asked}
    if (taken_now - taken_before) & asked:
        return None
    placed = {place for key, unit in kept.items() if key not in redo for place in unit.places}
    if any(place in placed for place, _ in lowering.placed.owners()):
        return None  # a model a kept definition declared
    for key in redo:
        first, last = lowering.said[key]
        now = set(lowering.heard.said[first:last])
        if any(d not in now for d in kept[key].said if not _within(d, schemas.definitions[key].schema)):
            return None  # said once, by the first to fold it in: a kept one may be the first now
    return lowering


def _within(diagnostic: Diagnostic, schema: Schema) -> bool:
    """``diagnostic`` is about a place within ``schema``."""
    where, pointer = diagnostic.location, schema.loc.pointer
    return where.path == schema.loc.path and (where.pointer == pointer or where.pointer.startswith(pointer + "/"))


def alone(schemas: SchemaSet, key: str, known: Known, reporter: Reporter, external: External | None = None,
          own: dict[str, str] | None = None) -> list[ir.Declaration]:
    """The declarations of definition ``key`` (before ``shorten`` and the passes), lowered on its own:
    reading no definition but those ``known.readable`` lists, given the names decided over the whole set."""
    lowering = Lowering(schemas, reporter, external, own or {}, known)
    lowering.unit(key)
    return [d for d in lowering.declarations if d is not None]


def after(schema: Schema) -> str | None:
    """Where a default is looked for after ``schema`` (``references.looked_up``)."""
    return looked_up(schema)[1]


def _walked(root: Schema, own: set[int]) -> tuple[list[str], bool]:
    """What ``root`` refers to, each once, and whether it merges (``Reads.merging``). A definition nested
    in it is not walked (it is walked for itself, and is a reference where it stands), but for where a default
    beside it is looked for after it (``after``: a property's default is read through it)."""
    refs: dict[str, None] = {}
    merging = False
    for node, nested in own_nodes(root, own):
        target = (after(node) if isinstance(node, Schema) else None) if nested else node.get("$ref")
        if isinstance(target, str):
            refs[target] = None
        if nested:
            continue
        if isinstance(target, str) and not REF_ANNOTATIONS.issuperset(node):
            merging = True
        if "allOf" in node or (("anyOf" in node or "oneOf" in node) and not BESIDE_NOTHING.issuperset(node)):
            merging = True
    return list(refs), merging
