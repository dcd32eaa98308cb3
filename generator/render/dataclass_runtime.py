"""The converter each dataclass module carries: ``from_dict`` and ``to_dict`` for its classes.

What follows the marker line is copied after the imports (the ``import`` lines above it) of every
dataclass module with a class; ``dataclass_formats`` adds formatted strings. It reads type hints,
field ``metadata`` and class keywords as docs/semantics.md says: stdlib only, black's format, its
top-level names reserved (``names.OUTPUT_NAMES``); tests/test_dataclass_conver*.py check it.
"""

from __future__ import annotations

import dataclasses
import enum
import threading
import typing

# --- the converter ---


class DecodeError(ValueError):
    """Data that does not fit its class; the message ends with where (`` - at `$.a[0]` ``)."""


class SchemagenModel:
    """The base of the package's dataclasses: ``from_dict`` reads JSON data, ``to_dict`` writes it."""

    __schemagen__: typing.ClassVar[tuple[str | None, str | int | None, bool]]

    def __init_subclass__(
        cls,
        *,
        tag_field: str | None = None,
        tag: str | int | None = None,
        forbid_unknown_fields: bool = False,
    ) -> None:
        super().__init_subclass__()
        cls.__schemagen__ = (tag_field, tag, forbid_unknown_fields)

    @classmethod
    def from_dict(cls, data: typing.Any) -> typing.Self:
        """``data`` (as ``json.loads`` gives it) as this class, or ``DecodeError``."""
        return typing.cast(typing.Self, _decode(_plan(cls).read, data))

    def to_dict(self) -> dict[str, typing.Any]:
        """This object as JSON data (for ``json.dumps``), as ``from_dict`` reads it."""
        return _plan(type(self)).write(self)


def _decode(read: _Read, data: typing.Any) -> typing.Any:
    """What ``read`` makes of ``data``, or ``DecodeError`` saying why and where."""
    try:
        return read(data)
    except _Fail as fail:
        where = "".join(reversed(fail.path))
        raise DecodeError(fail.why + (f" - at `${where}`" if where else "")) from None


class _Fail(Exception):
    """Why a value does not fit, and the path to it (innermost step first)."""

    def __init__(self, why: str, *path: str) -> None:
        self.why, self.path = why, list(path)


_Read = typing.Callable[[typing.Any], typing.Any]
# how a type reads, the JSON types it takes (ranked), their names
_Type = tuple[_Read, dict[type, int], set[str]]
_JSON: dict[type, str] = {bool: "bool", int: "int", float: "float", str: "str"}
_JSON.update({list: "array", tuple: "array", dict: "object", type(None): "null"})
_ORDER = (
    "bool int float str bytes datetime date time duration uuid decimal object array"
)
_UNIONS = (typing.Union, type(int | str))
_FORMATS: dict[typing.Any, _Type] = {}  # filled where the module has formatted strings
_WRITERS: dict[typing.Any, typing.Callable[[typing.Any], typing.Any]] = {}
_PLANS: dict[type[typing.Any], _Plan] = {}  # complete, with those they use
_NEW: dict[type[typing.Any], _Plan] = {}  # being worked out, under _LOCK
_LOCK = threading.RLock()


def _expected(names: typing.Iterable[str], value: typing.Any) -> _Fail:
    kind, wanted = value.__class__, [n for n in (*_ORDER.split(), "null") if n in names]
    got = _JSON.get(kind, kind.__name__)
    if kind is int and not -(2**63) <= value < 2**64:
        got = "float"  # as msgspec calls an integer beyond 64 bits
    return _Fail(f"Expected `{' | '.join(wanted)}`, got `{got}`")


def _plan(cls: type[typing.Any]) -> _Plan:
    if (plan := _PLANS.get(cls)) is None:
        with _LOCK:  # one thread works plans out; others use them once complete
            outer = not _NEW
            try:
                plan = _PLANS.get(cls) or _NEW.get(cls) or _Plan(cls)
                if outer:
                    _PLANS.update(_NEW)
            finally:
                if outer:
                    _NEW.clear()
    return plan


class _Plan:
    """How one class reads and writes its fields, worked out from them on first use."""

    def __init__(self, cls: type[typing.Any]) -> None:
        _NEW[cls] = self  # first: a field of this class may hold one
        self.cls, self.tag_name, hints = cls, None, typing.get_type_hints(cls)
        self.tag_field, self.tag, self.closed = cls.__schemagen__
        self.check = _choice([(self.tag, self.tag)], tag=True)[0]
        # wire name: name, read, nullable
        self.fields: dict[str, tuple[str, _Read, bool]] = {}
        self.required: list[tuple[str, str]] = []
        self.defaults: dict[str, typing.Any] = {}
        self.factories: list[tuple[str, typing.Any]] = []
        # name, wire name, plain, mode (1: None is absent; 2: unless read)
        self.writes: list[tuple[str, str, bool, int]] = []
        for f in dataclasses.fields(cls):
            wire, hint, mode = f.metadata.get("wire_name", f.name), hints[f.name], 0
            if f.default is None and not f.metadata.get("null_default"):
                mode = 2 if f.metadata.get("nullable") else 1
            found = (
                typing.get_args(hint) if typing.get_origin(hint) in _UNIONS else (hint,)
            )
            members = tuple(m for m in found if mode != 1 or m is not type(None))
            read = _union(members)[0]
            if wire == self.tag_field:
                self.tag_name, read = f.name, self.check
            self.fields[wire] = (f.name, read, mode == 2)
            if f.default is f.default_factory is dataclasses.MISSING:
                self.required.append((wire, f.name))
            elif f.default is dataclasses.MISSING:
                self.factories.append((f.name, f.default_factory))
            else:
                self.defaults[f.name] = f.default
            self.writes.append((f.name, wire, _plain(hint), mode))

    def read(self, data: typing.Any) -> typing.Any:
        if data.__class__ is not dict:
            raise _expected(["object"], data)
        values: dict[str, typing.Any] = {}
        nulls: list[str] = []
        fields, closed = self.fields, self.closed
        for key, item in data.items():
            if (found := fields.get(key)) is None:
                if key == self.tag_field:  # a tag no field holds: checked all the same
                    found = ("", self.check, False)
                elif closed:
                    raise _Fail(f"Object contains unknown field `{key}`")
                else:
                    continue
            name, read, nullable = found
            try:
                values[name] = read(item)
            except _Fail as failure:
                failure.path.append(f".{key}")
                raise
            if nullable and item is None:
                nulls.append(name)
        values.pop("", None)
        value = object.__new__(self.cls)  # what __init__ does, for less
        if len(values) < len(fields):
            for wire, name in self.required:
                if name not in values and name != self.tag_name:
                    raise _Fail(f"Object missing required field `{wire}`")
            if self.tag_name is not None and self.tag_name not in values:
                values[self.tag_name] = self.tag  # as msgspec: the class knows its tag
            value.__dict__.update(self.defaults)
            for name, factory in self.factories:
                if name not in values:
                    values[name] = factory()
        value.__dict__.update(values)
        if nulls:  # written back as null by `to_dict`: a None of theirs is not "absent"
            value.__dict__["__schemagen_nulls__"] = frozenset(nulls)
        return value

    def write(self, value: typing.Any) -> dict[str, typing.Any]:
        out: dict[str, typing.Any] = {}
        if self.tag_field is not None and self.tag_name is None:
            out[self.tag_field] = self.tag
        nulls = getattr(value, "__schemagen_nulls__", ())
        for name, wire, plain, mode in self.writes:
            if (item := getattr(value, name)) is not None:
                out[wire] = item if plain else _write(item)
            elif mode == 0 or (mode == 2 and name in nulls):
                out[wire] = None
        return out


def _type(hint: typing.Any) -> _Type:
    """How ``hint`` reads a value, the JSON types it takes (each ranked as msgspec ranks them in
    a union: ``int`` takes an integer before a literal, ``float`` or ``Decimal``), its names.
    """
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in _UNIONS:
        return _union(args)
    hint = type(None) if hint is None else hint  # as `list[None]` holds it
    if hint is typing.Any:
        return (lambda value: value), dict.fromkeys(_JSON, 9), set()
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        args, origin = tuple[typing.Any, ...](hint), typing.Literal
    if origin is typing.Literal:
        return _choice([(getattr(a, "value", a), a) for a in args])  # enums by value
    if origin in (list, tuple, dict):
        return (
            _container(origin, args),
            {dict if origin is dict else list: 0},
            {_JSON[origin]},
        )
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _plan(hint).read, {dict: 0}, {"object"}
    if hint in _FORMATS:
        return _FORMATS[hint]
    kind = typing.cast(type, hint)

    def read(value: typing.Any) -> typing.Any:
        if type(value) is kind:
            return value
        if kind is float and type(value) is int:
            return float(value)
        raise _expected([_JSON[kind]], value)

    return read, ({float: 0, int: 2} if kind is float else {kind: 0}), {_JSON[kind]}


def _choice(pairs: list[tuple[typing.Any, typing.Any]], tag: bool = False) -> _Type:
    """A literal's or an enum's (value, what it reads as); a tag's, in msgspec's words for a tag
    (which quote an unknown tag string as it is, not as its repr)."""
    allowed: dict[typing.Any, typing.Any] = {(v.__class__, v): a for v, a in pairs}
    kinds: dict[type, int] = {k: 1 for k, _ in allowed}

    def read(value: typing.Any) -> typing.Any:
        if type(value) not in kinds:
            names = [_JSON[k] for k in kinds]
            raise _Fail(f"Expected `{names[0]}`") if tag else _expected(names, value)
        if (type(value), value) not in allowed:
            shown = f"'{value}'" if tag and type(value) is str else repr(value)
            raise _Fail(f"Invalid {'value' if tag else 'enum value'} {shown}")
        return allowed[type(value), value]

    return read, kinds, {_JSON[k] for k in kinds}


def _container(origin: type, args: tuple[typing.Any, ...]) -> _Read:
    items = [_type(a)[0] for a in args]
    kinds: set[typing.Any] = set(args[-1:]) & {str, int, bool}

    def read(data: typing.Any) -> typing.Any:
        if data.__class__ is not (list if origin is tuple else origin):
            raise _expected([_JSON[origin]], data)
        value: typing.Any = data
        if origin is tuple and len(value) != len(items):
            raise _Fail(f"Expected `array` of length {len(items)}")
        try:
            if origin is dict:
                if kinds and set(map(type, value.values())) <= kinds:
                    return dict(value)  # strings, integers or booleans: as they are
                return {k: items[1](v) for k, v in value.items()}
            if origin is list:
                if kinds and set(map(type, value)) <= kinds:
                    return list(value)
                return [items[0](v) for v in value]
            return tuple(read(v) for read, v in zip(items, value))
        except _Fail as failure:
            index = 0
            array: typing.Any = () if origin is dict else value
            for index, item in enumerate(array):
                try:  # the first item that does not fit
                    items[0 if origin is list else index](item)
                except _Fail:
                    break
            failure.path.append("[...]" if origin is dict else f"[{index}]")
            raise

    return read


def _union(members: tuple[typing.Any, ...]) -> _Type:
    """A value goes to the member that takes its JSON type (by rank); where several do, to the
    class its tag names (classes tagged on one field), else to the first whose required keys (a
    class's tag among them) and types fit."""
    if len(members) == 1:
        return _type(members[0])
    names: set[str] = set()
    classes: list[typing.Any] = [m for m in members if dataclasses.is_dataclass(m)]
    # rank, schema order, reader, the tag field it needs among several (untagged)
    ranked: dict[type, list[tuple[int, int, _Read, str | None]]] = {}
    for index, member in enumerate(members):
        reader, kinds, named = _type(member)
        names |= named
        needs = getattr(member, "__schemagen__")[0] if member in classes else None
        for kind, rank in kinds.items():
            ranked.setdefault(kind, []).append((rank, index, reader, needs))
    table = {kind: sorted(c, key=lambda t: t[:2]) for kind, c in ranked.items()}
    tags = {getattr(c, "__schemagen__")[0] for c in classes}
    by_tag = {getattr(c, "__schemagen__")[1]: _plan(c).read for c in classes}
    tagged = len(classes) == len(table.get(dict, ())) > 1 == len(tags)
    field = tags.pop() if tagged else None
    check = _choice([(t, t) for t in by_tag], tag=True)[0]
    said = " | ".join(
        getattr(m, "__name__", str(m).replace("typing.", "")) for m in members
    )

    def read(value: typing.Any) -> typing.Any:
        if (candidates := table.get(value.__class__)) is None:
            raise _expected(names, value)
        if len(candidates) == 1:
            return candidates[0][2](value)
        if field is not None:  # as msgspec reads a union of tagged Structs
            if field not in value:
                raise _Fail(f"Object missing required field `{field}`")
            try:
                tag = check(value[field])
            except _Fail as failure:
                raise _Fail(failure.why, f".{field}") from None
            return by_tag[tag](value)
        for *_, candidate, needs in candidates:
            try:  # a member's tag is a required key here, not taken as its own
                if needs is None or needs in value:
                    return candidate(value)
            except _Fail:
                pass
        raise _Fail(f"`{_JSON[type(value)]}` fits no member of `{said}`")

    return read, {kind: min(c)[0] for kind, c in ranked.items()}, names


def _plain(hint: typing.Any) -> bool:
    """Whether a value of ``hint`` is JSON data as it is (containers are copied: not plain)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint in (str, int, float, bool, type(None), typing.Any):
        return True
    return origin is typing.Literal or (origin in _UNIONS and all(map(_plain, args)))


def _write(value: typing.Any) -> typing.Any:
    """``value`` as JSON data, by its type."""
    kind = value.__class__
    if kind is list or kind is tuple:
        array: list[typing.Any] = [_write(v) for v in value]
        return array if kind is list else tuple(array)
    if kind is dict:
        return {k: _write(v) for k, v in value.items()}
    if kind in _JSON:
        return value
    if kind in _WRITERS:
        return _WRITERS[kind](value)
    if isinstance(value, enum.Enum):
        return value.value
    return _plan(kind).write(value)
