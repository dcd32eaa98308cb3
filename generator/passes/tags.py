"""Tagged unions: find the property that tells the model members of a union apart.

A union of two or more models is tagged when every member has a distinct one-value literal
(``const`` or a one-value ``enum``) on the same property: the one the schema names
(``Union.tag_field``) or else the first such property of the first member. A union of models
with no such property is reported: a backend that needs a tag must fall back. So is a union that
gives its members other tags than an earlier union gave them: a model has one tag, so they get none.
"""

from __future__ import annotations

from dataclasses import replace

from .. import ir
from ..diagnostics import Location, Reporter, few
from ..ir.walk import LEAVES, types
from .where import location


def tag(module: ir.Module, reporter: Reporter) -> ir.Module:
    declarations = {d.name: d for d in module.declarations}
    tags: dict[str, ir.Tag | None] = {}
    first: dict[str, tuple[ir.Tag, Location]] = {}  # each model's tag, and the union that gave it first
    for d in module.declarations:
        for where, t in _unions(d):
            members = list(_models(t, declarations).values())
            if len(members) < 2:
                continue
            found = _tags(members, t.tag_field, dict(t.tags))
            if found is None:
                names = few([m.name for m in members], " | ")
                reporter.warn(where, f"no property tells the object types {names} apart "
                              "(no discriminator, no distinct const); the msgspec variant decodes them as a plain object",
                              kind="untagged union")
                continue
            clashes = []
            for model, value in zip(members, found):
                earlier, there = first.setdefault(model.name, (value, where))
                if earlier != value:
                    tags[model.name] = None
                    clashes.append((model.name, earlier, value, there))
                else:
                    tags.setdefault(model.name, value)
            if clashes:
                _clash(reporter, where, clashes)
    tagged = tuple(
        _with_tag(d, tags[d.name]) if isinstance(d, ir.Model) and tags.get(d.name) else d
        for d in module.declarations
    )
    return ir.Module(tagged, module.root)


def _clash(reporter: Reporter, where: Location, clashes: list[tuple[str, ir.Tag, ir.Tag, Location]]) -> None:
    """Tags that contradict those another union gave the same models: a Struct has one tag, so these
    models get none, and every union of them is decoded as a plain object by msgspec."""
    fields = len({t.field for _, old, new, _ in clashes for t in (old, new)}) > 1
    now = few([f"{name} as {_said(new, fields)}" for name, _, new, _ in clashes], " and ")
    then = few([_said(old, fields) for _, old, _, _ in clashes], " and ")
    there = clashes[0][3]
    other = f"#{there.pointer}" if there.path == where.path else f"{there.path}#{there.pointer}"
    reporter.warn(where, f"tags {now}, where {other} tags them {then}; a class has one tag, "
                  "so the msgspec variant decodes both unions as a plain object", kind="tag conflict")


def _said(t: ir.Tag, field: bool) -> str:
    return f"{t.field}={t.value!r}" if field else repr(t.value)


def _unions(d: ir.Declaration) -> list[tuple[Location, ir.Union]]:
    """The unions in ``d``'s types, each with where it was written: the alias, or the model's property."""
    if isinstance(d, ir.Alias):
        return [(location(d), u) for u in types(d.type) if isinstance(u, ir.Union)]
    found: list[tuple[Location, ir.Union]] = []
    for f in d.fields:  # (a place only for a property that holds a union: most hold none)
        unions = [u for u in types(f.type) if isinstance(u, ir.Union)] if not isinstance(f.type, LEAVES) else []
        if unions:
            where = location(d, "properties", f.wire_name)
            found.extend((where, u) for u in unions)
    return found


def _with_tag(model: ir.Model, tag: ir.Tag | None) -> ir.Model:
    """The model with its tag; a tag property typed only ``str`` becomes ``Literal[tag]`` (the
    discriminator says so), so that a type checker can narrow the union on it."""
    fields = tuple(
        replace(f, type=ir.Literal((tag.value,))) if tag and f.wire_name == tag.field and _plain_string(f.type) else f
        for f in model.fields
    )
    return replace(model, tag=tag, fields=fields)


def _plain_string(t: ir.Type) -> bool:
    bare = t.type if isinstance(t, ir.Constrained) else t
    return bare == ir.Scalar("str")


def _models(t: ir.Union, declarations: dict[str, ir.Declaration], seen: frozenset[str] = frozenset()) -> dict[str, ir.Model]:
    """The models among the members of ``t``, looking through aliases of unions."""
    found: dict[str, ir.Model] = {}
    for member in t.members:
        target = declarations.get(member.name) if isinstance(member, ir.Ref) else None
        if isinstance(target, ir.Model):
            found[target.name] = target
        elif isinstance(target, ir.Alias) and isinstance(target.type, ir.Union) and target.name not in seen:
            found.update(_models(target.type, declarations, seen | {target.name}))
    return found


def _tags(members: list[ir.Model], field: str | None, given: dict[str, str]) -> list[ir.Tag] | None:
    candidates = [field] if field else [f.wire_name for f in members[0].fields]
    for wire in candidates:
        values = [given.get(m.name) or _constant(m, wire) for m in members]
        same_kind = len({type(v) for v in values}) == 1  # msgspec: tags are all strings or all integers
        if all(v is not None for v in values) and len(set(values)) == len(values) and same_kind:
            return [ir.Tag(wire, v) for v in values if v is not None]
    return None


def _constant(model: ir.Model, wire: str) -> str | int | None:
    for f in model.fields:
        if f.wire_name == wire and isinstance(f.type, ir.Literal) and len(f.type.values) == 1:
            value = f.type.values[0]
            if isinstance(value, (str, int)) and not isinstance(value, bool):
                return value
    return None
