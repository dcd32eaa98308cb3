"""Order: the schema's order, except that a declaration moves down below what it needs at import.

Class bodies are annotated lazily (``from __future__ import annotations``), but an alias is an
assignment evaluated at import, and so is a field's plain default (an enum member, say): an
alias needs everything it names, and a model the aliases its defaulted fields name. A cycle of
such needs has no order: that is an error.
"""

from __future__ import annotations

from .. import ir
from ..errors import Reporter
from .walk import refs
from .where import location


def order(module: ir.Module, reporter: Reporter) -> ir.Module:
    aliases = {d.name for d in module.declarations if isinstance(d, ir.Alias)}
    placed: dict[str, ir.Declaration] = {}
    waiting: list[ir.Declaration] = []
    for d in module.declarations:
        waiting.append(d)
        while ready := [w for w in waiting if all(n in placed for n in _needs(w, aliases))]:
            for declaration in ready:
                waiting.remove(declaration)
                placed[declaration.name] = declaration
    names = ", ".join(d.name for d in waiting)
    for d in waiting:
        reporter.error(location(d), f"declarations that need each other at import, in a cycle: {names}",
                       "make one of the aliases an object type, or break the cycle")
    return ir.Module(tuple(placed.values()) + tuple(waiting), module.root)


def _needs(d: ir.Declaration, aliases: set[str]) -> set[str]:
    if isinstance(d, ir.Alias):
        return set(refs(d.type))
    defaulted = (f for f in d.fields if f.default is not None and not isinstance(f.default.value, (list, dict)))
    return {name for f in defaulted for name in refs(f.type) if name in aliases and name != d.name}
