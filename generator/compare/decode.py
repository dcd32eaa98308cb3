"""Does a side's msgspec model decode a JSON value? The IR read as the msgspec variant writes it.

The msgspec variant makes every union one msgspec can decode (its ``capabilities.decodable``
widens the others) and enforces the limits ``Meta`` can: not unique items, nor a fractional
``multipleOf``, nor any limit on a formatted string. msgspec picks a union's member by the JSON
kind of the value: an integer goes to the ``int`` member if there is one (and only there), else to
a ``float`` member, a string to the string member, an object to the one object member, or by its
tag when the union's models are tagged. A tagged model outside such a union takes its tag key as
optional (if present, it must be the tag). An unknown key is ignored unless the model forbids it.
"""

from __future__ import annotations

from .. import ir
from .shapes import (JSON, MSGSPEC, Scope, Typed, bare, flatten, kind, limits, model_tag, root, scalar_fits, shape,
                     tag_field, value_kind, within)
from .sides import Side

_MISSING = object()


class Decoder:
    """The decoder of one side's msgspec models, as far as accepting or refusing a value goes."""

    def __init__(self, side: Side) -> None:
        self.side = side
        self._legal: dict[tuple[str, int], tuple[ir.Type, ir.Type]] = {}

    def root(self, value: JSON) -> bool:
        t, scope = root(self.side)
        return self.accepts(value, t, scope)

    def accepts(self, value: JSON, t: ir.Type, scope: Scope) -> bool:
        """Does the annotation msgspec gets for ``t`` take ``value``?"""
        return self._value(value, self._legal_type(t, scope), scope)

    def _legal_type(self, t: ir.Type, scope: Scope) -> ir.Type:
        key = (scope.package, id(t))
        known = self._legal.get(key)
        if known is None or known[0] is not t:  # (the entry keeps ``t`` alive: its id is not reused)
            known = (t, MSGSPEC.decodable(t, scope.side.declarations(scope.package)))
            self._legal[key] = known
        return known[1]

    def _value(self, value: JSON, t: ir.Type, scope: Scope) -> bool:
        match t:
            case ir.AnyType():
                return True
            case ir.Null():
                return value is None
            case ir.Scalar():
                return scalar_fits(value, t)
            case ir.Literal(values):
                return any(type(value) is type(v) and value == v for v in values)
            case ir.Array(item):
                return isinstance(value, list) and all(self._value(v, item, scope) for v in value)
            case ir.Tuple(items):
                return (isinstance(value, list) and len(value) == len(items)
                        and all(self._value(v, i, scope) for v, i in zip(value, items)))
            case ir.Map(item):
                return isinstance(value, dict) and all(self._value(v, item, scope) for v in value.values())
            case ir.Constrained(inner, constraints):
                checked = MSGSPEC.checks_limits(inner)
                return self._value(value, inner, scope) and (not checked or within(value, constraints, decoding=True))
            case ir.Union():
                return self._union(value, flatten(t, scope), scope)
            case ir.Ref():
                declaration, there = scope.resolve(t)
                if isinstance(declaration, ir.Alias):
                    return self._value(value, self._legal_type(declaration.type, there), there)
                return self._object(value, Typed(t, scope), tagged=False)
        raise AssertionError(f"not an IR type: {t!r}")

    def _union(self, value: JSON, members: list[Typed], scope: Scope) -> bool:
        chosen = self.chosen(value, members, scope)
        if chosen is None:
            return True
        return any(self._object(value, m, tagged) if tagged is not None else self._value(value, m.type, m.scope)
                   for m, tagged in chosen)

    def chosen(self, value: JSON, members: list[Typed], scope: Scope) -> list[tuple[Typed, bool | None]] | None:
        """The members of a union msgspec tries ``value`` with, each with how (``True``/``False``: as a
        model, tagged or not; ``None``: as a value); ``None`` when a member takes any value."""
        kinds = [kind(m.type) for m in members]
        if "any" in kinds:
            return None
        wanted = value_kind(value)
        if wanted == "null":
            return [(m, None) for m, k in zip(members, kinds) if k == "null"]
        if wanted == "object":
            objects = [m for m, k in zip(members, kinds) if k == "object"]
            field = tag_field(members, scope)
            if field is None:
                return [(m, False) for m in objects]
            assert isinstance(value, dict)
            tag = value.get(field, _MISSING)
            return [(m, True) for m in objects if _same(model_tag(m), tag)]
        chosen = [m for m, k in zip(members, kinds) if k == wanted]
        if wanted == "int" and not chosen:
            chosen = [m for m, k in zip(members, kinds) if k == "float"]
        if wanted in ("int", "float") and not chosen:
            chosen = [m for m in members if isinstance(bare(m.type), ir.Scalar) and bare(m.type).format == "decimal"]  # type: ignore[union-attr]
        if chosen and wanted != "bool":
            return [(m, None) for m in chosen]
        return [(m, None) for m, k in zip(members, kinds) if k in ("literal", wanted)]

    def _object(self, value: JSON, member: Typed, tagged: bool) -> bool:
        if not isinstance(value, dict):
            return False
        if isinstance(bare(member.type), ir.Map):
            map_type = bare(member.type)
            assert isinstance(map_type, ir.Map)
            return (all(self._value(v, map_type.value, member.scope) for v in value.values())
                    and within(value, limits(member.type), decoding=True))
        s = shape(member, tagged, decoding=True)
        for key, item in value.items():
            slot = s.fields.get(key)
            if slot is None:
                if s.extra is None:
                    return False
            elif not self.accepts(item, slot.type, s.scope):
                return False
        return all(key in value for key, slot in s.fields.items() if slot.required)


def _same(tag: ir.Tag | None, value: object) -> bool:
    return tag is not None and type(tag.value) is type(value) and tag.value == value
