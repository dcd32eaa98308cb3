"""What the render memo (``memo``) keeps, in builtins alone, and how it is checked when read back: an entry
of another shape (another version's, a damaged cache) is a miss."""

from __future__ import annotations

import pickle

from .. import render
from ..render.imports import State
from .format.chunks import KINDS, Kind, Stretch
from .spliced import Layout

Shape = tuple[Kind, int, Kind, int, str] | None | tuple[()]
"""A fragment's ``Stretch`` as a tuple; ``None``: it is not one (``Session.stretches``); ``()``: not known yet."""
Entry = tuple[str, State, Shape]
"""A fragment as the cache keeps it: its text, imports and formatted stretch, in builtins alone (a bucket
of them is read by one ``pickle.loads``, with no call per fragment)."""

Index = tuple[str, Shape, tuple[str, ...], tuple[str, ...], tuple[Layout, ...], tuple[State, ...], tuple[int, ...], str]
"""What a module put together from entries is: the passes' record it was made from (``Unchanged.now``), its
head's stretch, its declarations' names and its entries' keys, in order (so that its text can be put together
again without its IR: ``restore``; and an unchanged declaration's key read, not worked out again: ``plan``);
then each entry's layout, imports and where its stretch starts in the text, and the digest of the text (so that
after an edit the module is spliced from that text, where the file still holds it: ``spliced``)."""


_STRETCH = (str, int, str, int, str)


def index_of(data: bytes | None) -> Index | None:
    try:
        index = pickle.loads(data) if data is not None else None
    except Exception:
        return None
    return index if isinstance(index, tuple) and len(index) == 8 else None


def entries_of(data: bytes | None) -> dict[str, Entry]:
    """The entries a run kept for a module and variant: each one's key, text and imports."""
    if data is None:
        return {}
    try:
        entries = pickle.loads(data)
    except Exception:
        return {}
    return entries if isinstance(entries, dict) else {}


def shape_of(stretch: Stretch | None) -> Shape:
    return None if stretch is None else tuple(stretch)  # type: ignore[return-value]


def fragment_of(entry: Entry | None) -> render.Fragment | None:
    """The fragment an entry holds; ``None`` for none, or one of another shape (a damaged cache)."""
    if not isinstance(entry, tuple) or len(entry) != 3 or not isinstance(entry[0], str) or not _state(entry[1]) \
            or not _known(entry[2]):
        return None
    return render.Fragment(entry[0], entry[1])


def _known(shape: object) -> bool:
    """``shape`` has the shape of a ``Shape``."""
    return shape is None or shape == () or (type(shape) is tuple and tuple(map(type, shape)) == _STRETCH
                                            and shape[0] in KINDS and shape[2] in KINDS)


def _state(value: object) -> bool:
    """``value`` has the shape of an ``Imports.state()``."""
    return isinstance(value, tuple) and len(value) == 3 and all(isinstance(part, tuple) for part in value)
