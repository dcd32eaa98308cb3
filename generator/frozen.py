"""The package's immutable records (the IR's nodes, what the cache keeps of a run, the render's view): ``Frozen``,
with ``field``, ``replace`` and ``fields`` for them.

A ``Frozen`` class is a frozen ``msgspec.Struct``: a frozen dataclass in all a reader sees (its fields in order
with their defaults, its ``repr``, equality and hash by value, pattern matching, no ``__dict__``), but its class
is made in C, where a dataclass compiles five methods as its module is imported (0.5 ms a class), and its
objects are made, and read back from a pickle, in C (ten and four times faster than a frozen dataclass with
slots): an edit run reads the IR of every declaration back from the cache. (Nothing to do with the msgspec
variant of the output: msgspec is one of the generator's own dependencies.)
"""

from __future__ import annotations

from msgspec import Struct, field as msgspec_field, structs

field = msgspec_field
"""``dataclasses.field`` for a ``Frozen`` class's field (``default_factory``)."""
replace = structs.replace
"""``dataclasses.replace`` for a ``Frozen`` object."""
fields = structs.fields
"""``dataclasses.fields`` of a ``Frozen`` class or object (each with its ``name``)."""


class Frozen(Struct, frozen=True):
    """The base of a frozen record class: ``class Field(Frozen, frozen=True)`` (its subclasses are frozen anyway;
    mypy reads it where it is written)."""
