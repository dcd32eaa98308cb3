"""Hypothesis strategies for JSON payloads of an IR type (tests/test_dataclass_convert.py).

``payloads(t, declarations)`` gives JSON values that fit ``t`` as the IR says it (constraints aside):
objects with every required key, some optional ones (a null where the type allows it), the tag of
a tagged model, unknown keys where the model is open; formatted strings as msgspec writes them.
``mutated(value)`` breaks one place of a value: a value of another JSON type, a key removed or
added, a string that is no enum value. ``lowered_classes`` and ``class_payloads`` draw a random
document's IR and payloads of its classes, for the tests that hold two variants together on them.
"""

from __future__ import annotations

import datetime
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import msgspec
from hypothesis import strategies as st

from schemagen import ir

MAX_DEPTH = 4

_FORMATS: dict[str, st.SearchStrategy[Any]] = {
    "date-time": st.datetimes(min_value=datetime.datetime(1900, 1, 1), max_value=datetime.datetime(2100, 1, 1),
                              timezones=st.sampled_from([None, datetime.timezone.utc,
                                                         datetime.timezone(datetime.timedelta(hours=-5, minutes=-30))])),
    "date": st.dates(),
    "time": st.times(timezones=st.sampled_from([None, datetime.timezone.utc])),
    "duration": st.timedeltas(min_value=datetime.timedelta(days=-999), max_value=datetime.timedelta(days=999)),
    "uuid": st.uuids(),
    "decimal": st.decimals(allow_nan=False, allow_infinity=False, places=3, min_value=-10**6, max_value=10**6),
    "base64": st.binary(max_size=6),
}
"""Python values; msgspec writes them as the payload holds them (its form is the reference)."""

_SCALARS: dict[str, st.SearchStrategy[Any]] = {
    "str": st.text(max_size=6),
    "int": st.one_of(st.integers(-3, 3), st.integers(-(2**70), 2**70)),
    "float": st.one_of(st.floats(allow_nan=False, allow_infinity=False), st.integers(-3, 3)),
    "bool": st.booleans(),
}
_JSON = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.text(max_size=4)),
                     lambda inner: st.one_of(st.lists(inner, max_size=2),
                                             st.dictionaries(st.text(max_size=3), inner, max_size=2)),
                     max_leaves=4)


def lists(element: st.SearchStrategy[Any], min_size: int = 0, max_size: int = 2) -> st.SearchStrategy[list[Any]]:
    """``st.lists``, save that an element with no value gives ``[]`` alone (or nothing, where the list
    needs an item): hypothesis refuses a list over ``nothing()`` only when a test draws from it, so a
    random schema that makes one fails now and then, and then shrinks for minutes."""
    if element.is_empty:
        return st.just([]) if min_size == 0 else st.nothing()
    return st.lists(element, min_size=min_size, max_size=max_size)


def payloads(t: ir.Type, declarations: Mapping[str, ir.Declaration], depth: int = 0) -> st.SearchStrategy[Any]:
    """JSON values of ``t``; past ``MAX_DEPTH``, containers are empty and optional keys left out
    (a type that needs more, a required field of its own class, gives nothing)."""
    deep = depth >= MAX_DEPTH

    def inner(u: ir.Type) -> st.SearchStrategy[Any]:
        return payloads(u, declarations, depth + 1)

    match t:
        case ir.Scalar(kind, fmt) if fmt is not None and (kind == "str" or fmt == "decimal"):
            if fmt == "decimal" and kind != "str":
                return st.one_of(st.integers(-1000, 1000), st.sampled_from([0.5, 1.25, -2.75]))
            return _FORMATS[fmt].map(msgspec.to_builtins)
        case ir.Scalar(kind, _):
            return _SCALARS[kind]
        case ir.Null():
            return st.none()
        case ir.AnyType():
            return _JSON
        case ir.Literal(values):
            return st.sampled_from(values)
        case ir.Array(item):
            return st.just([]) if deep else lists(inner(item))
        case ir.Map(value):
            values = inner(value)  # (no value: only {}, as ``lists`` gives [])
            return st.just({}) if deep or values.is_empty else st.dictionaries(st.text(max_size=3), values, max_size=2)
        case ir.Tuple(items):
            return st.tuples(*map(inner, items)).map(list)
        case ir.Constrained(inner_type, _):
            return payloads(inner_type, declarations, depth)
        case ir.Union(members):
            return st.one_of([payloads(m, declarations, depth) for m in members])
        case ir.Ref(name, None):
            target = declarations[name]
            if isinstance(target, ir.Alias):
                return payloads(target.type, declarations, depth + 1)
            return st.nothing() if depth > 3 * MAX_DEPTH else _object(target, declarations, depth)
    return st.nothing()  # another input's type: not made here


def _object(model: ir.Model, declarations: Mapping[str, ir.Declaration], depth: int) -> st.SearchStrategy[Any]:
    required = {f.wire_name: payloads(f.type, declarations, depth + 1) for f in model.fields if f.required}
    optional = {} if depth >= MAX_DEPTH else {
        f.wire_name: payloads(ir.union(f.type, ir.Null()) if f.default and f.default.value is None else f.type,
                              declarations, depth + 1)
        for f in model.fields if not f.required}
    if model.tag is not None and model.tag.field not in required and model.tag.field not in optional:
        required[model.tag.field] = st.just(model.tag.value)
    known = {f.wire_name for f in model.fields} | ({model.tag.field} if model.tag else set())
    extra = st.just({}) if model.closed else st.dictionaries(
        st.text(max_size=4).filter(lambda k: k not in known), _JSON, max_size=1)
    return st.tuples(st.fixed_dictionaries(required, optional=optional), extra).map(lambda p: {**p[1], **p[0]})


@st.composite
def mutated(draw: st.DrawFn, value: Any) -> Any:
    """``value`` with one place broken (or, now and then, as it is)."""
    places: list[tuple[Any, Any]] = []  # (container, key or index)

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key, item in node.items():
                places.append((node, key))
                walk(item)
        elif isinstance(node, list):
            for index, item in enumerate(node):
                places.append((node, index))
                walk(item)

    value = msgspec.json.decode(msgspec.json.encode(value))  # a copy
    walk(value)
    action = draw(st.sampled_from(["type", "type", "enum", "drop", "add", "root"]))
    objects = [node for node in [value, *(c[k] for c, k in places)] if isinstance(node, dict)]
    if action == "add" and objects:  # (the value itself too: a closed class read on its own)
        draw(st.sampled_from(objects))[draw(st.sampled_from(["zz_unknown", "", "a b"]))] = draw(_JSON)
        return value
    if action == "root" or not places:
        return draw(st.one_of(st.lists(_JSON, max_size=1), st.integers(), st.none(), st.just(value)))
    container, key = draw(st.sampled_from(places))
    old = container[key]
    if action == "drop" and isinstance(container, dict):
        del container[key]
    elif action == "enum" and isinstance(old, str):
        container[key] = old + "-not-one-of-them"
    else:
        container[key] = draw(st.one_of(_JSON, st.floats(allow_nan=False, allow_infinity=False))
                              .filter(lambda new: type(new) is not type(old)))
    return value


def lowered_classes(data: st.DataObject, documents: st.SearchStrategy[Any]) -> tuple[Any, ir.Module] | None:
    """A random document drawn from ``documents`` (tests/fuzz_strategies.py's cases) and lowered: the case
    and its IR; ``None`` where it declares no class (or is a clean error)."""
    case = data.draw(documents, label="schema")
    with tempfile.TemporaryDirectory() as folder:
        module = case.lowered(Path(folder) / "input")
    if module is None or not any(isinstance(d, ir.Model) for d in module.declarations):
        return None
    return case, module


def class_payloads(data: st.DataObject, module: ir.Module, rounds: int = 4) -> Iterator[tuple[ir.Model, Any]]:
    """``rounds`` classes of ``module`` drawn, each with a payload of it, broken two times in three."""
    declarations = {d.name: d for d in module.declarations}
    models = [d for d in module.declarations if isinstance(d, ir.Model)]
    for _ in range(rounds):
        model = data.draw(st.sampled_from(models), label="model")
        payload = data.draw(payloads(ir.Ref(model.name), declarations), label="payload")
        if data.draw(st.integers(0, 2), label="break it"):
            payload = data.draw(mutated(payload), label="broken")
        yield model, payload
