"""How deep a document may nest: ``MAX_NESTING`` levels of objects and arrays, checked as it is read.

Every later stage follows a schema by recursion; a limit set here, where the place is still known,
makes a deeper document a located error instead of a failure somewhere in the pipeline.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from ..diagnostics import Diagnostic, Location, SchemaError, pointer

MAX_NESTING = 1000
"""Objects and arrays inside each other, the document itself the first (docs/command-line.md). A
schema level is usually two (``properties``, then the property); real descriptions nest below 50."""


MESSAGE = f"the document nests more than {MAX_NESTING} levels deep (objects and arrays)"
HINT = "give an inner level a name of its own (a definition and a $ref to it)"
_JSON_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def check(document: Any, text: str, json: bool, display: str) -> None:
    """Raise a located ``SchemaError`` where ``document`` (parsed from ``text``) first nests deeper
    than ``MAX_NESTING``."""
    found = too_deep(document)
    if found is not None:
        line, column = position(text) if json else (None, None)
        raise SchemaError([Diagnostic(Location(display, pointer(*found), line, column), MESSAGE, HINT)])


def position(text: str) -> tuple[int, int] | tuple[None, None]:
    """Line and column of the first bracket of a JSON text at level ``MAX_NESTING + 1`` (the YAML
    reader that ``diagnostics.positions`` uses refuses such a text)."""
    level = 0
    for token in _JSON_TOKEN.finditer(text):
        kind = token.group()
        if kind in "[{":
            level += 1
            if level > MAX_NESTING:
                at = token.start()
                return text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at)
        elif kind in "]}":
            level -= 1
    return None, None


def too_deep(document: Any) -> list[str | int] | None:
    """The path to the first value at level ``MAX_NESTING + 1``, or ``None``; without recursion, each
    value visited once (the path is the stack of the containers being walked)."""
    if not isinstance(document, dict | list):
        return None
    path: list[str | int] = []
    walks: list[Iterator[tuple[str | int, Any]]] = [_items(document)]
    while walks:
        step = next(walks[-1], None)
        if step is None:
            walks.pop()
            if path:
                path.pop()
            continue
        key, child = step
        if isinstance(child, dict | list):
            path.append(key)
            if len(walks) == MAX_NESTING:
                return path
            walks.append(_items(child))
    return None


def _items(value: dict[str, Any] | list[Any]) -> Iterator[tuple[str | int, Any]]:
    return iter(value.items()) if isinstance(value, dict) else enumerate(value)
