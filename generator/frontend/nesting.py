"""How deep a document may nest: ``MAX_NESTING`` levels of objects and arrays, checked as it is read.

Every later stage follows a schema by recursion; a limit set here, where the place is still known,
makes a deeper document a located error instead of a failure somewhere in the pipeline.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container, Iterator, Sequence
from typing import Any, TypeVar

from ..diagnostics import Diagnostic, Location, SchemaError, pointer
from ..diagnostics.positions import line_column

MAX_NESTING = 1000
"""Objects and arrays inside each other, the document itself the first (docs/command-line.md). A
schema level is usually two (``properties``, then the property); real descriptions nest below 50."""


MESSAGE = f"the document nests more than {MAX_NESTING} levels deep (objects and arrays)"
HINT = "give an inner level a name of its own (a definition and a $ref to it)"
T = TypeVar("T")
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
                return line_column(text, token.start())
        elif kind in "]}":
            level -= 1
    return None, None


def levels(value: Any) -> int:
    """The levels of objects and arrays ``value`` nests (0 for a scalar), counted up to ``MAX_NESTING + 1``."""
    return _height(value, {}, MAX_NESTING + 1)


def too_deep(document: Any) -> list[str | int] | None:
    """The path to the first value at level ``MAX_NESTING + 1`` (in document order), or ``None``.

    Without recursion, and each container once however many ways lead to it: a YAML anchor makes one
    value the child of many (ten aliases of ten aliases… are paths without end; an anchor inside
    itself, a loop). Each container's height is worked out from its children's (a loop: too deep);
    then the path follows, level by level, the first child tall enough to reach the limit."""
    limit = MAX_NESTING + 1
    heights: dict[int, int] = {}  # (the values are alive while it runs: their ids are theirs)
    if _height(document, heights, limit) < limit:
        return None
    path: list[str | int] = []
    node = document
    for level in range(1, limit):
        key, node = next((k, c) for k, c in _items(node) if _height(c, heights, limit) >= limit - level)
        path.append(key)
    return path


def _height(value: Any, heights: dict[int, int], limit: int) -> int:
    """Levels of containers from ``value`` down (0 for a scalar), at most ``limit``; ``heights`` keeps
    each container's, and a container met inside itself counts as ``limit``."""
    if not isinstance(value, dict | list):
        return 0
    for node, below in post_order(value, _containers, heights):
        heights[id(node)] = min(limit, max((heights.get(id(c), limit) for c in below), default=0) + 1)
    return heights[id(value)]


def post_order(root: T, children: Callable[[T], Sequence[T]], done: Container[int]) -> Iterator[tuple[T, Sequence[T]]]:
    """Each node under ``root`` (itself too) once, with its children, after the nodes under it, where a node may
    be the child of many and of itself (YAML aliases, and anchors inside their own values): ``children`` gives
    a node's (those that may have children of their own); ``done`` says which were given before (by ``id``),
    which are not walked again. Without recursion: a node's children are asked for once."""
    if id(root) in done:
        return
    walking = {id(root)}
    first = children(root)
    stack: list[tuple[T, Sequence[T], Iterator[T]]] = [(root, first, iter(first))]
    while stack:
        node, below, todo = stack[-1]
        child = next((c for c in todo if id(c) not in done and id(c) not in walking), None)
        if child is not None:
            walking.add(id(child))
            under = children(child)
            stack.append((child, under, iter(under)))
            continue
        stack.pop()
        walking.discard(id(node))
        yield node, below


def _containers(value: dict[str, Any] | list[Any]) -> list[Any]:
    return [c for _, c in _items(value) if isinstance(c, dict | list)]


def _items(value: dict[str, Any] | list[Any]) -> Iterator[tuple[str | int, Any]]:
    return iter(value.items()) if isinstance(value, dict) else enumerate(value)
