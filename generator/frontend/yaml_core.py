r"""PyYAML's C-backed safe loader, reading plain scalars by the YAML 1.2 core schema.

PyYAML resolves plain scalars by YAML 1.1's rules (``on`` is true, ``0777`` is octal, ``1:20`` is 80,
``1e-08`` is a string, ``2001-12-14`` a date). This loader keeps PyYAML's parser and its
constructors for strings, sequences and mappings, and replaces what decides a plain scalar's type
(the implicit resolvers) and the constructors that read a number or a boolean's text:

- null: ``null``, ``Null``, ``NULL``, ``~`` and the empty scalar;
- boolean: ``true``, ``True``, ``TRUE``, ``false``, ``False``, ``FALSE``;
- integer: decimal ``[-+]?[0-9]+`` (``0777`` is 777), octal ``0o[0-7]+``, hexadecimal ``0x[0-9a-fA-F]+``;
- float: ``[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`` (``1e-08``, ``.5``, ``0.``),
  ``[-+]?\.(inf|Inf|INF)`` and ``\.(nan|NaN|NAN)``;
- anything else is a string (``yes``, ``1:20``, ``1_000``, ``0b101``, ``2001-12-14``, ``=``).

One extension beside the core schema: the merge key ``<<`` (``<<: *defaults``), as YAML 1.1 had it
and many YAML 1.2 readers still accept it (a key written beside it wins over a merged one, as YAML
1.1 says). A key written twice in one mapping is recorded (``Loader.duplicates``), not silently
overwritten. An explicit ``!!int``, ``!!float`` or ``!!bool`` takes the same
forms as the plain scalar would; any other text under such a tag is a YAML error.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from ..diagnostics import pointer
from .duplicates import Duplicate

VERSION = "yaml-1.2-core merge-keys unique-keys bounded-aliases"
"""What this loader reads, for ``read.yaml_version`` (and so for every cache key that holds a parse)."""

TAG = "tag:yaml.org,2002:"
NULL = re.compile(r"(?:~|null|Null|NULL|)\Z")
BOOL = re.compile(r"(?:true|True|TRUE|false|False|FALSE)\Z")
INT = re.compile(r"(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)\Z")
FLOAT = re.compile(r"(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
                   r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))\Z")
MERGE = re.compile(r"<<\Z")

DIGITS = "0123456789"
RESOLVERS: list[tuple[str, re.Pattern[str], str]] = [  # tag, form, the characters it can start with
    ("null", NULL, "~nN"),
    ("bool", BOOL, "tTfF"),
    ("int", INT, "-+" + DIGITS),  # before float: ``12`` is both
    ("float", FLOAT, "-+." + DIGITS),
    ("merge", MERGE, "<"),
]


def loader() -> type[Any]:
    """A loader class for ``yaml.load``: C-backed when PyYAML was built with libyaml."""

    class Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
        written: list[tuple[Any, str, Any, Any]]
        """(mapping node, key, the first key node, the key node written again)."""
        checked: set[int]
        """The mapping nodes looked at (by ``id``): each once, as written."""

        def construct_document(self, node: Any) -> Any:
            self.root, self.written, self.checked = node, [], set()
            return super().construct_document(node)

        def flatten_mapping(self, node: Any) -> None:  # (before a merge changes what the node holds)
            if id(node) not in self.checked:
                self.checked.add(id(node))
                _record_duplicates(self, node)
            super().flatten_mapping(node)

        def duplicates(self) -> list[Duplicate]:
            """The keys written twice, in document order, each with the pointer of the mapping's key."""
            if not getattr(self, "written", None):
                return []
            at = pointers(self.root)
            return [Duplicate(at.get(id(mapping), "") + pointer(key), key, _at(first), _at(again))
                    for mapping, key, first, again in self.written]

    implicit: dict[str | None, list[tuple[str, re.Pattern[str]]]] = {"": [(TAG + "null", NULL)]}
    for name, form, first in RESOLVERS:
        for character in first:
            implicit.setdefault(character, []).append((TAG + name, form))
    Loader.yaml_implicit_resolvers = implicit
    Loader.add_constructor(TAG + "int", _int)
    Loader.add_constructor(TAG + "float", _float)
    Loader.add_constructor(TAG + "bool", _bool)
    return Loader


def _record_duplicates(loader: Any, node: Any) -> None:
    """Record the keys ``node`` (a mapping) writes twice; merged keys (``<<``) are no duplicates."""
    if not isinstance(node, yaml.MappingNode):
        return
    seen: dict[Any, Any] = {}
    for key_node, _ in node.value:
        if key_node.tag == TAG + "merge" or not isinstance(key_node, yaml.ScalarNode):
            continue
        key = loader.construct_object(key_node)
        try:
            first = seen.setdefault(key, key_node)
        except TypeError:  # an unhashable key: construct_mapping reports it
            continue
        if first is not key_node:
            loader.written.append((node, str(key), first, key_node))


def pointers(root: Any) -> dict[int, str]:
    """The JSON pointer of every mapping node under ``root`` (by ``id``; a node an alias repeats, the first)."""
    found: dict[int, str] = {}
    stack = [(root, "")]
    while stack:
        node, here = stack.pop()
        if id(node) in found:
            continue
        if isinstance(node, yaml.MappingNode):
            found[id(node)] = here
            stack.extend((value, here + pointer(str(key.value))) for key, value in reversed(node.value))
        elif isinstance(node, yaml.SequenceNode):
            found[id(node)] = here
            stack.extend((value, here + pointer(i)) for i, value in reversed(list(enumerate(node.value))))
    return found


def _at(node: Any) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


def _text(loader: Any, node: Any, form: re.Pattern[str], kind: str) -> str:
    text: str = loader.construct_scalar(node)
    if not form.match(text):
        raise yaml.constructor.ConstructorError(None, None, f"not a YAML 1.2 {kind}: {text!r}", node.start_mark)
    return text


def _int(loader: Any, node: Any) -> int:
    text = _text(loader, node, INT, "integer")
    try:
        if text.startswith("0o"):
            return int(text[2:], 8)
        if text.startswith("0x"):
            return int(text[2:], 16)
        return int(text, 10)  # leading zeros are decimal
    except ValueError as exc:  # more digits than Python converts
        raise yaml.constructor.ConstructorError(None, None, f"cannot read the integer: {exc}", node.start_mark) from None


def _float(loader: Any, node: Any) -> float:
    text = _text(loader, node, FLOAT, "float")
    special = text.lstrip("+-").lower()
    if special == ".inf":
        return float("-inf") if text.startswith("-") else float("inf")
    if special == ".nan":
        return float("nan")
    return float(text)


def _bool(loader: Any, node: Any) -> bool:
    return _text(loader, node, BOOL, "boolean") in ("true", "True", "TRUE")
