"""Tagged unions: find the property that tells the model members of a union apart.

A union of two or more models is tagged when every member has a distinct one-value literal
(``const`` or a one-value ``enum``) on the same property: the one the schema names
(``Union.tag_field``) or else the first such property of the first member. A union of models
with no such property is reported: a backend that needs a tag must fall back. So is a union that
gives its members other tags than an earlier union gave them: a model has one tag, so they get none.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from .. import ir
from ..diagnostics import Location, Reporter, few
from ..frozen import replace
from ..ir.walk import LEAVES, types
from .where import location


class UnionSummary(NamedTuple):
    """What ``decide`` reads of a union: where it was written, the property the schema names its tag
    (``Union.tag_field``), the tags it gives (``Union.tags``), the names its members refer to."""

    where: Location
    field: str | None
    tags: tuple[tuple[str, str], ...]
    referred: tuple[str, ...]


class Summary(NamedTuple):
    """What ``decide`` reads of one declaration (``summary``)."""

    name: str
    unions: tuple[UnionSummary, ...]
    """The unions in its types."""
    keys: tuple[str, ...] | None
    """A model's property keys, in order; ``None`` for an alias."""
    constants: tuple[tuple[str, str | int], ...]
    """A model's one-value literals (a string or an integer), by key."""
    union_of: tuple[str, ...] | None
    """An alias of a union: the names its members refer to (``decide`` looks through it)."""


def tag(module: ir.Module, reporter: Reporter) -> ir.Module:
    return tagged(module, decide([summary(d) for d in module.declarations], reporter))


def summary(d: ir.Declaration) -> Summary:
    unions = tuple(UnionSummary(where, u.tag_field, u.tags, _referred(u)) for where, u in _unions(d))
    if isinstance(d, ir.Alias):
        return Summary(d.name, unions, None, (), _referred(d.type) if isinstance(d.type, ir.Union) else None)
    constants: dict[str, str | int] = {}
    for f in d.fields:
        if isinstance(f.type, ir.Literal) and len(f.type.values) == 1:
            value = f.type.values[0]
            if isinstance(value, (str, int)) and not isinstance(value, bool):
                constants.setdefault(f.wire_name, value)
    return Summary(d.name, unions, tuple(f.wire_name for f in d.fields), tuple(constants.items()), None)


def decide(summaries: Sequence[Summary], reporter: Reporter) -> dict[str, ir.Tag | None]:
    """Each model's tag (``None``: unions gave it different ones), over the declarations' summaries in
    the module's order; the unions that cannot be tagged, and the tags that clash, reported."""
    by_name = {s.name: s for s in summaries}
    tags: dict[str, ir.Tag | None] = {}
    first: dict[str, tuple[ir.Tag, Location]] = {}  # each model's tag, and the union that gave it first
    for s in summaries:
        for where, field, given, referred in s.unions:
            members = list(_models(referred, by_name).values())
            if len(members) < 2:
                continue
            found = _tags(members, field, dict(given))
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
    return tags


def members(summaries: Sequence[Summary]) -> frozenset[str]:
    """The names ``decide`` may read as a union's members, over ``summaries``: the keys and constants of a model
    of none of them are read by no union."""
    return frozenset(name for s in summaries
                     for name in (*(r for u in s.unions for r in u.referred), *(s.union_of or ())))


def alike(now: Summary, then: Summary | None, read: frozenset[str]) -> bool:
    """``decide`` decides as it did with ``then`` now ``now`` (``read``: the ``members`` it was given): the same
    summary, or the same unions of a declaration no union reads as a member."""
    return now == then or (then is not None and now.name == then.name and now.name not in read
                           and now.unions == then.unions and now.union_of == then.union_of)


def tagged(module: ir.Module, tags: Mapping[str, ir.Tag | None]) -> ir.Module:
    """``module`` with each model tagged as ``tags`` says (a model reads its own entry alone)."""
    return ir.Module(tuple(_with_tag(d, tags[d.name]) if isinstance(d, ir.Model) and tags.get(d.name) else d
                           for d in module.declarations), module.root)


def _referred(union: ir.Union) -> tuple[str, ...]:
    return tuple(m.name for m in union.members if isinstance(m, ir.Ref))


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


def _models(referred: Sequence[str], by_name: Mapping[str, Summary], seen: frozenset[str] = frozenset()
            ) -> dict[str, Summary]:
    """The models among the declarations ``referred`` names, looking through aliases of unions."""
    found: dict[str, Summary] = {}
    for name in referred:
        target = by_name.get(name)
        if target is None:
            continue
        if target.keys is not None:
            found[target.name] = target
        elif target.union_of is not None and target.name not in seen:
            found.update(_models(target.union_of, by_name, seen | {target.name}))
    return found


def _tags(members: list[Summary], field: str | None, given: dict[str, str]) -> list[ir.Tag] | None:
    candidates = [field] if field else list(members[0].keys or ())
    for wire in candidates:
        values = [given.get(m.name) or dict(m.constants).get(wire) for m in members]
        same_kind = len({type(v) for v in values}) == 1  # msgspec: tags are all strings or all integers
        if all(v is not None for v in values) and len(set(values)) == len(values) and same_kind:
            return [ir.Tag(wire, v) for v in values if v is not None]
    return None
