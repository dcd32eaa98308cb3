"""Small helpers for reading and rewriting IR types."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping

from ..frozen import replace
from . import nodes as ir


def children(t: ir.Type) -> tuple[ir.Type, ...]:
    """The types directly inside ``t``."""
    # (isinstance in turn, not ``match``: the passes ask this of every type they walk)
    if isinstance(t, LEAVES):
        return ()
    if isinstance(t, ir.Union | ir.Tuple):
        return t.members if isinstance(t, ir.Union) else t.items
    if isinstance(t, ir.Array):
        return (t.item,)
    if isinstance(t, ir.Map):
        return (t.value,)
    if isinstance(t, ir.Constrained):
        return (t.type,)
    return ()


LEAVES = (ir.Scalar, ir.Ref, ir.Literal, ir.Null, ir.AnyType)
"""The types with no type inside them."""


def rebuild(t: ir.Type, kids: tuple[ir.Type, ...]) -> ir.Type:
    """``t`` with its direct children replaced by ``kids`` (as returned by ``children``)."""
    match t:
        case ir.Array():
            return ir.Array(kids[0])
        case ir.Map():
            return ir.Map(kids[0])
        case ir.Constrained():
            return replace(t, type=kids[0])
        case ir.Tuple():
            return ir.Tuple(kids)
        case ir.Union():
            return replace(t, members=kids)
    return t


def nesting(t: ir.Type) -> int:
    """How many types ``t``'s annotation writes inside each other (``list[int | None]``: 2)."""
    kids = children(t)
    return 1 + max(map(nesting, kids)) if kids else 0


def types(*roots: ir.Type) -> Iterator[ir.Type]:
    """Each of ``roots`` in turn and every type nested in it, outside in (a declaration's types: one walk)."""
    stack = list(reversed(roots))
    while stack:
        t = stack.pop()
        yield t
        if not isinstance(t, LEAVES):  # (most types are leaves: they are not asked for children)
            kids = children(t)
            if kids:
                stack.extend(reversed(kids))


def refs(*roots: ir.Type) -> Iterator[str]:
    """The names of this module's declarations that ``roots`` mention (not those of other inputs)."""
    return (n.name for n in types(*roots) if isinstance(n, ir.Ref) and n.module is None)


def map_types(t: ir.Type, change: Callable[[ir.Type], ir.Type]) -> ir.Type:
    """Rebuild ``t`` bottom-up, passing every node through ``change`` (a node whose children come back
    as they were is passed as it is)."""
    kids = children(t)
    if kids:
        changed = tuple(map_types(k, change) for k in kids)
        if any(new is not old for new, old in zip(changed, kids)):
            t = rebuild(t, changed)
    return change(t)


def map_refs(t: ir.Type, rename: Callable[[str], str]) -> ir.Type:
    def change(n: ir.Type) -> ir.Type:
        if isinstance(n, ir.Ref) and n.module is None:
            return ir.Ref(rename(n.name))
        if isinstance(n, ir.Union) and n.tags:
            return replace(n, tags=tuple((rename(member), value) for member, value in n.tags))
        return n

    return map_types(t, change)


def top_types(d: ir.Declaration) -> tuple[ir.Type, ...]:
    """The alias's type, or the type of each field of the model."""
    return (d.type,) if isinstance(d, ir.Alias) else tuple([f.type for f in d.fields])


def declaration_refs(d: ir.Declaration) -> Iterator[str]:
    return refs(*top_types(d))


def mentions(d: ir.Declaration) -> Iterator[str]:
    """The names ``d``'s types mention: as a reference (to a declaration of this module), or as a member a
    union's tags name."""
    for n in types(*top_types(d)):
        if isinstance(n, ir.Ref):
            if n.module is None:
                yield n.name
        elif isinstance(n, ir.Union):
            yield from (member for member, _ in n.tags)


def reached(roots: Iterable[str], refers: Callable[[str], Iterable[str] | None]) -> set[str]:
    """The names ``roots`` name, and those they refer to, directly or not: ``refers`` says what a name
    refers to, ``None`` for a name that is no node of the graph (left out)."""
    kept: set[str] = set()
    pending = list(roots)
    while pending:
        name = pending.pop()
        if name not in kept and (targets := refers(name)) is not None:
            kept.add(name)
            pending.extend(targets)
    return kept


def reachable(module: ir.Module, roots: Iterable[str]) -> ir.Module:
    """``module`` with only the declarations named in ``roots`` and those they refer to, directly or
    not, in their order."""
    by_name = {d.name: d for d in module.declarations}
    kept = reached(roots, lambda name: declaration_refs(by_name[name]) if name in by_name else None)
    if len(kept) == len(by_name):
        return module
    return ir.Module(tuple(d for d in module.declarations if d.name in kept), module.root)


def all_types(module: ir.Module) -> Iterator[ir.Type]:
    for d in module.declarations:
        yield from types(*top_types(d))


def map_declaration_types(d: ir.Declaration, change: Callable[[ir.Type], ir.Type]) -> ir.Declaration:
    if isinstance(d, ir.Alias):
        return replace(d, type=change(d.type))
    return replace(d, fields=tuple(replace(f, type=change(f.type)) for f in d.fields))


def rename_all(module: ir.Module, renamed: Mapping[str, str]) -> ir.Module:
    """``module`` with the declarations ``renamed`` names renamed, and every reference to them (a
    declaration that neither is one nor names one stays the same object)."""
    changed = {old for old, new in renamed.items() if old != new}
    if not changed:
        return module

    def rename(name: str) -> str:
        return renamed.get(name, name)

    declarations = tuple(
        replace(map_declaration_types(d, lambda t: map_refs(t, rename)), name=rename(d.name))
        if d.name in changed or _names_any(d, changed) else d
        for d in module.declarations
    )
    return ir.Module(declarations, rename(module.root) if module.root else None)


def _names_any(d: ir.Declaration, names: set[str]) -> bool:
    """``d``'s types mention one of ``names`` (``mentions``)."""
    return any(n in names for n in mentions(d))

