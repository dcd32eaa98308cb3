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

from dataclasses import replace

from .. import ir
from ..diagnostics import Reporter
from ..ir.walk import declaration_refs, map_declaration_types, map_refs, reachable, rename_all


def share(module: ir.Module, reporter: Reporter) -> ir.Module:
    while True:  # a copy's parent is a copy once the copy is the named declaration: again until none is
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
    text = _Signatures(by_name)
    same: dict[str, str] = {}
    for d in module.declarations:
        candidates = outlines.get(_outline(d)) if d.inline else None
        if candidates:  # the whole text only where the outline already matches (a few in a thousand)
            mine = text.of(d.name)
            same.update({d.name: n for n in candidates[::-1] if text.of(n) == mine})
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
    return reachable(module, [d.name for d in module.declarations if d.name not in candidates])


def _outline(d: ir.Declaration) -> tuple[object, ...]:
    """What a declaration's text must have for it to be another's, cheap to compare: its kind, and
    its fields' keys and whether they are required."""
    if isinstance(d, ir.Alias):
        return ("alias", type(d.type).__name__)
    return ("model", d.closed, tuple((f.wire_name, f.required) for f in d.fields))


class _Signatures:
    """Each declaration's text without its name, place and inline mark, with what it declares inline
    written in place (a reference back up the chain written as how many levels up it leads)."""

    def __init__(self, by_name: dict[str, ir.Declaration]) -> None:
        self.by_name = by_name
        self.done: dict[str, str] = {}

    def of(self, name: str) -> str:
        return self._of(name, (name,))[0]

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
            return f"<{inner}>"

        d = self.by_name[name]
        if isinstance(d, ir.Model):
            d = replace(d, tag=None, fields=tuple(replace(f, doc=_words(f.doc)) for f in d.fields))
        bare = replace(d, name="", doc=_words(d.doc), inline=False, origin=None)
        result = repr(map_declaration_types(bare, lambda t: map_refs(t, written)))
        if reach == 0:
            self.done[name] = result
        return result, reach


def _words(doc: str | None) -> str | None:
    return " ".join(doc.split()) if doc is not None else None
