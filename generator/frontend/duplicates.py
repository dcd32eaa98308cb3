"""Keys written twice in one object of a JSON or YAML document: an error, where both are written.

JSON and YAML readers keep one of the two values (the last), so a schema that says a property twice
silently loses the first. ``json_loads`` reads JSON so; a duplicate is found by a hook that costs
little, and only then is the text scanned again for where the keys are. YAML's duplicates are found
by the loader (``yaml_core``), which knows where every key is.
"""

from __future__ import annotations

import json
import json.decoder
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..diagnostics import Diagnostic, Location, pointer
from ..diagnostics.positions import line_column

scanstring: Callable[[str, int], tuple[str, int]] = getattr(json.decoder, "scanstring")  # (not in typeshed)


@dataclass(frozen=True, slots=True)
class Duplicate:
    pointer: str
    """Of the key written twice."""
    key: str
    first: tuple[int, int]
    """(line, column) of its first writing."""
    again: tuple[int, int]


class DuplicateKeys(Exception):
    """The document writes keys twice (``found``, put in document order)."""

    def __init__(self, found: list[Duplicate]) -> None:
        super().__init__(f"{len(found)} duplicate key(s)")
        self.found = sorted(found, key=lambda d: d.again)


def diagnostics(error: DuplicateKeys, display: str) -> list[Diagnostic]:
    """One error per key written again, at that place, naming the first."""
    return [Diagnostic(Location(display, d.pointer, line=d.again[0], column=d.again[1]),
                       f"duplicate key {d.key!r} (first at {d.first[0]}:{d.first[1]}): only one of them would be read",
                       "remove one, or merge them") for d in error.found]


def json_loads(text: str) -> Any:
    """``json.loads(text)``; raises ``DuplicateKeys`` when an object writes a key twice."""
    repeated = False

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        nonlocal repeated
        found = dict(items)
        repeated = repeated or len(found) != len(items)
        return found

    value = json.loads(text, object_pairs_hook=pairs)
    if repeated:
        raise DuplicateKeys(_Scan(text).found())
    return value


class _Scan:
    """Where each key of a valid JSON text is, with its pointer: the duplicates among them."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.scalar: Callable[[str, int], tuple[Any, int]] = getattr(json.JSONDecoder(), "scan_once")
        self.duplicates: list[tuple[str, str, int, int]] = []
        """(pointer, key, offset of the first, offset of the second)."""

    def found(self) -> list[Duplicate]:
        self.value(self._blank(0), "")
        return [Duplicate(where, key, self._position(first), self._position(again))
                for where, key, first, again in self.duplicates]

    def value(self, at: int, here: str) -> int:
        """The offset after the value at ``at`` (whose pointer is ``here``)."""
        text = self.text
        if text[at] == "{":
            seen: dict[str, int] = {}
            at = self._blank(at + 1)
            while text[at] != "}":
                key, end = scanstring(text, at + 1)
                where = here + pointer(key)
                if key in seen:
                    self.duplicates.append((where, key, seen[key], at))
                else:
                    seen[key] = at
                at = self.value(self._blank(self._blank(end) + 1), where)  # past the colon
                at = self._blank(at)
                at = self._blank(at + 1) if text[at] == "," else at
            return at + 1
        if text[at] == "[":
            at, index = self._blank(at + 1), 0
            while text[at] != "]":
                at = self._blank(self.value(at, here + pointer(index)))
                at, index = (self._blank(at + 1) if text[at] == "," else at), index + 1
            return at + 1
        return int(self.scalar(text, at)[1])

    def _blank(self, at: int) -> int:
        while at < len(self.text) and self.text[at] in " \t\r\n":
            at += 1
        return at

    def _position(self, offset: int) -> tuple[int, int]:
        return line_column(self.text, offset)
