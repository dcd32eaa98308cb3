"""Pickling what the cache keeps: what was said and where by their constructors, and the normalised definitions'
schema objects without a call of their ``__init__``.

The IR's nodes, lowering's units and the passes' records are ``frozen.Frozen`` records, which pickle as a call of
their class with their fields' values, made in C. ``pickle`` stores a frozen dataclass with slots (a ``Diagnostic``,
a ``Location``: a run with nothing to do reads them, and imports no msgspec) as its class and the list of its
fields' values, and reads it back through ``dataclasses``' ``__setstate__``, which looks up the class's fields again
for every object; ``dumps`` stores it as a call of its class with its fields' values instead, as ``__reduce__``
would (2.2x as fast to read). A ``Schema`` (a ``dict`` with its place in a slot) would be read back through its
``__init__``: ``dumps`` stores it as a ``dict.__new__`` of its class, its place set in its slot and its keys in
place (a tenth of reading 12,000 of them back). ``pickle.loads`` reads either form.

The table is the pickler's own (``Pickler.dispatch_table``): nothing changes for other picklers.
"""

from __future__ import annotations

import copyreg
import io
import pickle
from collections.abc import Callable
from dataclasses import fields
from operator import attrgetter
from typing import Any

from ..diagnostics import Diagnostic, Location
from ..frontend.schema import Schema


Reducer = Callable[[Any], tuple[Any, ...]]


def dumps(value: object) -> bytes:
    """``pickle.dumps(value)`` at the highest protocol, a ``Diagnostic`` and a ``Location`` stored as a call of
    their class, a ``Schema`` made again without its ``__init__``."""
    out = io.BytesIO()
    pickler = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = _TABLE
    pickler.dump(value)
    return out.getvalue()


def by_constructor(cls: type) -> Reducer:
    """A reducer that stores an object of ``cls`` as ``cls(*its fields' values)``: every field of ``cls``
    is a parameter of its ``__init__``, in order, and ``__init__`` keeps each as given."""
    names = [f.name for f in fields(cls)]
    if any(not f.init for f in fields(cls)) or hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} is not made from its fields alone")
    values = attrgetter(*names)
    return lambda value: (cls, values(value))


_NEW: Callable[..., Any] = copyreg.__newobj__  # type: ignore[attr-defined]  # (typeshed leaves it out)
_TABLE: dict[type, Reducer] = {cls: by_constructor(cls) for cls in (Diagnostic, Location)}
_TABLE[Schema] = lambda schema: (_NEW, (Schema,), (None, {"_place": schema.place}), None, iter(schema.items()))
