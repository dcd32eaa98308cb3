"""Sharing: an inline declaration that says just what a declaration the schema names says is that declaration.

A schema may write out, inside another one, an object that a component also describes (OpenAI's
description repeats its chunking strategies inline); lowering makes a class for each place. One class
per schema concept: the inline copy goes, and what referred to it refers to the named declaration.
"Just what" is all of it, descriptions included (their words: not how lines are broken), and what it
declares inline compared the same way.
Two declarations the schema names stay two, and so do two inline declarations alike (their parents
differ, and either may change on its own).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import NamedTuple

from .. import ir
from ..diagnostics import Reporter
from ..ir.walk import declaration_refs, map_refs, reached, rename_all


class Summary(NamedTuple):
    """What ``decide`` reads of every declaration (``summary``); the text of a declaration whose
    outline is a named one's it reads off the declaration itself."""

    name: str
    inline: bool
    outline: tuple[object, ...]
    refers: tuple[str, ...]
    """The names it refers to."""


def share(module: ir.Module, reporter: Reporter) -> ir.Module:
    by_name = {d.name: d for d in module.declarations}
    return shared(module, decide([summary(d) for d in module.declarations], by_name.__getitem__))


def summary(d: ir.Declaration) -> Summary:
    return Summary(d.name, d.inline, _outline(d), tuple(dict.fromkeys(declaration_refs(d))))


def outlines(summaries: Sequence[Summary]) -> frozenset[tuple[object, ...]]:
    """The outlines of the inline declarations among ``summaries``: ``decide`` compares a named declaration with
    those of its outline alone (one of none of them is no one's twin)."""
    return frozenset(s.outline for s in summaries if s.inline)


def alike(now: Summary, then: Summary, inline: frozenset[tuple[object, ...]]) -> bool:
    """``decide`` decides as it did with ``then`` now ``now`` (``inline``: the ``outlines`` it was given): the same
    summary, or a named declaration that refers to the same names, whose outline was and is no inline
    declaration's (it is no one's twin, and no text reads its own). (Whose text was read is decided again by
    the caller.)"""
    return now == then or (not now.inline and not then.inline and now.refers == then.refers
                           and now.outline not in inline and then.outline not in inline)


def decide(summaries: Sequence[Summary], declaration: Callable[[str], ir.Declaration]) -> dict[str, str | None]:
    """The inline declarations that go: each with the named declaration it is the twin of (what
    referred to it refers to that one), or ``None`` where only copies that went referred to it.
    Round after round, a copy skipped as one of its own ancestors' equals (see ``_Signatures``), until
    none is. ``declaration``: a declaration by name, asked for the text of those whose outline is some
    named declaration's (a few in a thousand)."""
    gone: dict[str, str | None] = {}
    renamed: dict[str, str] = {}
    while True:
        live = {s.name: s for s in summaries if s.name not in gone}
        if all(not s.inline for s in live.values()):
            return gone
        outlines: dict[tuple[object, ...], list[str]] = {}
        for s in live.values():
            if not s.inline:
                outlines.setdefault(s.outline, []).append(s.name)
        text = _Signatures(live, outlines, declaration, dict(renamed))
        same = {s.name: twin for s in live.values() if s.inline and (twin := text.twin(s.name)) is not None}
        if not same:
            return gone
        gone.update(same)
        renamed.update(same)
        gone.update(dict.fromkeys(_unreachable(live, same, renamed)))


def shared(module: ir.Module, sharing: Mapping[str, str | None]) -> ir.Module:
    """``module`` without the declarations ``sharing`` says go, what referred to a twin referring to the
    named declaration instead (a declaration reads its own entry and those of the names it refers to)."""
    if not sharing:
        return module
    kept = tuple(d for d in module.declarations if d.name not in sharing)
    return rename_all(ir.Module(kept, module.root), {name: twin for name, twin in sharing.items() if twin is not None})


def _unreachable(live: Mapping[str, Summary], same: Mapping[str, str], renamed: Mapping[str, str]) -> set[str]:
    """The inline declarations that only the copies ``same`` (gone) referred to, and no other does."""
    def refers(name: str, inline_only: bool) -> list[str] | None:
        s = live.get(name)
        if s is None or name in same or (inline_only and not s.inline):
            return None
        return [renamed.get(n, n) for n in s.refers]

    candidates = reached((renamed.get(n, n) for g in same for n in live[g].refers), lambda n: refers(n, True))
    if not candidates:  # (the usual case: each declaration is its own root, and all are kept)
        return candidates
    return candidates - reached((n for n in live if n not in candidates), lambda n: refers(n, False))


def _outline(d: ir.Declaration) -> tuple[object, ...]:
    """What a declaration's text must have for it to be another's, cheap to compare: its kind, and
    its fields' keys and whether they are required."""
    if isinstance(d, ir.Alias):
        return ("alias", type(d.type).__name__)
    return ("model", d.closed, tuple((f.wire_name, f.required) for f in d.fields))


class _Signatures:
    """Each declaration's text without its name, place and inline mark. What it declares inline is
    written as the named declaration it copies, else as the number of its own text (texts are
    numbered as they are met: equal numbers, equal texts), so a text is as long as the declaration
    itself, however deep the schema nests; a reference back up the chain is written as how many
    levels up it leads.

    Each text is worked out once (``done``), except one that refers back up its chain. A declaration
    is not compared with one whose text is being worked out (``busy``): that one encloses it, and a
    text never equals one that holds it; the next round of ``share`` sees what this order hides.
    """

    def __init__(self, by_name: Mapping[str, Summary], outlines: dict[tuple[object, ...], list[str]],
                 declaration: Callable[[str], ir.Declaration], renamed: Mapping[str, str]) -> None:
        """``renamed``: the names the earlier rounds replaced, by what replaced them (the declarations,
        as ``declaration`` gives them, still say the names they were written with)."""
        self.by_name = by_name
        self.outlines = outlines
        self.declaration = declaration
        self.renamed = renamed
        self.done: dict[str, str] = {}
        self.numbers: dict[str, int] = {}
        self.twins: dict[str, str | None] = {}
        self.busy: set[str] = set()
        self.indexes: dict[tuple[object, ...], dict[str, str]] = {}

    def of(self, name: str) -> str:
        return self._of(name, (name,))[0]

    def twin(self, name: str) -> str | None:
        """The first declaration the schema names whose text is this inline declaration's, if any."""
        if name in self.twins:
            return self.twins[name]
        outline = self.by_name[name].outline
        candidates = self.outlines.get(outline, ())
        # the whole text only where the outline already matches (a few in a thousand)
        mine = self.of(name) if candidates else ""
        found = self._first(outline, candidates, mine)
        if not self.busy:  # worked out with nothing hidden
            self.twins[name] = found
        return found

    def _first(self, outline: tuple[object, ...], candidates: Sequence[str], text: str) -> str | None:
        """The first of ``candidates`` (named, of one outline) whose text is ``text`` and that is not busy;
        once all of them are worked out, by their texts, not one by one."""
        by_text = self.indexes.get(outline)
        if by_text is None and candidates and self.busy.isdisjoint(candidates):
            by_text = {}
            for n in candidates:
                by_text.setdefault(self.of(n), n)
            self.indexes[outline] = by_text
        if by_text is not None:
            found = by_text.get(text)
            if found not in self.busy:
                return found
        return next((n for n in candidates if n not in self.busy and self.of(n) == text), None)

    def _of(self, name: str, chain: tuple[str, ...]) -> tuple[str, int]:
        """The text, and how far up ``chain`` it refers (0: within itself; its memo needs no chain)."""
        found = self.done.get(name)
        if found is not None:
            return found, 0
        reach = 0

        def written(n: str) -> str:
            nonlocal reach
            if n in chain:
                up = len(chain) - 1 - chain.index(n)
                reach = max(reach, up)
                return f"^{up}"
            target = self.by_name.get(n)
            if target is None or not target.inline:
                return n
            inner, inner_reach = self._of(n, (*chain, n))
            reach = max(reach, inner_reach - 1)
            twin = self.twin(n) if inner_reach == 0 else None
            return twin if twin is not None else f"<{self.numbers.setdefault(inner, len(self.numbers))}>"

        self.busy.add(name)
        try:
            result = repr(_bare(self.declaration(name), lambda n: written(self.renamed.get(n, n))))
        finally:
            self.busy.discard(name)
        if reach == 0:
            self.done[name] = result
        return result, reach


def _bare(d: ir.Declaration, written: Callable[[str], str]) -> ir.Declaration:
    """``d`` without its name, place, inline mark and tag, its descriptions as words, and each name its
    types mention as ``written`` says (field by field, in order). (Built directly: ``replace`` would
    cost more than the rest of the text.)"""
    if isinstance(d, ir.Alias):
        return ir.Alias("", map_refs(d.type, written), _words(d.doc))
    fields = tuple(ir.Field(f.name, f.wire_name, map_refs(f.type, written), f.required, f.default, _words(f.doc))
                   for f in d.fields)
    return ir.Model("", fields, _words(d.doc), d.closed)


def _words(doc: str | None) -> str | None:
    return " ".join(doc.split()) if doc is not None else None
