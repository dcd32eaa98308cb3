"""A few short strings that a regular expression matches, for building payloads.

``samples(pattern)`` walks the parsed pattern (Python's own parser) and writes strings it should
match: the shortest, then with each repetition and alternative varied. They are candidates only:
whoever uses one checks it with ``re.search``. A pattern the walk cannot follow gives fewer or none.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from re import _constants as constants, _parser as parser  # type: ignore[attr-defined]  # (Python's own)
from typing import Any

PLAIN = ["", "a", "0", "A", " ", "-", "aa", "a0", "_", "x@y.z", "2000-01-01", "ab12"]
"""Strings tried beside a pattern's own samples."""
MAX_SAMPLES = 24
CHARS = "a0A _-.xZ9@"
"""Characters tried for a character class, in order."""


def samples(pattern: str) -> list[str]:
    """Strings ``pattern`` matches (checked), shortest first, at most ``MAX_SAMPLES``."""
    try:
        tree = parser.parse(pattern)
        compiled = re.compile(pattern)
    except (re.error, RecursionError, OverflowError):
        return []
    found: dict[str, None] = {}
    for variant in range(MAX_SAMPLES * 2):
        try:
            text = "".join(_write(tree, variant, {}))
        except (_Unwritable, RecursionError, ValueError):
            continue
        if compiled.search(text) is not None:
            found.setdefault(text)
        if len(found) >= MAX_SAMPLES:
            break
    return sorted(found, key=len)


class _Unwritable(Exception):
    pass


def _write(items: Any, variant: int, groups: dict[int, str]) -> Iterator[str]:
    for op, arg in items:
        yield _one(op, arg, variant, groups)


def _one(op: Any, arg: Any, variant: int, groups: dict[int, str]) -> str:
    if op is constants.LITERAL:
        return chr(arg)
    if op is constants.NOT_LITERAL:
        return next(c for c in CHARS if ord(c) != arg)
    if op is constants.ANY:
        return "a"
    if op is constants.IN:
        return _char_in(arg, variant)
    if op is constants.AT:
        return ""
    if op is constants.BRANCH:
        branches = arg[1]
        return "".join(_write(branches[variant % len(branches)], variant // len(branches), groups))
    if op is constants.SUBPATTERN:
        group, sub = arg[0], arg[-1]
        text = "".join(_write(sub, variant, groups))
        if group is not None:
            groups[group] = text
        return text
    if op in (constants.MAX_REPEAT, constants.MIN_REPEAT, getattr(constants, "POSSESSIVE_REPEAT", None)):
        low, high, sub = arg
        count = low + (variant % 3 if high is constants.MAXREPEAT else min(variant % 3, high - low))
        shift = 0 if variant < 3 else 1  # the first samples repeat one text; later ones vary it
        return "".join("".join(_write(sub, variant // 3 + i * shift, groups)) for i in range(count))
    if op is constants.GROUPREF:
        return groups.get(arg, "")
    if op in (constants.ASSERT, constants.ASSERT_NOT):
        return ""
    if op is constants.CATEGORY:
        return _category(arg)
    raise _Unwritable(op)


def _char_in(arg: Any, variant: int) -> str:
    negate = bool(arg) and arg[0][0] is constants.NEGATE
    allowed = [c for c in CHARS + "bcdefghijklmnopqrstuvwxyz123456789BCDEFGHIJKLMNOPQRSTUVWXY" if _in(arg, c)]
    if negate:
        allowed = [c for c in CHARS if not _in(arg[1:], c)]
    if not allowed:
        first = arg[0]
        if first[0] is constants.LITERAL:
            return chr(first[1])
        if first[0] is constants.RANGE:
            return chr(first[1][0])
        raise _Unwritable("class")
    return allowed[variant % len(allowed)] if variant % 2 else allowed[0]


def _in(arg: Any, c: str) -> bool:
    for op, value in arg:
        if op is constants.LITERAL and ord(c) == value:
            return True
        if op is constants.RANGE and value[0] <= ord(c) <= value[1]:
            return True
        if op is constants.CATEGORY and _category(value) and re.match(_CLASSES[value], c):
            return True
    return False


_CLASSES = {
    constants.CATEGORY_DIGIT: r"\d", constants.CATEGORY_NOT_DIGIT: r"\D", constants.CATEGORY_SPACE: r"\s",
    constants.CATEGORY_NOT_SPACE: r"\S", constants.CATEGORY_WORD: r"\w", constants.CATEGORY_NOT_WORD: r"\W",
}


def _category(value: Any) -> str:
    return {constants.CATEGORY_DIGIT: "0", constants.CATEGORY_NOT_DIGIT: "a", constants.CATEGORY_SPACE: " ",
            constants.CATEGORY_NOT_SPACE: "a", constants.CATEGORY_WORD: "a", constants.CATEGORY_NOT_WORD: "-"}.get(value, "")
