"""Why a side's msgspec models refuse a payload: every place, not only the first msgspec stops at.

``Explainer`` decodes as ``compare.decode.Decoder`` does (the one model of msgspec's decoding that
``compare`` uses, and that tests check against msgspec itself), and where a value is refused it
goes on below it: each key of an object, each item of an array. A union is followed into the one
member msgspec would try the value with; when it would try several, or none, the union is the place.

Each ``Problem`` names the declaration whose schema says what the payload breaks (the model for a
required key or an unknown one, else the model and field the value is in, or the alias it is read
through) and the way from that declaration's schema to the value (``properties``, ``items``,
``additionalProperties``), so that ``places`` can find it in the document.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Literal

from .. import ir
from ..compare.decode import Decoder
from ..compare.shapes import JSON, Scope, Typed, bare, flatten, shape, tag_field, value_kind
from ..compare.sides import Side

Kind = Literal["missing", "null", "enum", "unknown key", "unknown tag", "type", "limit", "union"]
"""``missing``: a required key absent; ``null``: null where the schema forbids it; ``enum``: a value the
enum lacks; ``unknown key``: a key a closed object does not name; ``unknown tag``: a union's tag no
member has; ``type``, ``limit``, ``union``: a value of another kind, out of limits, or that no member
of a union takes."""


@dataclass(frozen=True, slots=True)
class Owner:
    """The declaration whose schema says what a value may be, and the way from it to the value."""

    declaration: ir.Declaration
    steps: tuple[str, ...] = ()
    """JSON pointer tokens from the declaration's schema: ``properties``, key; ``items``; ``additionalProperties``."""

    def then(self, *steps: str) -> Owner:
        return Owner(self.declaration, self.steps + steps)


@dataclass(frozen=True, slots=True)
class Problem:
    where: str
    """In the payload: ``$.choices[0].message``."""
    kind: Kind
    what: str
    owner: Owner
    key: str | None = None
    """For ``missing`` and ``unknown key``: the key."""
    value: JSON = None
    """For ``enum``, ``unknown key`` and ``unknown tag``: the value met."""

    @property
    def schema(self) -> str:
        """``Usage.iterations``: the declaration, and the way from it to the field or key."""
        text, steps = self.owner.declaration.name, iter(self.owner.steps)
        for step in steps:
            text += f".{next(steps, '')}" if step == "properties" else "[]" if step == "items" else "{}"
        return text + (f".{self.key}" if self.key is not None and self.kind != "unknown tag" else "")


class Explainer(Decoder):
    """The problems of payloads with one side's models."""

    def __init__(self, side: Side) -> None:
        super().__init__(side)
        self._known: dict[tuple[int, int, str], tuple[JSON, ir.Type, bool]] = {}
        """Each (value, type, package) decided, by ids (the entry keeps both alive): explaining asks a
        union's acceptance above each level it goes down, and each is decided once."""
        t, self.scope = ir.Ref(side.root), Scope(side, side.package)
        self.top = (t, Owner(self.scope.resolve(t)[0]))

    def explain(self, value: JSON) -> list[Problem]:
        """Every place where the side's root refuses ``value``; none when its msgspec model decodes it."""
        t, owner = self.top
        self._known.clear()
        out: list[Problem] = []
        if not self.root(value):
            self._explain(value, self._legal_type(t, self.scope), self.scope, "$", owner, out)
            if not out:  # (cannot be, unless the two walks disagree: then the root is the place)
                out.append(Problem("$", "type", "refused", owner))
        return out

    def _value(self, value: JSON, t: ir.Type, scope: Scope) -> bool:
        key = (id(value), id(t), scope.package)
        known = self._known.get(key)
        if known is None or known[0] is not value or known[1] is not t:
            known = (value, t, super()._value(value, t, scope))
            self._known[key] = known
        return known[2]

    def _explain(self, value: JSON, t: ir.Type, scope: Scope, where: str, owner: Owner, out: list[Problem]) -> None:
        if value is None and not self._value(value, t, scope):  # (the place that says what it holds: not
            out.append(Problem(where, "null", "null, which the schema does not allow here", owner))  # its target)
            return
        match t:
            case ir.AnyType():
                return
            case ir.Array(item) if isinstance(value, list):
                for i, v in enumerate(value):
                    self._explain(v, item, scope, f"{where}[{i}]", owner.then("items"), out)
                return
            case ir.Map(item) if isinstance(value, dict):
                for k, v in value.items():
                    self._explain(v, item, scope, keyed(where, k), owner.then("additionalProperties"), out)
                return
            case ir.Constrained(inner, _) if not isinstance(inner, (ir.Scalar, ir.Literal)):
                if not self._value(value, t, scope):
                    if self._value(value, inner, scope):
                        out.append(Problem(where, "limit", f"{_shown(value)} is out of the schema's limits", owner))
                    else:
                        self._explain(value, inner, scope, where, owner, out)
                return
            case ir.Union():
                self._union_problems(value, t, scope, where, owner, out)
                return
            case ir.Ref():
                declaration, there = scope.resolve(t)
                if isinstance(declaration, ir.Alias):
                    self._explain(value, self._legal_type(declaration.type, there), there, where, Owner(declaration), out)
                else:
                    self._object_problems(value, Typed(t, scope), False, where, Owner(declaration), out)
                return
        if not self._value(value, t, scope):
            out.append(_refused(value, t, where, owner))

    def _union_problems(self, value: JSON, t: ir.Type, scope: Scope, where: str, owner: Owner,
                        out: list[Problem]) -> None:
        members = flatten(t, scope)
        if self._union(value, members, scope):
            return
        if value is None:
            out.append(Problem(where, "null", "null, which the schema does not allow here", owner))
            return
        chosen = self.chosen(value, members, scope) or []
        field = tag_field(members, scope) if isinstance(value, dict) else None
        if field is not None and not chosen and isinstance(value, dict):
            out.append(Problem(where, "unknown tag", f"`{field}` is {_shown(value.get(field))}, the tag of no member",
                               owner, field, value.get(field)))
        elif len(chosen) == 1:
            member, tagged = chosen[0]
            if tagged is not None:
                self._object_problems(value, member, tagged, where, _owner_of(member, owner), out)
            else:
                self._explain(value, member.type, member.scope, where, owner, out)
        else:
            out.append(Problem(where, "union", f"{_shown(value)} fits no member of the union", owner))

    def _object_problems(self, value: JSON, member: Typed, tagged: bool, where: str, owner: Owner,
                         out: list[Problem]) -> None:
        if not isinstance(value, dict):
            out.append(_refused(value, member.type, where, owner))
            return
        s = shape(member, tagged, decoding=True)
        for key, item in value.items():
            slot = s.fields.get(key)
            if slot is None:
                if s.extra is None:
                    out.append(Problem(keyed(where, key), "unknown key", f"`{key}` is a key the object does not have",
                                       owner, key, item))
            elif not self.accepts(item, slot.type, s.scope):
                self._explain(item, self._legal_type(slot.type, s.scope), s.scope, keyed(where, key),
                              owner.then("properties", key), out)
        for key, slot in s.fields.items():
            if slot.required and key not in value:
                out.append(Problem(where, "missing", f"`{key}` is required, and absent", owner, key))


def _owner_of(member: Typed, fallback: Owner) -> Owner:
    t = bare(member.type)
    return Owner(member.scope.resolve(t)[0]) if isinstance(t, ir.Ref) else fallback


def _refused(value: JSON, t: ir.Type, where: str, owner: Owner) -> Problem:
    b = bare(t)
    if value is None:
        return Problem(where, "null", "null, which the schema does not allow here", owner)
    if isinstance(b, ir.Literal) and not isinstance(value, (dict, list)):
        return Problem(where, "enum", f"{_shown(value)} is not one of the enum's values", owner, value=value)
    if b is not t and value_kind(value) == _kind_of(b):
        return Problem(where, "limit", f"{_shown(value)} is out of the schema's limits", owner)
    return Problem(where, "type", f"{_shown(value)} is not of the type the schema says", owner)


def _kind_of(t: ir.Type) -> str:
    return t.kind if isinstance(t, ir.Scalar) else "?"


_PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def keyed(where: str, key: str) -> str:
    """The place of ``key`` in the object at ``where`` (a JSONPath): ``$.a.b``, or ``$.a["b c"]``."""
    return f"{where}.{key}" if _PLAIN.fullmatch(key) else f"{where}[{json.dumps(key)}]"


def _shown(value: JSON) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."
