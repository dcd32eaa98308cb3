"""Order: the schema's order, except that an alias moves down below what it names.

Class bodies are evaluated lazily (``from __future__ import annotations``), but an alias is an
assignment evaluated at import, so everything it mentions must already exist. Aliases that
name each other in a cycle have no such order: that is an error.
"""

from __future__ import annotations

from .. import ir
from ..errors import Reporter
from .where import location
from .walk import refs


def order(module: ir.Module, reporter: Reporter) -> ir.Module:
    placed: dict[str, ir.Declaration] = {}
    waiting: list[ir.Alias] = []

    def ready(alias: ir.Alias) -> bool:
        return all(target in placed for target in refs(alias.type))

    for d in module.declarations:
        waiting.append(d) if isinstance(d, ir.Alias) else placed.setdefault(d.name, d)
        while ready_ones := [a for a in waiting if ready(a)]:
            for alias in ready_ones:
                waiting.remove(alias)
                placed[alias.name] = alias
    names = ", ".join(a.name for a in waiting)
    for alias in waiting:
        reporter.error(location(alias), f"type aliases that refer to each other in a cycle: {names}",
                       "make one of them an object type, or break the cycle")
    return ir.Module(tuple(placed.values()) + tuple(waiting), module.root)
