"""Types as the comparison reads them: a union's members by JSON kind, and an object as its fields,
whether unknown keys pass and what they may hold.

A type is read in a ``Scope``: the side and the output package its references are relative to.
``flatten`` follows aliases (``$ref`` chains) and nested unions down to members that are no union
and no alias (null, any, a literal, a scalar, a list, a tuple, a map, or a reference to a model);
limits written around an alias or a union go to each of its members.

An object is read as its msgspec model holds it (``shape``): a model's tag is a key whose value is
the tag, required where the model is a member of a union msgspec tells apart by that tag; a key
msgspec cannot name in a model that forbids unknown fields is refused; a field that may be absent
with the default ``null`` may be null.
"""

from __future__ import annotations

import json
import math
import operator
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from .. import ir
from ..frozen import fields
from ..render import VARIANTS
from ..render.annotations import spelled
from .sides import Side

MSGSPEC = VARIANTS["msgspec"].capabilities
"""What the msgspec models of a side can say (``render.capabilities``): what compare reasons with."""

JSON = ir.JSON


@dataclass(frozen=True, eq=False)
class Scope:
    side: Side
    package: str

    def resolve(self, ref: ir.Ref) -> tuple[ir.Declaration, Scope]:
        package = ref.module or self.package
        there = self if package == self.package else Scope(self.side, package)
        return self.side.declarations(package)[ref.name], there

    def named(self, name: str) -> str:
        """A declaration's name as the output shows it: ``package.Name`` for another input's."""
        return name if self.package == self.side.package else f"{self.package}.{name}"


def root(side: Side) -> tuple[ir.Type, Scope]:
    return ir.Ref(side.root), Scope(side, side.package)


@dataclass(frozen=True, eq=False)
class Typed:
    """A type and the scope it is read in."""

    type: ir.Type
    scope: Scope


def flatten(t: ir.Type, scope: Scope, seen: frozenset[tuple[str, str]] = frozenset()) -> list[Typed]:
    """The members of ``t``: no union, no alias (an alias that is itself adds nothing)."""
    match t:
        case ir.Union(members):
            return [m for member in members for m in flatten(member, scope, seen)]
        case ir.Constrained(inner, limits):
            return [Typed(constrain(m.type, limits), m.scope) for m in flatten(inner, scope, seen)]
        case ir.Ref():
            declaration, there = scope.resolve(t)
            if isinstance(declaration, ir.Alias):
                key = (there.package, declaration.name)
                return [] if key in seen else flatten(declaration.type, there, seen | {key})
            return [Typed(ir.Ref(declaration.name), there)]
    return [Typed(t, scope)]


def constrain(t: ir.Type, limits: ir.Constraints) -> ir.Type:
    """``t`` within ``limits`` too (the tighter of each where both set one)."""
    if isinstance(t, (ir.Literal, ir.Null, ir.AnyType)):
        return t
    if not isinstance(t, ir.Constrained):
        return ir.Constrained(t, limits)
    mine, theirs = t.constraints, limits
    merged: dict[str, object] = {}
    for f in fields(ir.Constraints):
        x, y = getattr(mine, f.name), getattr(theirs, f.name)
        if x is None or y is None or f.name in ("pattern", "multiple_of", "unique_items"):
            merged[f.name] = x if x not in (None, False) else y
        else:
            merged[f.name] = max(x, y) if f.name in ("min_length", "ge", "gt") else min(x, y)
    return ir.Constrained(t.type, ir.Constraints(**merged))  # type: ignore[arg-type]


def bare(t: ir.Type) -> ir.Type:
    return t.type if isinstance(t, ir.Constrained) else t


def limits(t: ir.Type) -> ir.Constraints:
    return t.constraints if isinstance(t, ir.Constrained) else ir.Constraints()


def kind(t: ir.Type) -> str:
    """``null``, ``any``, ``literal``, ``str``, ``int``, ``float``, ``bool``, ``array`` or ``object``."""
    b = bare(t)
    match b:
        case ir.Null():
            return "null"
        case ir.AnyType():
            return "any"
        case ir.Literal():
            return "literal"
        case ir.Scalar(scalar_kind):
            return scalar_kind
        case ir.Array() | ir.Tuple():
            return "array"
    return "object"


def value_kind(value: JSON) -> str:
    """The JSON kind of a value, in the words of ``kind``."""
    if value is None:
        return "null"
    return {bool: "bool", int: "int", float: "float", str: "str", list: "array", dict: "object"}[type(value)]


def describe(member: Typed) -> str:
    t = bare(member.type)
    if isinstance(t, ir.Ref):
        return member.scope.named(t.name)
    return spelled(t)


def describe_all(members: Iterable[Typed]) -> str:
    return " | ".join(dict.fromkeys(describe(m) for m in members)) or "nothing"


# Objects ----------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Slot:
    """A key of an object as its model holds it."""

    type: ir.Type
    required: bool
    doc: str | None = None
    tag: bool = False


@dataclass(frozen=True, eq=False)
class Shape:
    name: str | None
    """The model's name as the output shows it; ``None`` for a map."""
    fields: Mapping[str, Slot]
    extra: ir.Type | None
    """What a key that is no field may hold; ``None``: such keys are refused."""
    limits: ir.Constraints
    scope: Scope
    doc: str | None = None


def shape(member: Typed, tagged: bool, decoding: bool = False) -> Shape:
    """The object ``member`` is; ``tagged``: it is a member of a union msgspec tells apart by tag.
    ``decoding``: as msgspec decodes it (a tag may be absent outside such a union; a key it cannot
    name is no field), else as the schema says it, made as strict as msgspec is."""
    t = bare(member.type)
    if isinstance(t, ir.Map):
        return Shape(None, {}, t.value, limits(member.type), member.scope)
    assert isinstance(t, ir.Ref)
    model, there = member.scope.resolve(t)
    assert isinstance(model, ir.Model)
    slots: dict[str, Slot] = {}
    tag = MSGSPEC.tag(model)
    for f in model.fields:
        if tag is not None and f.wire_name == tag.field:
            slots[f.wire_name] = _tag_slot(tag, f, tagged, decoding)
        elif MSGSPEC.names_key(f.wire_name) or not (model.closed or decoding):
            nullable = not f.required and f.default is not None and f.default.value is None
            slots[f.wire_name] = Slot(ir.union(f.type, ir.Null()) if nullable else f.type, f.required, f.doc)
    if tag is not None and tag.field not in slots:
        slots[tag.field] = _tag_slot(tag, None, tagged, decoding)
    extra = None if model.closed else ir.AnyType()
    return Shape(there.named(model.name), slots, extra, limits(member.type), there, model.doc)


def _tag_slot(tag: ir.Tag, f: ir.Field | None, tagged: bool, decoding: bool) -> Slot:
    required = tagged or (not decoding and f is not None and f.required)
    return Slot(ir.Literal((tag.value,)), required, f.doc if f else None, tag=True)


def tag_field(members: list[Typed], home: Scope) -> str | None:
    """The key msgspec tells the object members of this union apart by, if it does: two or more,
    all models of this input with a tag on the same key (another input's model counts as untagged)."""
    objects = [m for m in members if kind(m.type) == "object"]
    if len(objects) < 2:
        return None
    found: set[str | None] = set()
    for m in objects:
        t = bare(m.type)
        d = m.scope.resolve(t)[0] if isinstance(t, ir.Ref) and m.scope.package == home.package else None
        found.add(tag.field if isinstance(d, ir.Model) and (tag := MSGSPEC.tag(d)) is not None else None)
    return next(iter(found)) if len(found) == 1 and None not in found else None


def model_tag(member: Typed) -> ir.Tag | None:
    t = bare(member.type)
    if isinstance(t, ir.Ref):
        d = member.scope.resolve(t)[0]
        return MSGSPEC.tag(d) if isinstance(d, ir.Model) else None
    return None


# Values -----------------------------------------------------------------------------------------


def scalar_fits(value: JSON, t: ir.Scalar) -> bool:
    """Does msgspec decode ``value`` as this scalar (its format too)?"""
    formatted = MSGSPEC.reads_format(value, t.format) if t.format is not None else None
    if formatted is not None:
        return formatted
    if t.kind == "float":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return type(value) is {"str": str, "int": int, "bool": bool}[t.kind]


def within(value: JSON, c: ir.Constraints, *, decoding: bool) -> bool:
    """Is ``value`` within the limits (``decoding``: those msgspec checks: not unique items, nor a
    fractional ``multipleOf``)?"""
    if isinstance(value, (str, list, dict)):
        size = len(value)
        if (c.min_length is not None and size < c.min_length) or (c.max_length is not None and size > c.max_length):
            return False
        if isinstance(value, str) and c.pattern is not None and re.search(c.pattern, value) is None:
            return False
        if isinstance(value, list) and c.unique_items and not decoding and not _unique(value):
            return False
        return True
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        for limit, holds in ((c.ge, operator.ge), (c.gt, operator.gt), (c.le, operator.le), (c.lt, operator.lt)):
            if limit is not None and not holds(value, limit):
                return False
        step = c.multiple_of
        if step is not None and not (decoding and isinstance(step, float) and not step.is_integer()):
            return _multiple(value, step)
    return True


def _multiple(value: int | float, step: int | float) -> bool:
    if isinstance(value, int) and isinstance(step, int):
        return value % step == 0
    if math.isinf(value):
        return False
    return (Fraction(value) / Fraction(step)).denominator == 1


def _unique(items: list[JSON]) -> bool:
    seen = [json.dumps(i, sort_keys=True) for i in items]
    return len(seen) == len(set(seen))


def admits(value: JSON, members: list[Typed]) -> bool:
    """Do these members (as the schema says, decoded the way msgspec picks a member) take the scalar
    ``value``: a literal that has it, else the scalar member of its kind?"""
    kinds = [kind(m.type) for m in members]
    if "any" in kinds:
        return True
    if any(isinstance(m.type, ir.Literal) and any(type(v) is type(value) and v == value for v in m.type.values)
           for m in members):
        return True
    wanted = value_kind(value)
    if wanted == "null":
        return "null" in kinds
    chosen = [m for m, k in zip(members, kinds) if k == wanted]
    if wanted == "int" and not chosen:
        chosen = [m for m, k in zip(members, kinds) if k == "float"]
    return any(scalar_fits(value, bare(m.type)) and within(value, limits(m.type), decoding=False)  # type: ignore[arg-type]
               for m in chosen)

