"""Where each part of a document that overlays mended was written: in the document, or in an overlay.

Diagnostics name a place by a JSON pointer into the document as the stages saw it, after the
overlays. ``Origins.place`` turns that into the place the text came from: a part of the vendored
document keeps its pointer there, even where an overlay removed an earlier entry of its array (the
entry's old index), and a part an overlay added points into the overlay file
(``fix.yaml#/actions/0/update/required/0``).

Only what an action changed is recorded: keys an overlay set in an object, and the origin of every
entry of an array an action added to or removed from. Everything else is found by walking the
pointer from the nearest recorded place.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ...diagnostics import Diagnostic, Location, pointer


class Origins:
    """The origins of the parts of ``document`` (read from ``display``), kept while overlays change it."""

    def __init__(self, display: str, document: Any) -> None:
        self.display = display
        self.document = document
        self._keys: dict[int, tuple[dict[Any, Any], dict[Any, Location]]] = {}
        """Objects an overlay set keys of: id → (the object, kept alive; key → where its value was written)."""
        self._items: dict[int, tuple[list[Any], list[Location]]] = {}
        """Arrays an action changed: id → (the array; where each entry was written)."""

    def place(self, at: str) -> Location:
        """Where the value at pointer ``at`` (in the document as mended) was written; a pointer past what
        the document holds keeps its rest."""
        node, here = self.document, Location(self.display)
        tokens = [t.replace("~1", "/").replace("~0", "~") for t in at.split("/")[1:]] if at else []
        for n, token in enumerate(tokens):
            if isinstance(node, dict) and token in node:
                keys = self._keys.get(id(node))
                here = keys[1][token] if keys is not None and token in keys[1] else here.child(token)
                node = node[token]
            elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
                items = self._items.get(id(node))
                here = items[1][int(token)] if items is not None else here.child(int(token))
                node = node[int(token)]
            else:
                return here.child(*tokens[n:])
        return here

    def relocate(self, diagnostic: Diagnostic) -> Diagnostic:
        """``diagnostic`` at the place its text came from."""
        where = diagnostic.location
        if where.path != self.display or where.line is not None or not where.in_document:
            return diagnostic
        found = self.place(where.pointer)
        if (found.path, found.pointer) == (where.path, where.pointer):
            return diagnostic
        return dataclasses.replace(diagnostic, location=dataclasses.replace(where, path=found.path,
                                                                            pointer=found.pointer))

    # Recording what actions change (``path``: the tokens from the root to the object or array).

    def set_key(self, target: dict[Any, Any], key: Any, source: Location) -> None:
        """``target[key]`` was set to a value written at ``source``."""
        self._keys.setdefault(id(target), (target, {}))[1][key] = source

    def drop_key(self, target: dict[Any, Any], key: Any) -> None:
        keys = self._keys.get(id(target))
        if keys is not None:
            keys[1].pop(key, None)

    def track(self, array: list[Any], path: tuple[Any, ...]) -> list[Location]:
        """The origin of each entry of ``array`` (at ``path``), recorded from now on."""
        if id(array) not in self._items:
            start = self.place(pointer(*path))
            self._items[id(array)] = (array, [start.child(i) for i in range(len(array))])
        return self._items[id(array)][1]
