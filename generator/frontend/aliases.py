"""How much YAML aliases may repeat: a document stands for at most ``RATIO`` values per character of its text.

An alias (``*name``) stands for the whole value its anchor (``&name``) marks, and that value may hold
aliases in turn: ``b: &b [*a, *a]``, ``c: &c [*b, *b]``… doubles at every line, so a text of a few
hundred characters stands for billions of values. PyYAML builds such a value once and shares it, but
every later stage reads a document as a tree (a default is written out whole, an aliased schema is
read once for each place it stands), so what it costs grows with the values the document stands for,
not with its text. Written without aliases, a document holds fewer values than its text has
characters; repeating a block in many places (``<<: *defaults``, one response schema for every
operation) seldom takes it past a few values per character. Past ``RATIO``, the text is refused here,
where it is read: the values each node of the parse stands for are counted once a node (the shared
value counted by its size, not walked again), so the count costs time linear in the text.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import yaml

from ..diagnostics import Diagnostic, Location
from .nesting import post_order
from .yaml_core import pointers

RATIO = 10
"""The values (mappings, sequences, their keys and scalars) a YAML text may stand for, per character."""

_ANCHOR = re.compile(r"&[^\s\[\]{},]")


class Overgrown(Exception):
    """A YAML text stands for more than ``RATIO`` values per character."""

    def __init__(self, pointer: str, line: int, column: int, uses: int, values: int, length: int) -> None:
        super().__init__(pointer)
        self.pointer, self.line, self.column = pointer, line, column
        self.uses, self.values, self.length = uses, values, length

    def diagnostic(self, display: str) -> Diagnostic:
        return Diagnostic(
            Location(display, self.pointer, self.line, self.column),
            f"through YAML aliases, the value anchored here stands in {self.uses:,} places: the document stands for "
            f"more than {self.values:,} values, over {RATIO} for each character of its text ({self.length:,})",
            "write the repeated value once, as a definition of its own that each place refers to with `$ref`")


def anchored(text: str) -> bool:
    """Whether ``text`` may mark a value with an anchor (without one, no alias repeats anything)."""
    return any(m.start() == 0 or text[m.start() - 1] in " \t\r\n[{,:" for m in _ANCHOR.finditer(text))


def check(root: Any, length: int) -> None:
    """Raise ``Overgrown`` where the node graph ``root`` (PyYAML's, parsed from a text of ``length``
    characters) stands for more than ``RATIO * length`` values, at the anchored value that adds the most
    (the first in the text, of those that add as much). A node met inside itself (an anchor in its own
    value) counts as one: ``nesting`` refuses such a document."""
    limit = RATIO * length
    sizes, uses, nodes = _counted(root, limit)
    if sizes.get(id(root), 1) <= limit:
        return
    blamed = max((k for k, n in uses.items() if n > 1), default=id(root),
                 key=lambda k: ((uses[k] - 1) * sizes[k], -nodes[k].start_mark.index))
    node = nodes[blamed]
    raise Overgrown(pointers(root).get(blamed, ""), node.start_mark.line + 1, node.start_mark.column + 1,
                    uses[blamed], limit, length)


def _counted(root: Any, limit: int) -> tuple[dict[int, int], Counter[int], dict[int, Any]]:
    """The values each container node under ``root`` stands for (at most ``limit + 1``), how many places
    each is in, and the nodes, by ``id``: each node's children walked once, whatever leads to it
    (``nesting.post_order``)."""
    sizes: dict[int, int] = {}
    uses: Counter[int] = Counter()
    nodes: dict[int, Any] = {id(root): root}
    if not isinstance(root, yaml.CollectionNode):
        return sizes, uses, nodes
    for node, below in post_order(root, _collections, sizes):
        nodes[id(node)] = node
        uses.update(id(c) for c in below)
        scalars = sum(1 for c in _children(node) if not isinstance(c, yaml.CollectionNode))
        sizes[id(node)] = min(limit + 1, 1 + scalars + sum(sizes.get(id(c), 1) for c in below))
    return sizes, uses, nodes


def _collections(node: Any) -> list[Any]:
    return [c for c in _children(node) if isinstance(c, yaml.CollectionNode)]


def _children(node: Any) -> Iterator[Any]:
    if isinstance(node, yaml.MappingNode):
        return (part for pair in node.value for part in pair)
    return iter(node.value)
