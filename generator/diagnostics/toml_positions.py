"""Line and column of a JSON pointer (``/tool/schemagen/inputs/1/dialect``) in a TOML text, for
messages about ``pyproject.toml``: tomllib keeps no positions.

The text is scanned line by line for what can hold a setting: table headers (``[tool.schemagen]``,
the n-th ``[[tool.schemagen.inputs]]`` for ``inputs/<n>``), keys (bare, quoted or dotted,
``tool.schemagen.variants = …``) and the items of an array value (``variants/1`` is its second
item). The position is that of the deepest of these the pointer leads to: a key that is not
written is found at its table's header.
"""

from __future__ import annotations

import re

_HEADER = re.compile(r"\s*(\[\[?)\s*(.*?)\s*\]\]?\s*(?:#.*)?$")
_KEY = re.compile(r"""\s*((?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*'))*)\s*=""")
_PART = re.compile(r"""[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*'""")


def locate_toml(text: str, pointer: str) -> tuple[int, int] | None:
    """1-based (line, column) of what ``pointer`` names in ``text``, or of the nearest parent written
    there (``None``: nothing of it is)."""
    want = [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]] if pointer else []
    best: tuple[int, tuple[int, int]] | None = None  # (how many tokens it matches, position)
    table: list[str] = []
    counts: dict[tuple[str, ...], int] = {}
    lines = text.splitlines()
    for number, line in enumerate(lines, 1):
        header = _HEADER.match(line)
        if header and not _KEY.match(line):
            table = keys(header[2])
            if header[1] == "[[":
                index = counts.get(tuple(table), -1) + 1
                counts[tuple(table)] = index
                table = [*table, str(index)]
            best = _better(best, _matched(table, want), (number, len(line) - len(line.lstrip()) + 1))
            continue
        key = _KEY.match(line)
        if key is None:
            continue
        path = [*table, *keys(key[1])]
        depth = _matched(path, want)
        best = _better(best, depth, (number, key.start(1) + 1))
        if depth == len(path) and len(want) > depth and want[depth].isdigit():
            item = _item(lines, number - 1, key.end(), int(want[depth]))
            best = _better(best, depth + 1, item) if item else best
    return best[1] if best else None


def keys(dotted: str) -> list[str]:
    """The keys of a dotted key (``tool."schemagen".refs``), unquoted."""
    return [p[1:-1] if p[:1] in "\"'" else p for p in _PART.findall(dotted)]


def _matched(path: list[str], want: list[str]) -> int:
    """How many tokens of ``want`` ``path`` is, when it is a prefix of it (else 0)."""
    return len(path) if path and want[:len(path)] == path else 0


def _better(best: tuple[int, tuple[int, int]] | None, depth: int,
            position: tuple[int, int]) -> tuple[int, tuple[int, int]] | None:
    return (depth, position) if depth and (best is None or depth > best[0]) else best


def _item(lines: list[str], row: int, start: int, index: int) -> tuple[int, int] | None:
    """The position of the ``index``-th item of the array value that starts after column ``start``
    of line ``row`` (its items may run over the next lines); ``None`` when it is no array or shorter."""
    text = "\n".join([lines[row][start:], *lines[row + 1:]])
    at = _blank(text, 0)
    if text[at:at + 1] != "[":
        return None
    at = _blank(text, at + 1)
    for _ in range(index + 1):
        if at >= len(text) or text[at] == "]":
            return None
        found = at
        at = _blank(text, _past(text, at))
        at = _blank(text, at + 1) if text[at:at + 1] == "," else at
    before = text[:found]
    line = row + before.count("\n")
    return line + 1, (found - before.rfind("\n") if "\n" in before else start + found + 1)


def _blank(text: str, at: int) -> int:
    """The offset of the next character that is no space, newline or comment."""
    while at < len(text):
        if text[at] == "#":
            at = text.find("\n", at)
            if at < 0:
                return len(text)
        elif not text[at].isspace():
            return at
        at += 1
    return at


def _past(text: str, at: int) -> int:
    """The offset after the value at ``at``: a string, an inline array or table, a number or word."""
    depth = 0
    while at < len(text):
        char = text[at]
        if char in "\"'":
            end = text.find(char, at + 1)
            while char == '"' and end > 0 and text[end - 1] == "\\" and not text[at + 1:end].endswith("\\\\"):
                end = text.find(char, end + 1)
            at = len(text) if end < 0 else end + 1
        elif char in "[{":
            depth, at = depth + 1, at + 1
        elif char in "]}" and depth:
            depth, at = depth - 1, at + 1
        elif depth == 0 and (char in ",]#" or char.isspace()):
            return at
        else:
            at += 1
        if depth == 0 and char in "\"']}":
            return at
    return at
