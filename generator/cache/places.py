"""What each definition of a document read piece by piece (``yaml_pieces``) was read from.

A definition's *source* is the digest of the pieces at, within or around its place (its own entry, the
entries cut out of it, the key lines of the mappings it is in), in the document's order; the
*context* is that of the pieces around no definition (the document's other parts, its operations, the
text of its keys). The caches of a document's definitions are keyed by them: a definition whose
pieces are the same text was read from the same text (``cache.normalised``, ``cache.definitions``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ..diagnostics import tokens
from .store import digest, digests
from .yaml_pieces import Sources


class Places:
    """The pieces of the document ``display`` (``yaml_pieces.Sources``), by the places of what they hold."""

    def __init__(self, display: str, pieces: Sources) -> None:
        self.display = display
        self.pieces = pieces
        self._at = {path: i for i, (path, _) in enumerate(pieces)}
        self._below: dict[tuple[str, ...], list[int]] = {}
        for i, (path, _) in enumerate(pieces):
            for length in range(len(path)):
                self._below.setdefault(path[:length], []).append(i)
        self._found: dict[str, tuple[str, list[int]] | None] = {}
        self._prefixes: dict[tuple[int, ...], Callable[[str], str]] = {}

    def source(self, key: str) -> str | None:
        """The source of the definition ``key`` (``#`` and a pointer into the document); ``None`` where no
        piece is at, within or around its place (a key of another file)."""
        found = self._read(key)
        return None if found is None else found[0]

    def context(self, keys: Iterable[str]) -> str:
        """The digest of the pieces at, within or around the place of none of ``keys``, each with its path."""
        used: set[int] = set()
        for key in keys:
            found = self._read(key)
            used.update(() if found is None else found[1])
        return digest(*("/".join(path) + "=" + source for i, (path, source) in enumerate(self.pieces) if i not in used))

    def _read(self, key: str) -> tuple[str, list[int]] | None:
        if key not in self._found:
            found = None
            if key == "#" or key.startswith("#/"):
                place = tuple(tokens(key[1:]))
                above = tuple(self._at[place[:length]] for length in range(len(place)) if place[:length] in self._at)
                # (in the document's order: the key lines of the mappings it is in, its entry, the entries cut from it)
                indexes = [*above, *([self._at[place]] if place in self._at else ()), *self._below.get(place, ())]
                if len(indexes) == len(above) + 1:  # (most often: the siblings' key lines above are one prefix)
                    found = (self._under(above)(self.pieces[indexes[-1]][1]), indexes)
                elif indexes:
                    found = (digest(*(self.pieces[i][1] for i in indexes)), indexes)
            self._found[key] = found
        return self._found[key]

    def _under(self, above: tuple[int, ...]) -> Callable[[str], str]:
        """``digests`` of the pieces ``above``: what every place under the same key lines starts from."""
        found = self._prefixes.get(above)
        if found is None:
            found = self._prefixes[above] = digests(*(self.pieces[i][1] for i in above))
        return found
