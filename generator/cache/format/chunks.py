"""Splitting a module into chunks black formats independently, and joining the formatted chunks."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal, NamedTuple, get_args

from ...frozen import Frozen

# --- 1. Splitting a module into chunks ----------------------------------------------------------------

Kind = Literal["import", "class", "assign", "string"]
KINDS: frozenset[str] = frozenset(get_args(Kind))


class Chunk(Frozen, frozen=True):
    text: str
    """Whole lines, the last one ending with a newline."""
    first: Kind
    """Its first statement (``class`` also for a decorator and a function, which black spaces alike; the
    header's is ``import``)."""
    last: Kind
    """Its last top-level statement."""
    blank_before: int
    """Blank lines between it and the chunk before, as written."""


_LEX = re.compile(r"""
    (?P<string>(?P<prefix>[rRbBuUfFtT]{0,2})
        (?:\"\"\"(?:[^"\\]|\\.|"(?!""))*\"\"\"|'''(?:[^'\\]|\\.|'(?!''))*'''
          |"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'))
  | (?P<quote>["'])
  | (?P<comment>\#[^\n]*)
  | (?P<open>[(\[{])
  | (?P<close>[)\]}])
  | (?P<continuation>\\\n)
  | (?P<newline>\n)
""", re.VERBOSE | re.DOTALL)
"""What decides where a logical line ends: strings, comments, brackets, backslashes, newlines."""
_STATEMENT = re.compile(r"(?P<import>(?:import|from)\b)|(?P<decorator>@)|(?P<class>(?:class|def)\b)"
                        r"|(?P<string>[rRbBuU]{0,2}[\"'])|(?P<assign>[A-Za-z_]\w*[ \t]*(?:=(?!=)|:))")
_NESTED_BLOCK = re.compile(r"[ \t]+(?:def|async|class)\b|[ \t]+@")
_UNKNOWN_TEXT = ("fmt:", "yapf:", "\r", "\f", "\x00", "\ufeff")
"""Black treats these specially (``# fmt: off``, line endings, form feeds): such modules go whole."""
_FOLLOWS: dict[str, tuple[str, ...]] = {
    "comment": ("none", "comment", "import"),  # in the header
    "import": ("none", "comment", "import"),  # in the header
    "decorator": ("decorator",),  # stacked decorators
    "class": ("decorator",),  # a decorated class
    "indented": ("class",),  # a class body
    "string": ("class", "assign", "string"),  # a declaration's docstring
}
"""Which line may come after which inside a chunk (``none``: the start of the module)."""


def special(text: str) -> bool:
    """Whether ``text`` holds something black treats specially (``# fmt: off``, a line ending other
    than a newline...): such a module is formatted whole."""
    return any(s in text for s in _UNKNOWN_TEXT)


def logical_lines(text: str) -> list[tuple[int, int]] | None:
    """(start, end) of each logical line, end after its newline; ``None`` when ``text`` does not lex."""
    lines = []
    depth = start = 0
    for match in _LEX.finditer(text):
        group = match.lastgroup
        if group == "newline":
            if depth == 0:
                lines.append((start, match.end()))
                start = match.end()
        elif group == "open":
            depth += 1
        elif group == "close":
            depth -= 1
            if depth < 0:
                return None
        elif group == "quote" or (group == "string" and "f" in match["prefix"].lower()):
            return None  # an unterminated string, or an f-string (quotes may nest in it)
    return lines if depth == 0 and start == len(text) else None


def split(text: str, *, body: bool = False, more: bool = False) -> list[Chunk] | None:
    """``text`` as chunks that black formats independently; ``None`` for a shape this does not know.

    ``body``: ``text`` is a stretch of a module after its header, from the start of a declaration;
    ``more``: declarations follow ``text`` (a header alone is then a whole chunk).
    """
    if special(text):
        return None
    lines = logical_lines(text)
    if not lines:
        return None
    chunks: list[Chunk] = []
    begin, first, blank_before = 0, "import", 0
    last = "none"  # the last non-blank line of the current chunk (an indented one does not count)
    blanks = end = 0
    started = not body  # a chunk is open (in a body, from its first declaration on)
    for start, stop in lines:
        kind = statement_kind(text, start)
        if kind == "blank":
            blanks += 1
            continue
        in_header = not chunks and not body
        if kind in ("decorator", "class", "assign") and last != "decorator":  # a new declaration
            if started:
                if last not in (("import",) if in_header else ("class", "assign", "string")):
                    return None  # a header without imports, or ending with a comment
                chunks.append(Chunk(text[begin:end], first, last, blank_before))  # type: ignore[arg-type]
            started = True
            begin, first, blank_before = start, "assign" if kind == "assign" else "class", blanks
        elif not started or last not in _FOLLOWS.get(kind, ()) or (kind in ("comment", "import")) != in_header:
            return None
        blanks, end = 0, stop
        if kind != "indented":
            last = kind
    if not started or (not chunks and not body and not (more and last == "import")) or last == "decorator":
        return None
    chunks.append(Chunk(text[begin:end], first, last, blank_before))  # type: ignore[arg-type]
    return chunks


def statement_kind(text: str, start: int) -> str:
    """What the logical line at ``start`` is: blank, indented, comment, import, decorator, class, assign,
    string, or unknown."""
    first = text[start]
    if first == "\n":
        return "blank"
    if first in " \t":
        return "unknown" if _NESTED_BLOCK.match(text, start) else "indented"
    if first == "#":
        return "comment"
    match = _STATEMENT.match(text, start)
    return (match.lastgroup or "unknown") if match else "unknown"


# --- 2. Joining formatted chunks ----------------------------------------------------------------------

def separator(before: Chunk, after: Chunk) -> int:
    """The blank lines black puts between two chunks (its EmptyLineTracker at depth 0, no comments).

    Two before a class; one after the imports; two after a class body; otherwise what was written, at
    most two. Idempotent, like black's second pass needs.
    """
    return gap(before.last, after.first, after.blank_before)


def gap(last: Kind, first: Kind, written: int) -> int:
    """``separator`` of a chunk whose last statement is ``last`` and one whose first is ``first``, with
    ``written`` blank lines between them."""
    if first == "class":
        return 2
    if last == "import":
        return 1
    if last == "class":
        return 2
    return min(written, 2)


def join(chunks: Sequence[Chunk], formatted: Sequence[str]) -> str:
    parts = [formatted[0]]
    for previous, chunk, text in zip(chunks, chunks[1:], formatted[1:]):
        parts += ["\n" * separator(previous, chunk), text]
    return "".join(parts)


# --- 3. Stretches of a module, formatted apart --------------------------------------------------------

class Stretch(NamedTuple):
    """Whole chunks of a module (its head, or declarations), formatted and joined, with what the blank
    lines around them depend on: the module is its stretches joined (``splice``) as ``join`` joins
    the chunks they hold. (A tuple: the cache keeps it as one.)"""

    first: Kind
    blank_before: int
    """Blank lines before its first chunk, as written in it."""
    last: Kind
    blank_after: int
    """Blank lines after its last chunk, as written in it."""
    text: str


def trailing_blanks(text: str) -> int:
    """The blank lines at the end of ``text`` (whole lines)."""
    return max(len(text) - len(text.rstrip("\n")) - 1, 0)


def splice(stretches: Sequence[tuple[Kind, int, Kind, int, str]]) -> str:
    """The module the ``stretches`` are, in order: ``join`` of all the chunks they hold."""
    parts = [stretches[0][4]]
    for (_, _, last, after, _), (first, before, _, _, text) in zip(stretches, stretches[1:]):
        parts += ["\n" * gap(last, first, after + before), text]
    return "".join(parts)
