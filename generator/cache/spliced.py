"""A module put together after an edit from the text the memo put together last time, not from every entry.

The memo (``memo``) puts a module together from its fragments' formatted stretches (``chunks.splice``). What
it last put together is on disk, as the run wrote it; the module's index says what that text was made of: the
head's stretch, and for each declaration its key, what it imports and its stretch without the text (a
``Layout``), with the digest of the whole text. Where the file still holds that very text (the digest says so),
each declaration whose key is the index's has its stretch in the file, at a place the layouts say: the module
is spliced from those and the fragments of the other declarations, and the memo reads the entries of those
others alone (a few of ``BUCKETS``), not the module's every entry. The text is what putting it together from
every entry gives, since each stretch is the entry's.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence

from ..render.imports import State
from .format.chunks import Kind, gap

Layout = tuple[Kind, int, Kind, int, int]
"""A stretch without its text: its first kind, blank lines before, last kind, blank lines after, and its length."""
Shape = tuple[Kind, int, Kind, int, str]
"""A stretch (``chunks.Stretch`` as a tuple)."""


def digest(data: bytes) -> str:
    """What a module's text is told apart by: the SHA-256 of its bytes (as written: UTF-8)."""
    return hashlib.sha256(data).hexdigest()


def layout(shape: Shape) -> Layout:
    first, before, last, after, text = shape
    return first, before, last, after, len(text)


def starts(head: Shape, layouts: Sequence[Layout]) -> list[int]:
    """Where each stretch of ``layouts`` starts in the module ``chunks.splice`` makes of them after ``head``."""
    found = []
    position, last, after = len(head[4]), head[2], head[3]
    for first, before, then, later, length in layouts:
        position += gap(last, first, after + before)
        found.append(position)
        position += length
        last, after = then, later
    return found


class Before:
    """What a module's text was (``text``), by the index it was put together with: each declaration's stretch,
    by name."""

    def __init__(self, text: str, head: Shape, names: Sequence[str], keys: Sequence[str],
                 layouts: Sequence[Layout], imports: Sequence[State], at: Sequence[int]) -> None:
        """``at``: where each declaration's stretch starts in ``text``, as the index kept it."""
        self.text = text
        self.head = head
        self.keys = dict(zip(names, keys))
        self._at: dict[str, tuple[Layout, State, int, int]] = dict(zip(names, zip(layouts, imports, at,
                                                                                range(len(at)))))
        """Each declaration's layout, imports, where its stretch starts in the text, and its place in the order."""
        ends = at[-1] + layouts[-1][4] if at else len(head[4])
        self.fits = len(at) == len(names) and ends == len(text) and text.startswith(head[4])
        """The index accounts for the text (else it is not used)."""

    @classmethod
    def of(cls, index: tuple[object, ...], written: Callable[[], bytes | None]) -> Before | None:
        """The text ``written`` gives (as bytes), if it is the one the ``index`` (``memo.Index``) was kept with;
        else ``None``."""
        _, head, names, keys, layouts, imports, at, made = index
        if not isinstance(head, tuple) or not (isinstance(names, tuple) and isinstance(keys, tuple) and isinstance(
                layouts, tuple) and isinstance(imports, tuple) and isinstance(at, tuple)):
            return None
        if not len(names) == len(keys) == len(layouts) == len(imports) == len(at):
            return None
        data = written()
        if data is None or digest(data) != made:
            return None
        try:
            before = cls(data.decode(), head, names, keys, layouts, imports, at)
        except (TypeError, ValueError, IndexError):  # (an index of another shape)
            return None
        return before if before.fits else None

    def same(self, names: Sequence[str], keys: Sequence[str]) -> frozenset[int]:
        """The declarations (by index; ``names`` and their ``keys``, in order) that have the key they had: their
        stretch is in the text."""
        had = self.keys
        return frozenset(i for i, (name, key) in enumerate(zip(names, keys)) if had.get(name) == key)

    def kept(self, names: Sequence[str]) -> tuple[list[State], list[Layout]]:
        """What each declaration of ``names`` imports, and its layout, in the text (``KeyError``: one not in it)."""
        at = [self._at[name] for name in names]
        return [found[1] for found in at], [found[0] for found in at]

    def splice(self, head: Shape, stretches: Sequence[tuple[str, Shape | None]]) -> tuple[str, list[int]]:
        """``chunks.splice`` of ``head`` and the declarations' stretches (by name: one made now, or ``None``:
        the one in the text), and where each starts in it. Declarations that stood one after the other in the
        text, as they do now, are one slice of it: the blank lines between them are the text's, which depend on
        those two alone (each starts where it did, moved by as much as the slice)."""
        parts = [head[4]]
        size = len(head[4])  # (of the parts so far, and of the slice being taken)
        found: list[int] = []
        last, after = head[2], head[3]
        run: list[int] = []  # (where the stretches taken together from the text start and end)
        previous = -2  # (the place in the text's order of the last declaration taken from it)
        moved = 0  # (how far the slice being taken moves what it holds)
        for name, stretch in stretches:
            if stretch is None:
                (first, before, then, later, length), _, start, order = self._at[name]
                if run and order == previous + 1:
                    run[1] = start + length
                else:
                    if run:
                        parts.append(self.text[run[0]:run[1]])
                    blank = gap(last, first, after + before)
                    parts.append("\n" * blank)
                    size += blank
                    moved = size - start
                    run = [start, start + length]
                found.append(start + moved)
                size = start + length + moved
                previous = order
            else:
                if run:
                    parts.append(self.text[run[0]:run[1]])
                run, previous = [], -2
                first, before, then, later, text = stretch
                blank = gap(last, first, after + before)
                parts += ["\n" * blank, text]
                found.append(size + blank)
                size += blank + len(text)
            last, after = then, later
        parts += [self.text[run[0]:run[1]]] if run else []
        return "".join(parts), found
