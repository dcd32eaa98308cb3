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
from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

from .. import ir
from ..diagnostics import Reporter, few
from ..frozen import Frozen, field, replace
from ..ir.walk import map_types, refs
from .where import location


class Summary(NamedTuple):
    """What ``decide`` reads of one declaration (``summary``)."""

    name: str
    alias: bool
    refers: frozenset[str]
    """An alias: the names its type mentions (all of them needed at import)."""
    bare: frozenset[str]
    """The names an alias is, through unions and constraints alone (a cycle of them is pure); for a model,
    the names the types of its fields with a plain default are so (the enums such a default may be
    written with are found through them)."""
    literal: bool = False
    """An alias of a ``Literal``: an enum class a plain default may be a member of."""


class Placement(Frozen, frozen=True):
    """Where ``decide`` puts the declarations, and what it cuts."""

    order: tuple[str, ...]
    cut: Mapping[str, frozenset[str]] = field(default_factory=dict)
    """The declarations whose reference back into a cycle is cut, in the order they were cut, each with
    the names then waiting."""
    cycle: tuple[str, ...] = ()
    """Aliases that are each other (an error): nothing is cut then."""
    waiting: tuple[str, ...] = ()
    """With ``cycle``: the declarations left waiting, each reported."""


def order(module: ir.Module, reporter: Reporter) -> ir.Module:
    return placed(module, decide([summary(d) for d in canonical(module)]), reporter)


def canonical(module: ir.Module) -> list[ir.Declaration]:
    """By name (case aside, then as written)."""
    return sorted(module.declarations, key=lambda d: (d.name.casefold(), d.name))


def summary(d: ir.Declaration) -> Summary:
    if isinstance(d, ir.Alias):
        return Summary(d.name, True, frozenset(refs(d.type)), frozenset(_bare_refs(d.type)), isinstance(d.type, ir.Literal))
    plain = (f.type for f in d.fields if f.default is not None and not isinstance(f.default.value, (list, dict)))
    return Summary(d.name, False, frozenset(), frozenset(n for t in plain for n in _bare_refs(t)))


def decide(summaries: Sequence[Summary]) -> Placement:
    """The order of the declarations ``summaries`` describe, in the canonical order: each placed as soon
    as all it needs at import is; then the cycles cut, an alias first."""
    aliases = {s.name: s for s in summaries if s.alias}
    queue = _Queue()
    for s in summaries:
        queue.add(s.name, s.alias, _needs(s, aliases))
    if not queue.waiting:
        return Placement(tuple(queue.placed))
    # Cutting only removes references, so a pure cycle not there now never appears later.
    pure = _pure_cycle([aliases[n] for n in queue.waiting.values() if n in aliases], set(queue.stuck))
    if pure:
        return Placement(tuple(queue.placed) + tuple(queue.waiting.values()), cycle=tuple(pure),
                         waiting=tuple(queue.waiting.values()))
    cut: dict[str, frozenset[str]] = {}
    while queue.waiting:
        position = queue.first_alias()
        name = queue.waiting[position]
        stuck = cut[name] = frozenset(queue.stuck)
        queue.replace(position, name, set(aliases[name].refers - stuck) if name in aliases else set())
    return Placement(tuple(queue.placed), cut)


def placed(module: ir.Module, placement: Placement, reporter: Reporter) -> ir.Module:
    """``module`` in ``placement``'s order, the references back into cycles cut (a declaration reads its
    own entry of ``placement.cut`` alone); the cuts warned of, a pure cycle's declarations reported."""
    by_name = {d.name: d for d in module.declarations}
    if placement.cycle:
        for name in placement.waiting:
            reporter.error(location(by_name[name]), f"type aliases that are each other, in a cycle: "
                           f"{', '.join(placement.cycle)}", "such a type has no values; make one of them an object or a list")
    for name, stuck in placement.cut.items():
        if name in by_name:
            by_name[name] = cut(by_name[name], stuck, reporter)
    return ir.Module(tuple(by_name[name] for name in placement.order if name in by_name), module.root)


class _Queue:
    """Names in the canonical order, each placed as soon as all it needs is placed.

    Each addition places, round after round, what became ready (within a round, in the order
    the declarations came); a count of missing needs per declaration keeps this linear.
    """

    def __init__(self) -> None:
        self.placed: dict[str, None] = {}
        self.waiting: dict[int, str] = {}
        """By position (the order declarations came in), those not placed yet."""
        self.stuck: set[str] = set()
        """The names of the waiting declarations."""
        self.needs: dict[int, set[str]] = {}
        self.missing: dict[int, int] = {}
        self.dependents: dict[str, set[int]] = {}
        self.waiting_aliases: list[int] = []
        """A heap of the positions of waiting aliases (some since placed: skipped when met)."""

    def add(self, name: str, alias: bool, needs: set[str]) -> None:
        position = len(self.needs)
        if alias:
            heapq.heappush(self.waiting_aliases, position)
        self.replace(position, name, needs)

    def replace(self, position: int, name: str, needs: set[str]) -> None:
        """Set (or reset) what the declaration at ``position`` needs, then place all that became ready."""
        self.waiting[position] = name
        self.stuck.add(name)
        self.needs[position] = needs
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
        name = self.waiting.pop(position)
        self.stuck.discard(name)
        if name in self.placed:
            return []
        self.placed[name] = None
        ready = []
        for p in self.dependents.pop(name, ()):
            if p in self.waiting and name in self.needs[p]:
                self.missing[p] -= 1
                if self.missing[p] == 0:
                    ready.append(p)
        return ready

    def first_alias(self) -> int:
        """The first waiting alias, else the first waiting declaration."""
        while self.waiting_aliases and self.waiting_aliases[0] not in self.waiting:
            heapq.heappop(self.waiting_aliases)
        return self.waiting_aliases[0] if self.waiting_aliases else next(iter(self.waiting))


def _needs(s: Summary, aliases: Mapping[str, Summary]) -> set[str]:
    """What a declaration needs at import: an alias, everything it names; a model, the enums a plain
    default of it may be written with."""
    if s.alias:
        return set(s.refers)
    return {name for name in _enum_candidates(s.bare, aliases) if name != s.name}


def _enum_candidates(names: Iterable[str], aliases: Mapping[str, Summary]) -> set[str]:
    """The aliases a plain default of a type that is ``names`` can be written with: those of a
    ``Literal`` (with ``enums = "class"`` the default is a member of that class), found through unions,
    constraints and other aliases, whose names a default does not mention (``True`` for ``X | list[X]``)."""
    found: set[str] = set()
    seen: set[str] = set()
    pending = list(names)
    while pending:
        name = pending.pop()
        if name in aliases and name not in seen:
            seen.add(name)
            if aliases[name].literal:
                found.add(name)
            else:
                pending.extend(aliases[name].bare)
    return found


def _pure_cycle(waiting: list[Summary], stuck: set[str]) -> list[str]:
    """Aliases that name each other with no list, map or class in between (``A = B``, ``B = A | None``)."""
    edges = {s.name: s.bare & stuck for s in waiting}
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


def cut(d: ir.Declaration, stuck: frozenset[str], reporter: Reporter) -> ir.Declaration:
    """``d`` with its references to ``stuck`` (a cycle's) typed as ``Any``, reported (``Placement.cut``)."""
    names = few(sorted(stuck))
    reporter.warn(location(d), f"type aliases that refer to each other in a cycle ({names}): "
                  f"in {d.name}, the reference back into the cycle is typed as Any",
                  "make one of them an object type to keep the precise type", kind="alias cycle")

    def widen(t: ir.Type) -> ir.Type:
        return ir.AnyType() if isinstance(t, ir.Ref) and t.module is None and t.name in stuck else t

    if isinstance(d, ir.Alias):
        return replace(d, type=map_types(d.type, widen))
    return replace(d, fields=tuple(replace(f, default=None) if f.default is not None else f for f in d.fields))
