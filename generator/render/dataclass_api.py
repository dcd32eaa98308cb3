"""The module-level functions of every dataclass module, named and behaving as msgspec's.

``convert(data, type=T)`` reads JSON data (as ``json.loads`` gives it) as any type the module names
or that can be built from them: a class, an alias, a root union (a stream's events), ``list[T]``,
``dict[str, T]``, ``T | None``; exactly as ``T.from_dict`` reads a class, with its ``DecodeError``.
``to_builtins(value)`` writes a value back as JSON data, as ``obj.to_dict()`` writes a class. What
follows the marker line is copied after the converter (``dataclass_runtime``), whose names it uses.
"""

from __future__ import annotations

import typing

from .dataclass_runtime import _decode, _Read, _type, _write

# --- the converter ---

_T = typing.TypeVar("_T")
_READERS: dict[typing.Any, _Read] = {}  # by type, once worked out


@typing.overload
def convert(data: typing.Any, type: type[_T]) -> _T: ...
@typing.overload
def convert(data: typing.Any, type: typing.Any) -> typing.Any: ...
def convert(data: typing.Any, type: typing.Any) -> typing.Any:
    """``data`` as ``type``, or ``DecodeError`` (as ``msgspec.convert(data, type=…)``)."""
    try:
        read = _READERS.get(type)
    except TypeError:  # a type that cannot be a key: worked out each time
        return _decode(_type(type)[0], data)
    if read is None:
        read = _READERS.setdefault(type, _type(type)[0])
    return _decode(read, data)


def to_builtins(value: typing.Any) -> typing.Any:
    """``value`` as JSON data (for ``json.dumps``), as ``convert`` reads it."""
    return _write(value)
