"""The IR's nodes: what the schema means, in no dialect and for no backend.

Every node is a small frozen record (``frozen.Frozen``: a frozen dataclass in all a reader sees, made in C).
"May be absent" (``Field.required``), "may be null" (a ``Null`` member of a ``Union``) and "has a default"
(``Field.default``) are three separate facts; each backend decides how to say them.
"""

from __future__ import annotations

from typing import Literal as _Literal, TypeAlias

from ..frozen import Frozen

JSON: TypeAlias = "None | bool | int | float | str | list[JSON] | dict[str, JSON]"
ScalarKind = _Literal["str", "int", "float", "bool"]
LiteralValue: TypeAlias = "str | int | bool | None"
#: What a string or number holds beyond its JSON type (each backend picks a Python type for it).
Format = _Literal["date-time", "date", "time", "duration", "uuid", "decimal", "base64"]
FORMATS: tuple[Format, ...] = ("date-time", "date", "time", "duration", "uuid", "decimal", "base64")


class Scalar(Frozen, frozen=True):
    kind: ScalarKind
    format: Format | None = None


class AnyType(Frozen, frozen=True):
    """Any JSON value."""


class Null(Frozen, frozen=True):
    """The JSON null value."""


class Ref(Frozen, frozen=True):
    """A named declaration of this module, or of the output package ``module`` (another input)."""

    name: str
    module: str | None = None


class Array(Frozen, frozen=True):
    item: Type


class Map(Frozen, frozen=True):
    """A JSON object with arbitrary string keys."""

    value: Type


class Tuple(Frozen, frozen=True):
    """A JSON array of exactly these items, in this order."""

    items: tuple[Type, ...]


class Constraints(Frozen, frozen=True):
    """Limits on a value beyond its type; ``None`` means no limit."""

    min_length: int | None = None
    """Characters of a string, items of an array, or keys of an object."""
    max_length: int | None = None
    pattern: str | None = None
    """A regular expression a string must contain a match of."""
    ge: int | float | None = None
    gt: int | float | None = None
    le: int | float | None = None
    lt: int | float | None = None
    multiple_of: int | float | None = None
    unique_items: bool = False


class Constrained(Frozen, frozen=True):
    type: Type
    constraints: Constraints


class Union(Frozen, frozen=True):
    members: tuple[Type, ...]
    tag_field: str | None = None
    """The wire name of the property whose value tells the (model) members apart, if the schema names one."""
    tags: tuple[tuple[str, str], ...] = ()
    """(member declaration, its value of ``tag_field``) where the schema says so beyond a ``const``."""


class Literal(Frozen, frozen=True):
    values: tuple[LiteralValue, ...]


Type: TypeAlias = Scalar | AnyType | Null | Ref | Array | Map | Tuple | Constrained | Union | Literal


class Default(Frozen, frozen=True):
    """A default value, as JSON."""

    value: JSON


class Field(Frozen, frozen=True):
    name: str
    """The Python identifier."""
    wire_name: str
    """The key in the JSON payload."""
    type: Type
    required: bool
    default: Default | None = None
    doc: str | None = None


class Tag(Frozen, frozen=True):
    """This model is one member of a tagged union: ``field`` (a wire name) holds ``value``."""

    field: str
    value: str | int


class Origin(Frozen, frozen=True):
    """Where a declaration was read from, for messages: a file and a JSON pointer in it."""

    path: str
    pointer: str


class Model(Frozen, frozen=True):
    name: str
    fields: tuple[Field, ...]
    doc: str | None = None
    closed: bool = False
    """Unknown keys are an error (``additionalProperties: false``)."""
    tag: Tag | None = None
    inline: bool = False
    """Declared inside another schema rather than under a name of its own."""
    origin: Origin | None = None


class Alias(Frozen, frozen=True):
    name: str
    type: Type
    doc: str | None = None
    inline: bool = False
    origin: Origin | None = None


Declaration: TypeAlias = Model | Alias


class Module(Frozen, frozen=True):
    declarations: tuple[Declaration, ...]
    root: str | None = None
    """The name of the declaration that stands for the whole document, if any."""


def union(*types: Type) -> Type:
    """A flat union without repeats, ``None`` last; one member is that member. A member within limits
    beside the same type without them adds nothing (``float | float >= 0`` is ``float``)."""
    unique = dict.fromkeys(m for t in types for m in (t.members if isinstance(t, Union) else (t,)))
    members = [m for m in unique if not (isinstance(m, Constrained) and m.type in unique)]
    if Null() in unique:
        members.remove(Null())
        members.append(Null())
    if any(isinstance(m, AnyType) for m in members):
        return AnyType()
    return members[0] if len(members) == 1 else Union(tuple(members))
