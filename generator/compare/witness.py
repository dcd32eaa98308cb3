"""A witness: a whole payload of the root that the accepting side's msgspec model decodes and the
other side's refuses, made of the smallest values, with the one difference in it.

The payload is built from the place of the difference outwards: there, the value only the
accepting side takes (or the object without the key the other side requires, or with the key it
forbids); around it, each container with the smallest values both sides take everywhere else. It
is then decoded with both sides' decoders (``decode``); when it does not show the difference, or
cannot be built, ``why`` says so, and ``blocked`` where no value both sides take was met on the way
out (``hiding`` reads it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .check import Edit, Found, Segments, Step
from .pairing import Nothing
from .shapes import JSON, Typed
from .sides import Side
from .values import MAX_ITEMS, Builder, NoValue, fresh_key, lengths


@dataclass(frozen=True)
class Shown:
    value: JSON
    """The payload (``None`` is JSON null where ``why`` is ``None``)."""
    why: str | None = None
    """Why there is no payload."""
    blocked: Segments | None = None
    """When that is why there is none, the place (from the root) of a key a container of the payload
    must hold, where no value both sides take exists."""


def witness(found: Found, acc: Side, oth: Side, builder: Builder, letters: tuple[str, str]) -> Shown:
    """The payload; or why there is none (``letters``: the sides' names)."""
    x, y = letters
    if found.edit is None:
        return Shown(None, found.why or "the difference names no value to build one from")
    try:
        value = _around(found.trail, _here(found.edit, builder), builder)
    except NoValue as exc:
        blocked = exc.at if isinstance(exc, Unbuilt) and found.why is None else None
        return Shown(None, found.why or f"no payload could be built: {exc}", blocked)
    if not builder.decoders[id(acc)].root(value):
        return Shown(None, found.why or f"no payload was found that {x}'s model decodes with this difference")
    if builder.decoders[id(oth)].root(value):
        return Shown(None, found.why or f"{y}'s msgspec model decodes every payload tried: it checks less here than "
                                         "its schema says")
    return Shown(value)


class Unbuilt(NoValue):
    """No payload: ``at`` is the whole place (from the root) where no value both sides take exists."""


def _from(where: Segments, exc: NoValue) -> Unbuilt:
    return Unbuilt(str(exc), None if exc.at is None else (*where, *exc.at))


def _here(edit: Edit, builder: Builder) -> JSON:
    """The value at the place of the difference."""
    if edit.pair is None:
        if not isinstance(edit.value, Nothing):
            return edit.value
        assert edit.member is not None
        return _only(builder, edit.member, edit.against, edit.relaxed)
    a, b = edit.pair
    value: dict[str, JSON] = {}
    if edit.member is not None:
        value[edit.key if edit.key is not None else fresh_key({}, a, b)] = _only(builder, edit.member, edit.against)
    try:
        return builder.instance(a, b, value, omit=edit.key if edit.member is None else None)
    except NoValue as exc:
        raise _from(edit.at, exc) from None


def _only(builder: Builder, member: Typed, against: Typed | None, relaxed: Typed | None = None) -> JSON:
    """The value of the difference itself: when there is none, no other difference is the reason."""
    try:
        return builder.only(member, against, relaxed)
    except NoValue as exc:
        raise Unbuilt(str(exc)) from None


def _around(trail: Sequence[Step], value: JSON, builder: Builder) -> JSON:
    """``value`` inside the containers of ``trail``, innermost last."""
    for step in reversed(trail):
        try:
            value = _container(step, value, builder)
        except NoValue as exc:
            raise _from(step.at, exc) from None
    return value


def _container(step: Step, hole: JSON, builder: Builder) -> JSON:
    a, b = step.acc, step.oth
    if step.kind == "field":
        assert isinstance(step.key, str)
        return builder.instance(a, b, {step.key: hole})
    if step.kind == "value":
        return builder.instance(a, b, {fresh_key({}, a, b): hole})
    size = _size(a, b)
    if step.kind == "item":
        return [hole, *builder.items(a, b, max(size - 1, 0))]
    assert isinstance(step.key, int)
    return [hole if i == step.key else builder.items(a, b, i + 1)[i] for i in range(size)]


def _size(a: Typed, b: Typed) -> int:
    """The fewest items both lists take, and at least one (a tuple: its length)."""
    size = max(1, lengths(a)[0], lengths(b)[0])
    if size > MAX_ITEMS:
        raise NoValue(f"a list of at least {size} items is more than a witness holds ({MAX_ITEMS})")
    return size
