"""The inline models declared so far, by place and content: what ``Lowering.inline`` shares.

Folding copies a definition's subschemas into other parents, and may copy one place afresh each
time it is met (a union beside what it shares, an object among other types). A copy with the same
content at the same place is the same schema concept, so it is the same model, whichever parent
meets it and whether or not folding made a new object of it. That keeps the declarations a function
of the schemas, not of the order in which folding's results were remembered.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..frontend.schema import Schema, canonical_text


class Places:
    def __init__(self) -> None:
        self._first: dict[tuple[str, str], tuple[Schema, str, str]] = {}
        """The first model declared at each place: ``(schema, name, definition)``."""
        self._texts: dict[tuple[str, str], dict[str, tuple[str, str]]] = {}
        """At a place met with more than one schema object: ``(name, definition)`` by the schema's text."""

    def get(self, schema: Schema) -> tuple[str, str] | None:
        """The model declared for ``schema``'s place and content, and the definition that declared it."""
        place = (schema.loc.path, schema.loc.pointer)
        first = self._first.get(place)
        if first is None:
            return None
        if first[0] is schema:  # (the most common: the one object folding remembered)
            return first[1], first[2]
        return self._by_text(place, first).get(canonical_text(schema))

    def add(self, schema: Schema, name: str, definition: str) -> None:
        """``name``, declared by ``definition``, is the model of ``schema``'s place and content (unless one
        is already)."""
        place = (schema.loc.path, schema.loc.pointer)
        first = self._first.setdefault(place, (schema, name, definition))
        if first[0] is not schema:
            self._by_text(place, first).setdefault(canonical_text(schema), (name, definition))

    def _by_text(self, place: tuple[str, str], first: tuple[Schema, str, str]) -> dict[str, tuple[str, str]]:
        """The models of ``place`` by text, made when a second object is met there (a place met with one
        object only is never written out)."""
        found = self._texts.get(place)
        if found is None:
            found = self._texts[place] = {canonical_text(first[0]): (first[1], first[2])}
        return found

    def owners(self) -> Iterator[tuple[tuple[str, str], str]]:
        """Each place a model was declared at, with the definition that declared it (once for each)."""
        for place, (_, _, definition) in self._first.items():
            yield place, definition
        for place, by_text in self._texts.items():
            for _, definition in by_text.values():
                yield place, definition
