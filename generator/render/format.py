"""Formatting with the pinned black, in-process, with an explicit mode (never a pyproject's).

``format_whole`` is the reference: black on the whole module. Whatever formats modules faster
(``schemagen.cache.format``) must give its bytes, byte for byte.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from .. import installed

if TYPE_CHECKING:  # black is imported when something is formatted, not when the program starts
    import black

LINE_LENGTH = 88
TARGET = "PY311"


class FormatError(Exception):
    """Black refused the generated text: a generator bug. The text is kept for the report."""

    def __init__(self, message: str, text: str) -> None:
        super().__init__(message)
        self.text = text


@cache
def mode() -> black.Mode:
    import black

    return black.Mode(line_length=LINE_LENGTH, target_versions={black.TargetVersion[TARGET]})


def black_version() -> str:
    """The installed black's version, which the format cache keys on, without importing black (a tenth
    of a second) or any private module of it (``installed``)."""
    return installed.version("black")


def format_whole(text: str) -> str:
    """Black on the whole text; ``FormatError`` (with the text, numbered) when black refuses it."""
    import black

    try:
        return str(black.format_str(text, mode=mode()))
    except black.InvalidInput as exc:
        numbered = "\n".join(f"{i:5} {line}" for i, line in enumerate(text.splitlines(), 1))
        raise FormatError(f"black could not parse the generated code: {exc}\n{numbered}", text) from exc
