"""Pickling what the cache keeps: lowering's units and the passes' records by their constructors (the IR's nodes
are ``frozen.Frozen`` records, which pickle as such a call and are read back in C).

``pickle`` stores a frozen dataclass with slots as its class and the list of its fields' values, and
reads it back through ``dataclasses``' ``__setstate__``, which looks up the class's fields again for
every object: half of reading a kept IR back. ``dumps`` stores such an object as a call of its class
with its fields' values instead, as ``__reduce__`` would: the same object read back, in half the time
(OpenAI's description: 2.2× to read, 1.6× to write). ``pickle.loads`` reads either form.

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
from ..frontend.schema import Definition, Schema
from ..lower.units import Unit
from ..passes.order import Placement
from ..passes.record import Kept, Record, Summaries

Reducer = Callable[[Any], tuple[Any, ...]]


def dumps(value: object) -> bytes:
    """``pickle.dumps(value)`` at the highest protocol, with the frozen dataclasses of ``CLASSES`` stored
    as calls of their classes."""
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
    if not names:
        return lambda value: (cls, ())
    if len(names) == 1:
        one = attrgetter(names[0])
        return lambda value: (cls, (one(value),))
    values = attrgetter(*names)
    return lambda value: (cls, values(value))


CLASSES: tuple[type, ...] = (Diagnostic, Location, Unit, Kept, Record, Summaries, Placement, Definition)
"""What the cache keeps many of besides the IR: what was said and where, lowering's units, the passes' records,
the definitions normalised."""
_TABLE: dict[type, Reducer] = {cls: by_constructor(cls) for cls in CLASSES}
_NEW: Callable[..., Any] = copyreg.__newobj__  # type: ignore[attr-defined]  # (typeshed leaves it out)
_TABLE[Schema] = lambda schema: (_NEW, (Schema,), (None, {"_place": schema.place}), None, iter(schema.items()))
"""A schema object made by ``dict.__new__``, its place set in its slot and its keys in place: no call of its
``__init__`` (a tenth of reading 12,000 of them back)."""
