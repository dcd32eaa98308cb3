"""Order: the schema's order, except that a declaration moves down below what it needs at import.

Class bodies are annotated lazily (``from __future__ import annotations``), but an alias is an
assignment evaluated at import, and so is a field's plain default (an enum member, say): an
alias needs everything it names, and a model the aliases its defaulted fields name. Aliases
that name each other in a cycle (``Env = dict[str, EnvValue]``, ``EnvValue = str | Env``) have
no such order, and msgspec could not decode them anyway: the reference that closes the cycle
becomes ``Any``, with a warning. Aliases that simply are each other (``A = B``, ``B = A``) are an
error: such a type has no values.
"""

from __future__ import annotations

from dataclasses import replace

from .. import ir
from ..errors import Reporter
from .walk import map_types, refs
from .where import location


def order(module: ir.Module, reporter: Reporter) -> ir.Module:
    aliases = {d.name for d in module.declarations if isinstance(d, ir.Alias)}
    placed: dict[str, ir.Declaration] = {}
    waiting: list[ir.Declaration] = []

    def settle() -> None:
        while ready := [w for w in waiting if all(n in placed for n in _needs(w, aliases))]:
            for declaration in ready:
                waiting.remove(declaration)
                placed[declaration.name] = declaration

    for d in module.declarations:
        waiting.append(d)
        settle()
    while waiting:  # only cycles are left
        stuck = {w.name for w in waiting}
        pure = _pure_cycle(waiting, stuck)
        if pure:
            for d in waiting:
                reporter.error(location(d), f"type aliases that are each other, in a cycle: {', '.join(pure)}",
                               "such a type has no values; make one of them an object or a list")
            return ir.Module(tuple(placed.values()) + tuple(waiting), module.root)
        cut = next((w for w in waiting if isinstance(w, ir.Alias)), waiting[0])
        waiting[waiting.index(cut)] = _cut(cut, stuck, reporter)
        settle()
    return ir.Module(tuple(placed.values()), module.root)


def _pure_cycle(waiting: list[ir.Declaration], stuck: set[str]) -> list[str]:
    """Aliases that name each other with no list, map or class in between (``A = B``, ``B = A | None``)."""
    edges = {d.name: _bare_refs(d.type) & stuck for d in waiting if isinstance(d, ir.Alias)}

    def walk(name: str, path: list[str]) -> list[str]:
        if name in path:
            return path[path.index(name):]
        for target in sorted(edges.get(name, ())):
            found = walk(target, [*path, name])
            if found:
                return found
        return []

    return next((cycle for name in edges if (cycle := walk(name, []))), [])


def _bare_refs(t: ir.Type) -> set[str]:
    if isinstance(t, ir.Ref) and t.module is None:
        return {t.name}
    if isinstance(t, ir.Union):
        return set().union(*(_bare_refs(m) for m in t.members))
    if isinstance(t, ir.Constrained):
        return _bare_refs(t.type)
    return set()


def _cut(d: ir.Declaration, stuck: set[str], reporter: Reporter) -> ir.Declaration:
    names = ", ".join(sorted(stuck))
    reporter.warn(location(d), f"type aliases that refer to each other in a cycle ({names}): "
                  f"in {d.name}, the reference back into the cycle is typed as Any",
                  "make one of them an object type to keep the precise type")

    def widen(t: ir.Type) -> ir.Type:
        return ir.AnyType() if isinstance(t, ir.Ref) and t.module is None and t.name in stuck else t

    if isinstance(d, ir.Alias):
        return replace(d, type=map_types(d.type, widen))
    return replace(d, fields=tuple(replace(f, default=None) if f.default is not None else f for f in d.fields))


def _needs(d: ir.Declaration, aliases: set[str]) -> set[str]:
    if isinstance(d, ir.Alias):
        return set(refs(d.type))
    defaulted = (f for f in d.fields if f.default is not None and not isinstance(f.default.value, (list, dict)))
    return {name for f in defaulted for name in refs(f.type) if name in aliases and name != d.name}
