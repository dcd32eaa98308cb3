"""Unions msgspec can decode: the few rules msgspec has, and the widening when a union breaks them.

msgspec decodes a union by the JSON type it meets, so a union may hold at most one type of each
kind: one string-like type (``str`` and string literals count as one; ``datetime``, ``uuid``…
each count apart), one array-like, one object-like (a ``dict`` or an untagged Struct) unless all
its Structs are tagged on the same field. A union that breaks a rule is widened, soundly:
formatted strings become ``str``, several arrays one ``list`` of their items, several untagged
objects ``dict[str, Any]``. The tags pass has already warned about untagged object unions.
Literals beside a scalar of their kind must pass its constraints (``msgspec_literals``).
What a widening gives up is collected in a ``Widening`` (the members widened, into what, and the
constraints dropped with the member that had them), for the docs to say what is not enforced.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field

from .. import ir
from ..ir.walk import map_types
from .msgspec_literals import fold, literals_fit

ANY_OBJECT = ir.Map(ir.AnyType())


@dataclass
class Widening:
    """What ``legal`` gave up to make a type decodable, in the order it met it."""

    widened: list[tuple[tuple[ir.Type, ...], ir.Type]] = field(default_factory=list)
    """Members of a union as written, and the one type they are decoded as."""
    lost: list[tuple[ir.Type, ir.Constraints]] = field(default_factory=list)
    """Constraints no longer enforced, each with the member that had them."""

    def widen(self, group: list[ir.Type], by: ir.Type) -> None:
        self.widened.append((tuple(group), by))
        self.drop(group)

    def drop(self, members: list[ir.Type]) -> None:
        self.lost += [(m, m.constraints) for m in members if isinstance(m, ir.Constrained)]


def legal(t: ir.Type, declarations: Mapping[str, ir.Declaration], widening: Widening | None = None,
          enums: Collection[str] = ()) -> ir.Type:
    """``t`` with every union made one msgspec can decode; what that gives up goes to ``widening``.
    ``enums``: aliases written as enum classes (see ``_enum_values``)."""
    report = Widening() if widening is None else widening
    if enums:
        t = map_types(t, lambda node: _enum_values(node, declarations, enums) if isinstance(node, ir.Union) else node)
    return map_types(t, lambda node: _legal_union(node, declarations, report) if isinstance(node, ir.Union) else node)


def _enum_values(union: ir.Union, declarations: Mapping[str, ir.Declaration], enums: Collection[str]) -> ir.Type:
    """An enum class is msgspec's one string-like (or int-like) member of a union, where a literal
    is not: beside another member of its kind, an enum class is named by the ``Literal`` of its values."""
    def kind(t: ir.Type) -> str | None:
        t = _bare(t)
        if isinstance(t, ir.Ref) and t.name in enums:
            t = declarations[t.name].type  # type: ignore[union-attr]
        if isinstance(t, ir.Literal):
            values = set(map(type, t.values))
            return "str" if str in values else "int" if int in values else None
        if _string_kind(t) is not None:
            return "str"
        return "int" if _scalar_kind(t) == "int" else None

    kinds = [kind(m) for m in union.members]
    shared = {k for k in kinds if k is not None and kinds.count(k) > 1}
    if not shared:
        return union
    return ir.union(*(declarations[m.name].type if isinstance(m, ir.Ref) and m.name in enums  # type: ignore[union-attr]
                      and kind(m) in shared else m for m in union.members))


def _legal_union(union: ir.Union, declarations: Mapping[str, ir.Declaration], report: Widening) -> ir.Type:
    members = [m for member in union.members for m in _expand_alias(member, declarations)]
    if _is_legal(members, declarations):
        return union
    # The members now include what aliases stood for: their own unions need the same care.
    members = [legal(m, declarations, report) for m in members]
    if len({_string_kind(m) for m in members} - {None}) > 1:
        plain = [_plain_string(m) for m in members]
        for by in dict.fromkeys(_bare(p) for p, m in zip(plain, members) if p != m):
            report.widened.append((tuple(m for p, m in zip(plain, members) if p != m and _bare(p) == by), by))
        members = plain
    for kind in ("str", "int", "float", "bool"):
        same = [m for m in members if _scalar_kind(m) == kind]
        if len(same) > 1:  # msgspec would try only one of them
            report.drop(same)
            members = _replace(members, same, ir.Scalar(kind))
    arrays = [m for m in members if isinstance(_bare(m), (ir.Array, ir.Tuple))]
    if len(arrays) > 1:
        items = [i for a in arrays for i in _array_items(_bare(a))]
        inner = Widening()  # the items' own widening is part of this one: only their lost limits are said
        merged = ir.Array(legal(ir.union(*items), declarations, inner))
        report.widen(arrays, merged)
        report.lost += inner.lost
        members = _replace(members, arrays, merged)
    objects = [m for m in members if _object_kind(m, declarations) is not None]
    if not _one_object_kind(objects, declarations):
        report.widen(objects, ANY_OBJECT)
        members = _replace(members, objects, ANY_OBJECT)
    if _tuple_beside_sized_map(members):
        report.drop([m for m in members if isinstance(m, ir.Constrained) and isinstance(m.type, ir.Map)])
        members = [m.type if isinstance(m, ir.Constrained) and isinstance(m.type, ir.Map) else m for m in members]
    return ir.union(*fold(members, report.lost))


def _tuple_beside_sized_map(members: list[ir.Type]) -> bool:
    """``tuple[int] | Annotated[dict[str, Any], Meta(min_length=1)]``: msgspec 0.23 crashes the
    interpreter (a segmentation fault) building a decoder for it; the map's limits are dropped."""
    return any(isinstance(m, ir.Tuple) for m in members) and any(
        isinstance(m, ir.Constrained) and isinstance(m.type, ir.Map) for m in members)


def _is_legal(members: list[ir.Type], declarations: Mapping[str, ir.Declaration]) -> bool:
    scalars = [_scalar_kind(m) for m in members if _scalar_kind(m) is not None]
    if len(scalars) != len(set(scalars)):
        return False
    strings = {_string_kind(m) for m in members} - {None}
    arrays = [m for m in members if isinstance(_bare(m), (ir.Array, ir.Tuple))]
    objects = [m for m in members if _object_kind(m, declarations) is not None]
    return (len(strings) <= 1 and len(arrays) <= 1 and _one_object_kind(objects, declarations) and literals_fit(members)
            and not _tuple_beside_sized_map(members))


def _one_object_kind(objects: list[ir.Type], declarations: Mapping[str, ir.Declaration]) -> bool:
    """One object-like member, or only Structs tagged on the same field."""
    kinds = {_object_kind(m, declarations) for m in objects}
    return len(objects) <= 1 or (len(kinds) == 1 and (next(iter(kinds)) or "").startswith("tag:"))


def _replace(members: list[ir.Type], group: list[ir.Type], by: ir.Type) -> list[ir.Type]:
    """``members`` with the members of ``group`` replaced by one ``by`` where the first of them stood."""
    gone = set(map(id, group))  # the very members of ``group``, not others equal to them
    return [by if m is group[0] else m for m in members if m is group[0] or id(m) not in gone]


def _bare(t: ir.Type) -> ir.Type:
    return t.type if isinstance(t, ir.Constrained) else t


def _expand_alias(t: ir.Type, declarations: Mapping[str, ir.Declaration]) -> list[ir.Type]:
    if isinstance(t, ir.Ref) and isinstance(declarations.get(t.name), ir.Alias):
        target = declarations[t.name].type  # type: ignore[union-attr]
        return [m for member in (target.members if isinstance(target, ir.Union) else (target,))
                for m in _expand_alias(member, declarations)]
    return [t]


def _string_kind(t: ir.Type) -> str | None:
    """Which of msgspec's string-like kinds ``t`` is: ``"str"`` (with string literals) or a format."""
    t = _bare(t)
    if isinstance(t, ir.Scalar):
        return t.format or ("str" if t.kind == "str" else None)
    if isinstance(t, ir.Literal) and any(isinstance(v, str) for v in t.values):
        return "str"
    return None


def _scalar_kind(t: ir.Type) -> str | None:
    """``str``/``int``/``float``/``bool`` for a plain (maybe constrained) scalar; formats count apart."""
    bare = _bare(t)
    return bare.kind if isinstance(bare, ir.Scalar) and bare.format is None else None


def _plain_string(t: ir.Type) -> ir.Type:
    bare = _bare(t)
    if isinstance(bare, ir.Scalar) and bare.format is not None:
        plain = ir.Scalar(bare.kind)
        return ir.Constrained(plain, t.constraints) if isinstance(t, ir.Constrained) else plain
    return t


def _array_items(t: ir.Type) -> tuple[ir.Type, ...]:
    return (t.item,) if isinstance(t, ir.Array) else t.items if isinstance(t, ir.Tuple) else ()


def msgspec_tag(model: ir.Model) -> ir.Tag | None:
    """The model's tag as the msgspec variant writes it: none where the field or a string value is not
    ASCII, which msgspec 0.23's JSON decoder misreads (it refuses a Struct its own such tag, and misses
    such a tag field in a union); the field is then a plain field, and a union of such models widens."""
    tag = model.tag
    if tag is None or not tag.field.isascii() or (isinstance(tag.value, str) and not tag.value.isascii()):
        return None
    return tag


def _object_kind(t: ir.Type, declarations: Mapping[str, ir.Declaration]) -> str | None:
    """``"dict"``, ``"untagged"`` (a Struct), ``"tag:<field>"`` (a tagged Struct), or ``None``."""
    t = _bare(t)
    if isinstance(t, ir.Map):
        return "dict"
    if isinstance(t, ir.Ref) and t.module is not None:
        return "untagged"  # another input's type, maybe a Struct: the safe assumption
    if isinstance(t, ir.Ref):
        d = declarations.get(t.name)
        if isinstance(d, ir.Model):
            tag = msgspec_tag(d)
            return f"tag:{tag.field}" if tag else "untagged"
    return None
