"""Tagged unions: find the property that tells the model members of a union apart.

A union of two or more models is tagged when every member has a distinct one-value
literal (``const`` or a one-value ``enum``) on the same property: the one the schema names
(``discriminator.propertyName``) or else the first such property of the first member.
"""

from __future__ import annotations

from dataclasses import replace

from .. import ir
from .walk import all_types


def tag(module: ir.Module) -> ir.Module:
    models = {d.name: d for d in module.declarations if isinstance(d, ir.Model)}
    tags: dict[str, ir.Tag | None] = {}
    for t in all_types(module):
        if not isinstance(t, ir.Union):
            continue
        members = [models[m.name] for m in t.members if isinstance(m, ir.Ref) and m.name in models]
        if len(members) < 2:
            continue
        for model, found in zip(members, _tags(members, t.tag_field) or [None] * len(members)):
            if found is None or tags.get(model.name, found) != found:
                tags[model.name] = None  # untaggable here, or tagged differently elsewhere
            else:
                tags[model.name] = found
    declarations = tuple(
        replace(d, tag=tags[d.name]) if isinstance(d, ir.Model) and tags.get(d.name) else d
        for d in module.declarations
    )
    return ir.Module(declarations, module.root)


def _tags(members: list[ir.Model], field: str | None) -> list[ir.Tag] | None:
    candidates = [field] if field else [f.wire_name for f in members[0].fields]
    for wire in candidates:
        values = [_constant(m, wire) for m in members]
        if all(v is not None for v in values) and len(set(values)) == len(values):
            return [ir.Tag(wire, v) for v in values if v is not None]
    return None


def _constant(model: ir.Model, wire: str) -> str | int | None:
    for f in model.fields:
        if f.wire_name == wire and isinstance(f.type, ir.Literal) and len(f.type.values) == 1:
            value = f.type.values[0]
            if isinstance(value, (str, int)) and not isinstance(value, bool):
                return value
    return None
