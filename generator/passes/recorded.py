"""The passes with a record of what they decided and said of each declaration (``recorded``), and the
passes again after a few declarations changed, from the record of the run before (``again``): the
module and warnings ``run`` gives, from work on the changed declarations and those that reach one.

Why that holds (docs/incremental.md): the passes that decide over the whole module (``share``,
``naming``, ``tags``, ``order``) decide over small summaries of its declarations, and every other step
reads a declaration and what it reaches, with those decisions. A declaration that did not change
and reaches none that did, with every decision as before, leaves the passes as it did, and they say
of it what they said. So ``again`` redoes the others (with what they reach, which the passes of
defaults read), decides again only where a changed declaration's summary changed (or ``share`` read
its text), and gives up (``None``: run the passes whole) where the declarations are not the same
names in the same order, or a decision came out otherwise for a declaration it did not redo.
"""

from __future__ import annotations

from collections import ChainMap
from collections.abc import Callable, Collection, Iterable, Mapping, MutableMapping
from typing import TypeVar, cast

from .. import ir
from ..diagnostics import Location, Reporter
from ..frozen import replace
from ..ir.walk import reached
from ..names import Naming
from . import defaults, naming, refs, required_defaults
from .order import Placement, Summary as OrderSummary, cut, decide as place, placed, summary as order_summary
from .record import Kept, Record, Said, Summaries
from .required_defaults import Setting
from .share import (Summary as ShareSummary, alike as shares_alike, decide as share, outlines, shared,
                    summary as share_summary)
from .tags import (Summary as TagSummary, alike as tags_alike, decide as tag, members as tag_members,
                   summary as tag_summary, tagged as with_tags)

_S = TypeVar("_S")


def run(module: ir.Module, reporter: Reporter, setting: Setting | None = None, names: Naming = "schema") -> ir.Module:
    return recorded(module, reporter, setting, names)[0]


def recorded(module: ir.Module, reporter: Reporter, setting: Setting | None = None,
             names: Naming = "schema") -> tuple[ir.Module, Record]:
    """The passes over the whole module, and their record."""
    done = _Passes(module, setting, names, None, {d.name for d in module.declarations}).run(reporter)
    assert done is not None
    return done


def again(module: ir.Module, changed: Collection[str], before: Record, reporter: Reporter,
          setting: Setting | None = None, names: Naming = "schema") -> tuple[ir.Module, Record] | None:
    """``recorded`` of ``module``, which is the module ``before`` was made from but for the declarations
    ``changed`` (by name); ``None`` where the passes are to run whole. (The same ``setting`` and ``names``.)"""
    listed = tuple((d.name, d.inline) for d in module.declarations)
    if listed != before.names or module.root != before.root:
        return None
    return _Passes(module, setting, names, before, set(changed)).run(reporter)


class _Passes:
    """One run of the passes: over the whole module (``before`` is ``None``), or again over part of it."""

    def __init__(self, module: ir.Module, setting: Setting | None, names: Naming, before: Record | None,
                 changed: set[str]) -> None:
        self.module = module
        self.by_name = {d.name: d for d in module.declarations}
        self.setting = setting
        self.names = names
        self.before = before
        self.changed = changed

    def kept(self, name: str) -> Kept:
        assert self.before is not None
        return self.before.each[name]

    def run(self, reporter: Reporter) -> tuple[ir.Module, Record] | None:
        before = self.before
        listed = tuple((d.name, d.inline) for d in self.module.declarations)
        sharing = self._share(listed)
        if sharing is None:
            return None
        shares, refers, gone, read, outlines = sharing
        stay = [n for n, _ in listed if n not in gone]
        redo, closure = self._scope(stay, refers, gone)
        if before is None:  # (again: the same names as before, and those redone checked)
            refs.check_refs(self.module, reporter)
        else:
            refs.check([self.by_name[n] for n in redo], self.by_name)
        found, first, second = self._defaults(stay, closure, gone)
        classes = before.classes if before is not None else \
            naming.class_names([(n, self.by_name[n].inline) for n in stay], self.names)
        third = _each(naming.renamed(ir.Module(tuple(second[0][n] for n in second[0] if n in redo), None),
                                     classes).declarations, naming.unportable)
        decided = self._tags(stay, classes, redo, third[0])
        if decided is None:
            return None
        tagged, tagging, tag_summaries, members = decided
        fourth = {d.name: d for d in with_tags(ir.Module(tuple(third[0].values()), None), tagged).declarations}
        placement, order_summaries = self._placement(stay, classes, redo, fourth)
        mine = {classes[n] for n in redo}
        if before is not None and (placement.cycle or _others(placement.cut, mine) != _others(before.placement.cut, mine)):
            return None
        # what was found and said, in the order the passes say it
        required_defaults.warn([p for n in stay for p in (found.get(n, ()) if n in redo else self.kept(n).found)],
                               reporter)
        for step, said in enumerate((first[1], second[1], {n: third[1][classes[n]] for n in redo})):
            for n in stay:
                for diagnostic in said[n] if n in redo else self.kept(n).said[step]:
                    reporter.add(diagnostic)
        for diagnostic in tagging:
            reporter.add(diagnostic)
        root = self.module.root and classes[gone.get(self.module.root) or self.module.root]
        record = Record(listed, self.module.root, read, outlines, gone, classes, tagged, tagging, members, placement,
                        {}, {})
        if placement.cycle:  # (an error: the whole module's passes report it)
            return placed(ir.Module(tuple(fourth.values()), root), placement, reporter), record
        origin = {classes[n]: n for n in stay}
        cuts: dict[str, Said] = {}
        for name, stuck in placement.cut.items():
            if name in fourth:
                local = Reporter()
                fourth[name] = cut(fourth[name], stuck, local)
                cuts[name] = tuple(local.warnings)
            for diagnostic in cuts[name] if name in fourth else self.kept(origin[name]).cut:
                reporter.add(diagnostic)
        result = ir.Module(tuple(fourth[c] if c in fourth else self._final(origin[c]) for c in placement.order), root)
        each = dict(before.each) if before is not None else {}
        made: dict[str, Summaries] = {}
        for n, _ in listed:
            if n in redo:
                c = classes[n]
                same = fourth[c] is self.by_name[n]
                each[n] = Kept(refers[n], found.get(n, ()), (first[1][n], second[1][n], third[1][c]), cuts.get(c, ()),
                               None if same else fourth[c], same)
                made[n] = Summaries(self._share_of(n, shares), tag_summaries[c], order_summaries[c])
            elif n in gone and (before is None or n in self.changed):
                each[n] = Kept(refers[n])
                made[n] = Summaries(self._share_of(n, shares))
        # (the summaries made again over those before: ChainMap only reads the second map, each summary when
        # asked for; it writes to the first alone)
        summaries = made if before is None else ChainMap(made, cast(MutableMapping[str, Summaries], before.summaries))
        return result, replace(record, each=each, summaries=summaries)

    def _share_of(self, name: str, shares: Mapping[str, ShareSummary]) -> ShareSummary:
        """The ``share`` summary of declaration ``name``: made in this run, or the one before (it did not change)."""
        found = shares.get(name)
        if found is not None:
            return found
        assert self.before is not None
        return self.before.summaries[name].share

    def _final(self, name: str) -> ir.Declaration:
        """What the passes made of declaration ``name`` before, which they do not redo."""
        kept = self.kept(name)
        if kept.same:
            return self.by_name[name]
        assert kept.final is not None, "a declaration that stays has what the passes made of it"
        return kept.final

    def _share(self, listed: tuple[tuple[str, bool], ...]) -> tuple[
            dict[str, ShareSummary], dict[str, tuple[str, ...]], Mapping[str, str | None], frozenset[str],
            frozenset[tuple[object, ...]]] | None:
        """The ``share`` summaries made (of every declaration, or of the changed ones), the names each declaration
        refers to, what goes, whose text deciding that read, and the inline declarations' outlines."""
        before, changed = self.before, self.changed
        made = {n: share_summary(self.by_name[n]) for n, _ in listed if before is None or n in changed}
        refers = {n: made[n].refers if n in made else self.kept(n).refers for n, _ in listed}
        if before is not None and before.read.isdisjoint(changed) and all(
                shares_alike(made[n], before.summaries[n].share, before.outlines) for n in changed):
            return made, refers, before.gone, before.read, before.outlines
        summaries = [made[n] if n in made else _known(before).summaries[n].share for n, _ in listed]
        seen: set[str] = set()
        gone = share(summaries, _reading(self.by_name, seen))
        if before is not None and gone != before.gone:
            return None
        return made, refers, gone, frozenset(seen), outlines(summaries)

    def _scope(self, stay: list[str], refers: Mapping[str, tuple[str, ...]], gone: Mapping[str, str | None]
               ) -> tuple[set[str], set[str]]:
        """The declarations to redo (the changed ones that stay, and those that reach one), and those with
        what they reach (which the passes of defaults read)."""
        if self.before is None:
            return set(stay), set(stay)
        after = {n: [gone.get(t) or t for t in refers[n]] for n in stay}
        redo = _reaching(self.changed - gone.keys(), after)
        return redo, reached(redo, after.get)

    def _defaults(self, stay: list[str], closure: set[str], gone: Mapping[str, str | None]
                  ) -> tuple[dict[str, tuple[Location, ...]], Made, Made]:
        """``required_defaults``, ``check_defaults`` and ``break_endless_defaults`` over ``closure`` after
        ``share``: the properties found required with a default, and what each of the other two made and said."""
        module = shared(ir.Module(tuple(self.by_name[n] for n in stay if n in closure), None), gone)
        module, found = required_defaults.read(module, self.setting)
        checked = {d.name: d for d in module.declarations}
        first = _each(module.declarations, lambda d, said: defaults.checked(d, checked, said))
        endless = dict(first[0])
        return found, first, _each(list(first[0].values()), lambda d, said: defaults.finished(d, endless, said))

    def _tags(self, stay: list[str], classes: Mapping[str, str], redo: set[str], third: Mapping[str, ir.Declaration]
              ) -> tuple[Mapping[str, ir.Tag | None], Said, dict[str, TagSummary], frozenset[str]] | None:
        """Each model's tag, what deciding them said, the summaries of those redone (by class name), and the
        names unions may read as members."""
        made = {classes[n]: tag_summary(third[classes[n]]) for n in redo}
        before = self.before
        if before is not None and all(tags_alike(made[classes[n]], before.summaries[n].tags, before.members)
                                      for n in redo):
            return before.tagged, before.tagging, made, before.members
        summaries = [made[classes[n]] if n in redo else _known(_known(before).summaries[n].tags) for n in stay]
        said = Reporter()
        tagged = tag(summaries, said)
        if before is not None and any(tagged.get(classes[n]) != before.tagged.get(classes[n]) for n in stay
                                      if n not in redo):
            return None
        return tagged, (*said.errors, *said.warnings), made, tag_members(summaries)

    def _placement(self, stay: list[str], classes: Mapping[str, str], redo: set[str],
                   fourth: Mapping[str, ir.Declaration]) -> tuple[Placement, dict[str, OrderSummary]]:
        """Where the declarations go, and the summaries of those redone (by class name)."""
        made = {classes[n]: order_summary(fourth[classes[n]]) for n in redo}
        before = self.before
        if before is not None and all(made[classes[n]] == before.summaries[n].order for n in redo):
            return before.placement, made
        summaries = {classes[n]: made[classes[n]] if n in redo else _known(_known(before).summaries[n].order)
                     for n in stay}
        canonical = sorted(summaries, key=lambda c: (c.casefold(), c))  # (``order.canonical``)
        return place([summaries[c] for c in canonical]), made


Step = Callable[[ir.Declaration, Reporter], "ir.Declaration | None"]


Made = tuple[dict[str, ir.Declaration], dict[str, Said]]
"""What a step made of each declaration, and what it said of each (by name)."""


def _each(declarations: Iterable[ir.Declaration], step: Step) -> Made:
    """``step`` applied to each declaration (``None``: it stays as it is), and what it said of each."""
    made: dict[str, ir.Declaration] = {}
    said: dict[str, Said] = {}
    for d in declarations:
        local = Reporter()
        made[d.name] = step(d, local) or d
        said[d.name] = (*local.errors, *local.warnings)
    return made, said


def _reading(by_name: Mapping[str, ir.Declaration], seen: set[str]) -> Callable[[str], ir.Declaration]:
    """``by_name``'s lookup, noting each name looked up in ``seen``."""
    def read(name: str) -> ir.Declaration:
        seen.add(name)
        return by_name[name]
    return read


def _reaching(targets: Iterable[str], graph: Mapping[str, list[str]]) -> set[str]:
    """The nodes of ``graph`` (each with those it refers to) from which one of ``targets`` is reached."""
    back: dict[str, list[str]] = {}
    for name, referred in graph.items():
        for target in referred:
            back.setdefault(target, []).append(name)
    return reached(targets, lambda n: back.get(n, ()) if n in graph else None)


def _others(cut: Mapping[str, frozenset[str]], mine: Collection[str]) -> dict[str, frozenset[str]]:
    return {name: stuck for name, stuck in cut.items() if name not in mine}


def _known(found: _S | None) -> _S:
    assert found is not None, "a declaration that stays has its summaries (and a run again, a record before it)"
    return found


