"""Cutting a module along chunks met before: only what is new is lexed.

``split`` lexes a whole module (strings, brackets) to find where its top-level statements begin; for a
large module that is most of what formatting costs once black has nothing left to do. But a chunk
``split`` found before is, by itself, a whole number of logical lines: where a logical line begins and
the text starts with that chunk, the chunk ends where a logical line ends. So a module is cut where a
line that starts a declaration follows a blank line (a regular expression finds them), each piece is
looked up among the chunks met before, and only the stretches between pieces found are lexed
(``split(stretch, body=True)``). What comes out is what ``split`` gives on the whole module: the same
chunks, kinds and blank lines (tests/test_performance_contract.py checks it).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from .chunks import Chunk, Kind, special, split, statement_kind

_CANDIDATE = re.compile(r"\n(\n+)(?=[^ \t\n#])")
"""A line at the margin after blank lines, found by the newline before the blank lines."""

Kinds = tuple[Kind, Kind]
"""A chunk's first and last statement."""


def pieces(text: str) -> list[tuple[int, int, int]]:
    """``(start, end, blank lines before)`` of the header and of each stretch from a line that may begin
    a declaration to the blank lines before the next; whole lines, the last ending with its newline."""
    starts = [(0, 0)]
    for m in _CANDIDATE.finditer(text):
        position = m.end()
        if statement_kind(text, position) in ("decorator", "class", "assign"):
            starts.append((position, len(m[1])))
    found = []
    for (start, blanks), (following, after) in zip(starts, starts[1:] + [(len(text) + 1, 1)]):
        found.append((start, following - after, blanks))
    return found


def cut(text: str, found: list[tuple[int, int, int]], known: Mapping[str, Kinds]) -> list[Chunk] | None:
    """``split(text)``, taking the pieces in ``known`` as they are; ``None`` when a stretch between them
    does not lex as declarations (then ``split`` on the whole text decides)."""
    if special(text) or not found:
        return None
    chunks: list[Chunk] = []
    stretch: int | None = None  # where the text not yet cut begins
    blanks_at_stretch = 0
    for start, end, blanks in found:
        kinds = known.get(text[start:end])
        header = start == 0
        if kinds is None or (kinds[0] == "import") != header:
            if stretch is None:
                stretch, blanks_at_stretch = start, blanks
            continue
        if stretch is not None:
            if not _lex(text, stretch, start - blanks, blanks_at_stretch, chunks):
                return None
            stretch = None
        chunks.append(Chunk(text[start:end], kinds[0], kinds[1], blanks))
    if stretch is not None and not _lex(text, stretch, len(text), blanks_at_stretch, chunks):
        return None
    return chunks


def _lex(text: str, start: int, end: int, blanks: int, into: list[Chunk]) -> bool:
    """Cuts ``text[start:end]`` (whole lines) by lexing it, after the chunks ``into`` holds."""
    if start == 0:
        got = split(text[:end], more=end < len(text))
    elif not into:
        return False
    else:
        got = split(text[start:end], body=True)
        if got:
            got[0] = Chunk(got[0].text, got[0].first, got[0].last, blanks)
    if not got:
        return False
    into.extend(got)
    return True
