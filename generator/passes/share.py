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

from collections.abc import Callable, Sequence

from .. import ir
from ..diagnostics import Reporter
from ..ir.walk import declaration_refs, map_refs, reachable, rename_all


def share(module: ir.Module, reporter: Reporter) -> ir.Module:
    while True:  # a copy skipped as one of its own ancestors' equals (see ``_Signatures``): again until none is
        shared = _share(module)
        if shared is module:
            return module
        module = shared


def _share(module: ir.Module) -> ir.Module:
    by_name = {d.name: d for d in module.declarations}
    if all(not d.inline for d in module.declarations):
        return module
    outlines: dict[tuple[object, ...], list[str]] = {}
    for d in module.declarations:
        if not d.inline:
            outlines.setdefault(_outline(d), []).append(d.name)
    text = _Signatures(by_name, outlines)
    same = {d.name: twin for d in module.declarations if d.inline and (twin := text.twin(d.name)) is not None}
    if not same:
        return module
    kept = tuple(d for d in module.declarations if d.name not in same)
    return _reachable(rename_all(ir.Module(kept, module.root), same), set(same), by_name)


def _reachable(module: ir.Module, gone: set[str], before: dict[str, ir.Declaration]) -> ir.Module:
    """``module`` without the inline declarations that only the ``gone`` copies referred to."""
    candidates: set[str] = set()
    todo = [n for g in gone for n in declaration_refs(before[g])]
    while todo:
        n = todo.pop()
        d = before.get(n)
        if d is not None and d.inline and n not in candidates and n not in gone:
            candidates.add(n)
            todo.extend(declaration_refs(d))
    if not candidates:  # (the usual case: each declaration is its own root, and all are kept)
        return module
    return reachable(module, [d.name for d in module.declarations if d.name not in candidates])


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

    def __init__(self, by_name: dict[str, ir.Declaration], outlines: dict[tuple[object, ...], list[str]]) -> None:
        self.by_name = by_name
        self.outlines = outlines
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
        outline = _outline(self.by_name[name])
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
            result = repr(_bare(self.by_name[name], written))
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
