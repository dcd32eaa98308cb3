"""A small structural check of parsed JSON against type hints.

For the stdlib variants where msgspec cannot build a decoder (a union of several dataclasses
or TypedDicts): checks what a decoder would, by the generated module's own annotations.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any, Literal, NotRequired, Required, Union, get_args, get_origin, get_type_hints, is_typeddict


class Mismatch(Exception):
    pass


def check(value: Any, hint: Any, where: str = "$") -> None:
    """Raise ``Mismatch`` naming the place where ``value`` does not fit ``hint``."""
    origin = get_origin(hint)
    if hint is Any:
        return
    if hint is None or hint is type(None):
        _expect(value is None, where, "null", value)
    elif origin in (Union, types.UnionType):
        for member in get_args(hint):
            try:
                check(value, member, where)
                return
            except Mismatch:
                continue
        raise Mismatch(f"{where}: {value!r} fits no member of {hint}")
    elif origin is Literal:
        _expect(any(value == v and type(value) is type(v) for v in get_args(hint)), where, str(hint), value)
    elif origin is list:
        _expect(isinstance(value, list), where, "array", value)
        for i, item in enumerate(value):
            check(item, get_args(hint)[0], f"{where}[{i}]")
    elif origin is dict:
        _expect(isinstance(value, dict), where, "object", value)
        for key, item in value.items():
            check(item, get_args(hint)[1], f"{where}.{key}")
    elif is_typeddict(hint):
        _typeddict(value, hint, where)
    elif dataclasses.is_dataclass(hint):
        _dataclass(value, hint, where)
    elif hint is float:
        _expect(isinstance(value, (int, float)) and not isinstance(value, bool), where, "number", value)
    elif hint in (str, int, bool):
        _expect(type(value) is hint, where, hint.__name__, value)
    else:
        raise TypeError(f"structural check does not know {hint!r}")


def _typeddict(value: Any, hint: Any, where: str) -> None:
    _expect(isinstance(value, dict), where, "object", value)
    for key, field_hint in get_type_hints(hint, include_extras=True).items():
        origin = get_origin(field_hint)
        if origin in (NotRequired, Required):
            field_hint = get_args(field_hint)[0]
        if key not in value:
            _expect(key not in hint.__required_keys__, where, f"key {key!r}", "nothing")
            continue
        check(value[key], field_hint, f"{where}.{key}")


def _dataclass(value: Any, hint: Any, where: str) -> None:
    _expect(isinstance(value, dict), where, "object", value)
    hints = get_type_hints(hint)
    for f in dataclasses.fields(hint):
        wire = f.metadata.get("wire_name", f.name)
        if wire not in value:
            has_default = f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
            _expect(has_default, where, f"key {wire!r}", "nothing")
            continue
        check(value[wire], hints[f.name], f"{where}.{wire}")


def _expect(ok: bool, where: str, expected: str, got: Any) -> None:
    if not ok:
        raise Mismatch(f"{where}: expected {expected}, got {got!r}")


__all__ = ["Mismatch", "check", "typing"]
