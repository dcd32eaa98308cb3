"""A witness: a whole payload of the root that the accepting side's msgspec model decodes and the
other side's refuses, made of the smallest values, with the one difference in it.

The payload is built from the place of the difference outwards: there, the value only the
accepting side takes (or the object without the key the other side requires, or with the key it
forbids); around it, each container with the smallest values both sides take everywhere else. It
is then decoded with both sides' decoders (``decode``); when it does not show the difference, or
cannot be built, ``why`` says so.
"""

from __future__ import annotations

from collections.abc import Sequence

from .check import Edit, Found, Step
from .pairing import Nothing
from .shapes import JSON, Typed
from .sides import Side
from .values import MAX_ITEMS, Builder, NoValue, fresh_key, lengths


def witness(found: Found, acc: Side, oth: Side, builder: Builder, letters: tuple[str, str]) -> tuple[JSON, str | None]:
    """The payload, and ``None``; or ``None`` and why there is none (``letters``: the sides' names)."""
    x, y = letters
    if found.edit is None:
        return None, found.why or "the difference names no value to build one from"
    try:
        value = _around(found.trail, _here(found.edit, builder), builder)
    except NoValue as exc:
        return None, found.why or f"no payload could be built: {exc}"
    if not builder.decoders[id(acc)].root(value):
        return None, found.why or f"no payload was found that {x}'s model decodes with this difference"
    if builder.decoders[id(oth)].root(value):
        return None, found.why or f"{y}'s msgspec model decodes every payload tried: it checks less here than its schema says"
    return value, None


def _here(edit: Edit, builder: Builder) -> JSON:
    """The value at the place of the difference."""
    if edit.pair is None:
        if not isinstance(edit.value, Nothing):
            return edit.value
        assert edit.member is not None
        return builder.only(edit.member, edit.against, edit.relaxed)
    a, b = edit.pair
    if edit.member is None:
        return builder.instance(a, b, omit=edit.key)
    key = edit.key if edit.key is not None else fresh_key({}, a, b)
    return builder.instance(a, b, {key: builder.only(edit.member, edit.against)})


def _around(trail: Sequence[Step], value: JSON, builder: Builder) -> JSON:
    """``value`` inside the containers of ``trail``, innermost last."""
    for step in reversed(trail):
        value = _container(step, value, builder)
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
