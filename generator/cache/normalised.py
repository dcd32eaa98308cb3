"""Each definition of a document read piece by piece kept in its normal form (``openapi.NormalForm``): after an
edit of one component, normalising takes the others as the last run left them, and rewrites that one.

A definition's normal form is a pure function of the text it was read from (its pieces: ``places``),
where it is in the document, what the dialect says it reads besides (``openapi.Keep``: the context, the
same for every definition of the document, and its own: its name) and the generator. An entry is taken
when its source, its own and the context are this run's. The entries of one project and document are kept in ``BUCKETS`` values by key, each replaced
when one of its definitions was made anew or went: an edit stores a bucket, not the document.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable

from ..diagnostics import Location
from ..frontend.dialects.openapi import NormalForm
from . import pickled
from .places import Places
from .store import Cache, bucket_of, digest, grouped

NAMESPACE = "normalised"
SCHEME = "3"
BUCKETS = 64

Entry = tuple[tuple[str, str], NormalForm]
"""A definition's source and what the dialect said of it alone (``openapi.Keep``'s ``own``); its normal form."""


class Normalised:
    """The normal forms of a project's documents in ``store``; ``salt``: the generator's digest; ``scope``: whose
    entries they are (the project and its configuration)."""

    def __init__(self, store: Cache, salt: str, scope: str) -> None:
        self.store = store
        self.salt = salt
        self.scope = scope

    def keeper(self, places: Places) -> Keeper:
        """The ``openapi.Keep`` of one run over the document ``places`` were read for."""
        slots = [digest(NAMESPACE, SCHEME, self.scope, places.display, str(b)) for b in range(BUCKETS)]
        return Keeper(self.store, self.salt, places, slots)


class Keeper:
    """Gives each definition's normal form from the buckets of the run before, or made; ``store`` keeps them."""

    def __init__(self, cache: Cache, salt: str, places: Places, slots: list[str]) -> None:
        self.cache = cache
        self.salt = salt
        self.places = places
        self.slots = slots
        self.said = ""
        """The context the dialect said (the first definition's: the same for every one of a document)."""
        self.context = ""
        self.before: dict[str, Entry] | None = None
        self.now: dict[str, Entry] = {}
        self.made: set[str] = set()

    def __call__(self, key: str, where: Location, context: str, own: str, make: Callable[[], NormalForm]
                 ) -> NormalForm:
        read = self.places.source(key) if where.path == self.places.display and where.pointer == key[1:] else None
        if read is None:  # (a definition of another file, or of no piece: made, never kept)
            return make()
        source = (read, own)
        if self.before is None:
            self.said, self.context = context, digest(self.salt, context)
            self.before = self._read()
        elif context != self.said:  # (one document, one context: a caller's mistake)
            raise ValueError("one keeper is for the definitions of one document")
        found = self.before.get(key)
        if found is None or found[0] != source:
            found = (source, make())
            self.made.add(key)
        self.now[key] = found
        return found[1]

    def made_from(self) -> dict[str, str]:
        """What each definition given was made from, by key: the digests of the context and the generator and of
        its source, then its own (what its normal form is a pure function of), for the caches of what follows
        from it alone. (Said, not digested: the two digests are of one length, and a cache digests it with its key.)"""
        return {key: f"{self.context} {read} {own}" for key, ((read, own), _) in self.now.items()}

    def store(self) -> None:
        """Keeps the buckets where a definition was made anew, or went."""
        if self.before is None:
            return
        changed = {_bucket(key) for key in self.made} | {_bucket(key) for key in self.before.keys() - self.now.keys()}
        self.cache.put_many(NAMESPACE, {self.slots[b]: pickled.dumps((self.context, entries))
                                        for b, entries in grouped(self.now, changed, _bucket).items()})

    def _read(self) -> dict[str, Entry]:
        """The entries of every bucket kept with this context."""
        found = self.cache.get_many(NAMESPACE, self.slots)
        entries: dict[str, Entry] = {}
        for slot in self.slots:
            try:
                kept = pickle.loads(found[slot]) if slot in found else None
            except Exception:  # another version of the classes, a damaged entry: a miss
                continue
            if isinstance(kept, tuple) and len(kept) == 2 and kept[0] == self.context and isinstance(kept[1], dict):
                entries.update((key, entry) for key, entry in kept[1].items()
                               if isinstance(entry, tuple) and len(entry) == 2 and isinstance(entry[1], NormalForm))
        return entries


def _bucket(key: str) -> int:
    return bucket_of(key, BUCKETS)
