"""Formatting with the pinned black, in-process, with an explicit mode (never a pyproject's).

The result is always what ``black.format_str(text, mode=MODE)`` gives, byte for byte. Black is most of
the cost of generation, so it is asked as little as possible:

1. ``split`` cuts a module at its top-level statements into chunks: the header (comments, imports) and
   each declaration with the string literals under it (``known.cut`` does it lexing only the chunks
   not met before).
2. ``plan_chunk`` reads a chunk's syntax tree and prints each statement back the way black prints it.
   What comes out equal to the text is left as it is (most declarations: the view model and templates
   already write black's layout). A code statement that does not (a line too long) is formatted by
   black on its own, in a two-line module (``format_statements``); many of them recur, across classes
   and variants, and each is formatted once. A chunk with anything else goes to black whole.
3. ``join`` puts the formatted chunks together with the blank lines black puts between top-level
   statements.

Black formats each logical line on its own, and the blank lines before a line depend only on the line
before it, so this is black's own result; the splitter and planner only accept the few statement kinds
generated modules are made of, and anything else (a function, a comment between declarations,
``# fmt: off``, a header without imports) sends the whole module to black as before.
tests/test_performance_contract.py checks the result against whole-file black.

``Session`` keeps what was formatted in memory, and in a persistent cache (``generator.cache``) when
given one.

The package, by job: ``black_mode`` (the pinned black's mode and version), ``whole`` (black on a whole
module), ``chunks`` (splitting and joining), ``known`` (cutting along chunks met before, lexing only
what is new), ``stable`` (the planner), ``batch`` (black on statements and chunks), ``session``
(``Session``, ``Stats``, the caches).
"""

from __future__ import annotations

from typing import Any

from .batch import BATCH, format_statement, format_statements
from .black_mode import LINE_LENGTH, SCHEME, TARGET, black_version, mode
from .chunks import Chunk, Kind, join, logical_lines, separator, split
from .session import Session, Stats, current, format_source
from .stable import Piece, Plan, is_stable, plan_chunk
from .whole import FormatError, format_whole

__all__ = [
    "BATCH", "LINE_LENGTH", "SCHEME", "TARGET", "Chunk", "FormatError", "Kind", "Piece", "Plan", "Session",
    "Stats", "black_version", "current", "format_source", "format_statement", "format_statements",
    "format_whole", "is_stable", "join", "logical_lines", "mode", "plan_chunk", "separator", "split",
]


def __getattr__(name: str) -> Any:
    if name == "MODE":  # ``from generator.render.format import MODE`` works, and imports black then
        return mode()
    raise AttributeError(name)
