"""What a schema update means for code using the generated models: a comparison of two IRs.

``compare(package, old, new)`` is a pure function of two ``ir.Module`` values. Each difference
is a ``Change`` at a place (``package.Declaration`` or ``package.Declaration.field``) with a
severity:

- ``breaking``: code that type-checked and ran against the old models may fail against the new
  ones (something removed, renamed, narrowed, made required, nullable or not, or re-defaulted);
- ``compatible``: only additions and loosenings (a declaration, an optional field, an enum value,
  a union member; a limit relaxed or dropped);
- ``docs``: descriptions only.

Union members and enum values are compared as sets: their order is not a change.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, TypeAlias

from .. import ir
from ..frozen import fields
from ..ir.walk import rename_all
from ..render.annotations import spelled as describe

Severity = Literal["breaking", "compatible", "docs"]
SEVERITIES: tuple[Severity, ...] = ("breaking", "compatible", "docs")

#: Limits where a larger value admits fewer values, and the reverse.
LOWER_BOUNDS = ("min_length", "ge", "gt")
UPPER_BOUNDS = ("max_length", "le", "lt")


@dataclass(frozen=True, slots=True)
class Change:
    severity: Severity
    where: str
    """``package.Declaration`` or ``package.Declaration.field`` (the field's Python name)."""
    what: str

    @property
    def breaking(self) -> bool:
        return self.severity == "breaking"


def compare_all(old: Mapping[str, ir.Module], new: Mapping[str, ir.Module]) -> list[Change]:
    """Every package's changes, in the order of ``ordered``: all breaking ones first, whatever their
    package; an input on one side only counts as empty on the other."""
    empty = ir.Module(())
    return ordered([change for package in sorted(set(old) | set(new))
                    for change in compare(package, old.get(package, empty), new.get(package, empty))])


def ordered(found: list[Change]) -> list[Change]:
    """Breaking, then compatible, then docs; within a kind by place (``package.Declaration.field``),
    and changes at one place as they were found."""
    rank = {s: i for i, s in enumerate(SEVERITIES)}
    return sorted(found, key=lambda c: (rank[c.severity], c.where))


def compare(package: str, old: ir.Module, new: ir.Module) -> list[Change]:
    """The changes from ``old`` to ``new`` (one output package): breaking first, then compatible, then docs.

    A declaration of the same place of a schema (its ``origin``) under another name is renamed: the
    change says both names, and what else changed in it is said under the new one."""
    renamed = _renamed(old, new)
    before = {d.name: d for d in rename_all(old, renamed).declarations}
    after = {d.name: d for d in new.declarations}
    found = [Change("breaking", f"{package}.{was}", f"{_kind(after[now])} renamed to {now}") for was, now in renamed.items()]
    for name in [*before, *(n for n in after if n not in before)]:
        where = f"{package}.{name}"
        a, b = before.get(name), after.get(name)
        if b is None:
            found.append(Change("breaking", where, f"{_kind(a)} removed"))
        elif a is None:
            found.append(Change("compatible", where, f"{_kind(b)} added"))
        else:
            found.extend(_declaration(where, a, b))
    return ordered(found)


def _renamed(old: ir.Module, new: ir.Module) -> dict[str, str]:
    """Old name → new name of each declaration whose place only one declaration on each side has,
    under a name the other side does not have."""
    names = ({d.name for d in old.declarations}, {d.name for d in new.declarations})
    places: list[dict[tuple[str, str], list[str]]] = [{}, {}]
    for side, module in enumerate((old, new)):
        for d in module.declarations:
            if d.origin is not None and d.name not in names[1 - side]:
                places[side].setdefault((d.origin.path, d.origin.pointer), []).append(d.name)
    return {was[0]: places[1][place][0] for place, was in places[0].items()
            if len(was) == 1 and len(places[1].get(place, ())) == 1}


def _kind(d: ir.Declaration | None) -> str:
    return "model" if isinstance(d, ir.Model) else "alias"


def _declaration(where: str, a: ir.Declaration, b: ir.Declaration) -> Iterator[Change]:
    if isinstance(a, ir.Model) and isinstance(b, ir.Model):
        yield from _model(where, a, b)
    elif isinstance(a, ir.Alias) and isinstance(b, ir.Alias):
        yield from _type(where, "", a.type, b.type)
    else:
        yield Change("breaking", where, f"changed from {_kind(a)} to {_kind(b)}")
    yield from _doc(where, a.doc, b.doc)


def _model(where: str, a: ir.Model, b: ir.Model) -> Iterator[Change]:
    if a.closed != b.closed:
        yield (Change("breaking", where, "now forbids unknown fields") if b.closed
               else Change("compatible", where, "now allows unknown fields"))
    if a.tag != b.tag:
        yield Change("breaking", where, _changed("tag", _tag(a.tag), _tag(b.tag)))
    before = {f.wire_name: f for f in a.fields}
    after = {f.wire_name: f for f in b.fields}
    for wire, f in before.items():
        if wire not in after:
            yield Change("breaking", f"{where}.{f.name}", "field removed")
        else:
            yield from _field(f"{where}.{f.name}", f, after[wire])
    for wire, f in after.items():
        if wire not in before:
            yield (Change("breaking", f"{where}.{f.name}", "required field added") if f.required
                   else Change("compatible", f"{where}.{f.name}", "field added"))


def _tag(tag: ir.Tag | None) -> str | None:
    return None if tag is None else f"{tag.field}={tag.value!r}"


def _field(where: str, a: ir.Field, b: ir.Field) -> Iterator[Change]:
    if a.name != b.name:
        yield Change("breaking", where, f"renamed to {b.name!r} (wire name {a.wire_name!r})")
    if a.required != b.required:
        yield Change("breaking", where, "became required" if b.required else "no longer required")
    yield from _type(where, "", a.type, b.type)
    if _json(a.default) != _json(b.default):
        was, now = (None if d is None else repr(d.value) for d in (a.default, b.default))
        yield Change("breaking", where, _changed("default", was, now))
    yield from _doc(where, a.doc, b.doc)


def _json(default: ir.Default | None) -> str | None:
    """A default as canonical JSON: ``1`` is not ``true``, and key order is no change."""
    return None if default is None else json.dumps(default.value, sort_keys=True)


def _changed(what: str, old: str | None, new: str | None) -> str:
    if old is None:
        return f"{what} {new} added"
    if new is None:
        return f"{what} {old} removed"
    return f"{what} changed from {old} to {new}"


def _doc(where: str, old: str | None, new: str | None) -> Iterator[Change]:
    old, new = old or None, new or None
    if old != new:
        what = "description added" if not old else "description removed" if not new else "description changed"
        yield Change("docs", where, what)


# Types ---------------------------------------------------------------------------------------

Key: TypeAlias = tuple[object, ...]
_TYPES = (ir.Scalar, ir.AnyType, ir.Null, ir.Ref, ir.Array, ir.Map, ir.Tuple, ir.Constrained, ir.Union, ir.Literal)


def _type(where: str, part: str, a: ir.Type, b: ir.Type) -> Iterator[Change]:
    """The changes from type ``a`` to ``b``; ``part`` (``"items: "``…) says where inside the type."""
    old, old_null = _members(a)
    new, new_null = _members(b)
    if old_null != new_null:
        yield Change("breaking", where, part + ("became nullable" if new_null else "no longer nullable"))
    before, after = _keyed(old, new), _keyed(new, old)
    only_old = [k for k in before if k not in after]
    only_new = [k for k in after if k not in before]
    for k in [k for k in only_old if len(k) > 1 and isinstance(k[-1], _TYPES)]:
        # a kind seen twice (`list[str] | list[A]`): the one member of its kind left on each side changed inside
        same = [n for n in only_new if n[:-1] == k[:-1]]
        if [o for o in only_old if o[:-1] == k[:-1]] == [k] and len(same) == 1:
            only_old.remove(k)
            only_new.remove(same[0])
            yield from _member(where, part, before[k], after[same[0]])
    if len(before) == len(after) == 1 and only_old and only_new:
        was, now = describe(before[only_old[0]]), describe(after[only_new[0]])
        yield Change("breaking", where, f"{part}type changed from {was} to {now}")
        return
    for key in only_old:
        yield Change("breaking", where, f"{part}union member {describe(before[key])} removed")
    for key in only_new:
        yield Change("compatible", where, f"{part}union member {describe(after[key])} added")
    for key in before:
        if key in after:
            yield from _member(where, part, before[key], after[key])


def _members(t: ir.Type) -> tuple[list[ir.Type], bool]:
    """The union members of ``t`` but null, all literals as one (an enum); and whether null is one."""
    nullable = False
    values: list[ir.LiteralValue] = []
    others: list[ir.Type] = []
    for m in t.members if isinstance(t, ir.Union) else (t,):
        if isinstance(m, ir.Null):
            nullable = True
        elif isinstance(m, ir.Literal):
            values.extend(v for v in m.values if not _has(values, v))
        else:
            others.append(m)
    return ([ir.Literal(tuple(values))] if values else []) + others, nullable


def _keyed(members: list[ir.Type], other: list[ir.Type]) -> dict[Key, ir.Type]:
    """``members`` by what kind of type they are, so that a member that changed inside is met
    by its new self; a kind seen twice on either side (``list[str] | list[int]``) is told apart
    by its whole type."""
    mine, theirs = [_key(m) for m in members], [_key(m) for m in other]
    twice = {k for k in mine + theirs if mine.count(k) > 1 or theirs.count(k) > 1}
    return {(*k, m) if k in twice else k: m for k, m in zip(mine, members)}


def _key(t: ir.Type) -> Key:
    match t:
        case ir.Constrained(inner):
            return _key(inner)
        case ir.Scalar(kind, fmt):
            return ("scalar", kind, fmt)
        case ir.Ref():
            return ("ref", t.module, t.name)
        case ir.Tuple(items):
            return ("tuple", len(items))
        case ir.Literal():
            return ("literal",)
        case _:
            return (type(t).__name__,)


def _member(where: str, part: str, a: ir.Type, b: ir.Type) -> Iterator[Change]:
    """Two members of the same kind: enum values, limits, and what they hold."""
    if isinstance(a, ir.Literal) and isinstance(b, ir.Literal):
        for v in a.values:
            if not _has(b.values, v):
                yield Change("breaking", where, f"{part}enum value {v!r} removed")
        for v in b.values:
            if not _has(a.values, v):
                yield Change("compatible", where, f"{part}enum value {v!r} added")
        return
    yield from _constraints(where, part, _limits(a), _limits(b))
    a, b = _bare(a), _bare(b)
    match a, b:
        case ir.Array(x), ir.Array(y):
            yield from _type(where, part + "items: ", x, y)
        case ir.Map(x), ir.Map(y):
            yield from _type(where, part + "values: ", x, y)
        case ir.Tuple(xs), ir.Tuple(ys):
            for i, (x, y) in enumerate(zip(xs, ys)):
                yield from _type(where, f"{part}item {i}: ", x, y)
        case _ if a != b:  # the same key, yet different: not expected, but never silent
            yield Change("breaking", where, f"{part}type changed from {describe(a)} to {describe(b)}")


def _has(values: Sequence[ir.LiteralValue], value: ir.LiteralValue) -> bool:
    """``value`` is one of ``values``, where ``1`` is not ``True``."""
    return any(type(v) is type(value) and v == value for v in values)


def _limits(t: ir.Type) -> ir.Constraints:
    return t.constraints if isinstance(t, ir.Constrained) else ir.Constraints()


def _bare(t: ir.Type) -> ir.Type:
    return t.type if isinstance(t, ir.Constrained) else t


def _constraints(where: str, part: str, a: ir.Constraints, b: ir.Constraints) -> Iterator[Change]:
    """Each limit tightened (breaking) or loosened (compatible)."""
    for f in fields(ir.Constraints):
        name = f.name
        x, y = getattr(a, name), getattr(b, name)
        if x == y:
            continue
        if name == "unique_items":
            yield Change("breaking" if y else "compatible", where, f"{part}unique_items {'added' if y else 'removed'}")
        elif x is None or y is None:
            yield Change("compatible" if y is None else "breaking", where,
                         f"{part}{name} {x if y is None else y!r} {'removed' if y is None else 'added'}")
        elif name in LOWER_BOUNDS or name in UPPER_BOUNDS:
            raised = y > x
            tighter = raised == (name in LOWER_BOUNDS)
            yield Change("breaking" if tighter else "compatible", where,
                         f"{part}{name} {'raised' if raised else 'lowered'} from {x!r} to {y!r}")
        else:  # pattern, multiple_of: a different rule admits different values
            yield Change("breaking", where, f"{part}{name} changed from {x!r} to {y!r}")
