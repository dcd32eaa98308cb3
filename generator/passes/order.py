"""Order: by name, except that a declaration moves down below what it needs at import.

The order depends on the model only, not on the order the schema lists its definitions in (a
provider that regenerates its spec in another order changes nothing in the output), nor on the
dialect (a JSON Schema document's root is a component like any other in an OpenAPI file).

Class bodies are annotated lazily (``from __future__ import annotations``), but an alias is an
assignment evaluated at import, and so is a field's plain default (an enum member, say): an
alias needs everything it names, and a model the enums its plain defaults may be members of
(``True`` for ``Schema | list[Schema]`` names neither alias). Aliases that name each other in a
cycle (``Env = dict[str, EnvValue]``, ``EnvValue = str | Env``) have no such order, and msgspec
could not decode them anyway: the reference that closes the cycle becomes ``Any``, with a warning. Aliases that simply are each other (``A = B``, ``B = A``) are an
error: such a type has no values.
"""

from __future__ import annotations

import heapq
from dataclasses import replace

from .. import ir
from ..diagnostics import Reporter, few
from ..ir.walk import map_types, refs
from .where import location


def order(module: ir.Module, reporter: Reporter) -> ir.Module:
    queue = _Queue({d.name: d.type for d in module.declarations if isinstance(d, ir.Alias)})
    for d in canonical(module):
        queue.add(d)
    if queue.waiting:  # only cycles are left
        waiting = list(queue.waiting.values())
        # Cutting only removes references, so a pure cycle not there now never appears later.
        pure = _pure_cycle(waiting, set(queue.stuck))
        if pure:
            for d in waiting:
                reporter.error(location(d), f"type aliases that are each other, in a cycle: {', '.join(pure)}",
                               "such a type has no values; make one of them an object or a list")
            return ir.Module(tuple(queue.placed.values()) + tuple(waiting), module.root)
    while queue.waiting:
        position = queue.first_alias()
        queue.replace(position, _cut(queue.waiting[position], queue.stuck, reporter))
    return ir.Module(tuple(queue.placed.values()), module.root)


def canonical(module: ir.Module) -> list[ir.Declaration]:
    """By name (case aside, then as written)."""
    return sorted(module.declarations, key=lambda d: (d.name.casefold(), d.name))


class _Queue:
    """Declarations in the canonical order, each placed as soon as all it needs is placed.

    Each addition places, round after round, what became ready (within a round, in the order
    the declarations came); a count of missing needs per declaration keeps this linear.
    """

    def __init__(self, aliases: dict[str, ir.Type]) -> None:
        self.aliases = aliases
        """Each alias's type (as it came: cutting a cycle only removes references)."""
        self.placed: dict[str, ir.Declaration] = {}
        self.waiting: dict[int, ir.Declaration] = {}
        """By position (the order declarations came in), those not placed yet."""
        self.stuck: set[str] = set()
        """The names of the waiting declarations."""
        self.needs: dict[int, set[str]] = {}
        self.missing: dict[int, int] = {}
        self.dependents: dict[str, set[int]] = {}
        self.waiting_aliases: list[int] = []
        """A heap of the positions of waiting aliases (some since placed: skipped when met)."""

    def add(self, d: ir.Declaration) -> None:
        position = len(self.needs)
        if isinstance(d, ir.Alias):
            heapq.heappush(self.waiting_aliases, position)
        self.replace(position, d)

    def replace(self, position: int, d: ir.Declaration) -> None:
        """Set (or reset) the declaration at ``position``, then place all that became ready."""
        self.waiting[position] = d
        self.stuck.add(d.name)
        self.needs[position] = needs = _needs(d, self.aliases)
        self.missing[position] = sum(n not in self.placed for n in needs)
        for n in needs:
            self.dependents.setdefault(n, set()).add(position)
        ready = [position] if self.missing[position] == 0 else []
        while ready:
            after: list[int] = []
            for p in ready:
                after += self._place(p)
            ready = sorted(after)

    def _place(self, position: int) -> list[int]:
        """Place one declaration; the positions it made ready."""
        d = self.waiting.pop(position)
        self.stuck.discard(d.name)
        if d.name in self.placed:
            self.placed[d.name] = d
            return []
        self.placed[d.name] = d
        ready = []
        for p in self.dependents.pop(d.name, ()):
            if p in self.waiting and d.name in self.needs[p]:
                self.missing[p] -= 1
                if self.missing[p] == 0:
                    ready.append(p)
        return ready

    def first_alias(self) -> int:
        """The first waiting alias, else the first waiting declaration."""
        while self.waiting_aliases and self.waiting_aliases[0] not in self.waiting:
            heapq.heappop(self.waiting_aliases)
        return self.waiting_aliases[0] if self.waiting_aliases else next(iter(self.waiting))


def _pure_cycle(waiting: list[ir.Declaration], stuck: set[str]) -> list[str]:
    """Aliases that name each other with no list, map or class in between (``A = B``, ``B = A | None``)."""
    edges = {d.name: _bare_refs(d.type) & stuck for d in waiting if isinstance(d, ir.Alias)}
    acyclic: set[str] = set()
    """Names from which no cycle is reachable: walking them again finds nothing, on any path."""

    def walk(name: str, path: list[str]) -> list[str]:
        if name in path:
            return path[path.index(name):]
        if name in acyclic:
            return []
        for target in sorted(edges.get(name, ())):
            found = walk(target, [*path, name])
            if found:
                return found
        acyclic.add(name)
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
    names = few(sorted(stuck))
    reporter.warn(location(d), f"type aliases that refer to each other in a cycle ({names}): "
                  f"in {d.name}, the reference back into the cycle is typed as Any",
                  "make one of them an object type to keep the precise type", kind="alias cycle")

    def widen(t: ir.Type) -> ir.Type:
        return ir.AnyType() if isinstance(t, ir.Ref) and t.module is None and t.name in stuck else t

    if isinstance(d, ir.Alias):
        return replace(d, type=map_types(d.type, widen))
    return replace(d, fields=tuple(replace(f, default=None) if f.default is not None else f for f in d.fields))


def _needs(d: ir.Declaration, aliases: dict[str, ir.Type]) -> set[str]:
    if isinstance(d, ir.Alias):
        return set(refs(d.type))
    defaulted = (f for f in d.fields if f.default is not None and not isinstance(f.default.value, (list, dict)))
    return {name for f in defaulted for name in _enum_candidates(f.type, aliases) if name != d.name}


def _enum_candidates(t: ir.Type, aliases: dict[str, ir.Type]) -> set[str]:
    """The aliases a plain default of type ``t`` can be written with: those of a ``Literal`` (with
    ``enums = "class"`` the default is a member of that class), found through unions, constraints
    and other aliases, whose names a default does not mention (``True`` for ``X | list[X]``)."""
    found: set[str] = set()
    seen: set[str] = set()
    pending = [t]
    while pending:
        match pending.pop():
            case ir.Union(members):
                pending.extend(members)
            case ir.Constrained(inner):
                pending.append(inner)
            case ir.Ref(name, None) if name in aliases and name not in seen:
                seen.add(name)
                if isinstance(aliases[name], ir.Literal):
                    found.add(name)
                else:
                    pending.append(aliases[name])
    return found
