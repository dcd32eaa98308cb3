"""Formatting with the pinned black, in-process, with an explicit mode (never a pyproject's).

``format_whole`` is the reference: black on the whole module. Whatever formats modules faster
(``schemagen.cache.format``) must give its bytes, byte for byte.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

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


@cache
def black_version() -> str:
    from _black_version import version  # a one-line module; ``import black`` takes a tenth of a second

    return str(version)


def format_whole(text: str) -> str:
    """Black on the whole text; ``FormatError`` (with the text, numbered) when black refuses it."""
    import black

    try:
        return str(black.format_str(text, mode=mode()))
    except black.InvalidInput as exc:
        numbered = "\n".join(f"{i:5} {line}" for i, line in enumerate(text.splitlines(), 1))
        raise FormatError(f"black could not parse the generated code: {exc}\n{numbered}", text) from exc
