"""Small helpers for reading and rewriting IR types."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace

from .. import ir


def refs(t: ir.Type) -> Iterator[str]:
    """The declaration names ``t`` mentions."""
    match t:
        case ir.Ref(name):
            yield name
        case ir.Array(item):
            yield from refs(item)
        case ir.Map(value):
            yield from refs(value)
        case ir.Union(members):
            for m in members:
                yield from refs(m)


def top_types(d: ir.Declaration) -> Iterator[ir.Type]:
    """The alias's type, or the type of each field of the model."""
    if isinstance(d, ir.Alias):
        yield d.type
    else:
        yield from (f.type for f in d.fields)


def declaration_refs(d: ir.Declaration) -> Iterator[str]:
    for t in top_types(d):
        yield from refs(t)


def map_refs(t: ir.Type, rename: Callable[[str], str]) -> ir.Type:
    match t:
        case ir.Ref(name):
            return ir.Ref(rename(name))
        case ir.Array(item):
            return ir.Array(map_refs(item, rename))
        case ir.Map(value):
            return ir.Map(map_refs(value, rename))
        case ir.Union(members, tag_field):
            return ir.Union(tuple(map_refs(m, rename) for m in members), tag_field)
    return t


def types(t: ir.Type) -> Iterator[ir.Type]:
    """``t`` and every type nested in it."""
    yield t
    match t:
        case ir.Array(item):
            yield from types(item)
        case ir.Map(value):
            yield from types(value)
        case ir.Union(members):
            for m in members:
                yield from types(m)


def all_types(module: ir.Module) -> Iterator[ir.Type]:
    for d in module.declarations:
        for t in top_types(d):
            yield from types(t)


def rename_all(module: ir.Module, rename: Callable[[str], str]) -> ir.Module:
    declarations: list[ir.Declaration] = []
    for d in module.declarations:
        if isinstance(d, ir.Alias):
            declarations.append(replace(d, name=rename(d.name), type=map_refs(d.type, rename)))
        else:
            fields = tuple(replace(f, type=map_refs(f.type, rename)) for f in d.fields)
            declarations.append(replace(d, name=rename(d.name), fields=fields))
    root = rename(module.root) if module.root else None
    return ir.Module(tuple(declarations), root)
