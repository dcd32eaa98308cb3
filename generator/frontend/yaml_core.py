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
and many YAML 1.2 readers still accept it. An explicit ``!!int``, ``!!float`` or ``!!bool`` takes the same
forms as the plain scalar would; any other text under such a tag is a YAML error.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

VERSION = "yaml-1.2-core merge-keys"
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
        pass

    implicit: dict[str | None, list[tuple[str, re.Pattern[str]]]] = {"": [(TAG + "null", NULL)]}
    for name, form, first in RESOLVERS:
        for character in first:
            implicit.setdefault(character, []).append((TAG + name, form))
    Loader.yaml_implicit_resolvers = implicit
    Loader.add_constructor(TAG + "int", _int)
    Loader.add_constructor(TAG + "float", _float)
    Loader.add_constructor(TAG + "bool", _bool)
    return Loader


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
