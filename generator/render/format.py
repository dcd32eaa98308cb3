"""Formatting with the pinned black, in-process, with an explicit mode (never a pyproject's).

``format_whole`` is the reference: black on the whole module. Whatever formats modules faster
(``schemagen.cache.format``) must give its bytes, byte for byte.
"""

from __future__ import annotations

import importlib.util
import os
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
    """The installed black's version, which the format cache keys on: read off its distribution's
    ``black-<version>.dist-info`` folder beside the package (the name the packaging standard gives it),
    without importing black (a tenth of a second) or any private module of it; from its metadata
    (some 50 ms) where that folder is not found, or not one."""
    spec = importlib.util.find_spec("black")
    if spec is not None and spec.origin:
        site = os.path.dirname(os.path.dirname(spec.origin))
        found = [n for n in os.listdir(site) if n.startswith("black-") and n.endswith(".dist-info")]
        if len(found) == 1:
            return found[0].removeprefix("black-").removesuffix(".dist-info")
    from importlib.metadata import version

    return version("black")


def format_whole(text: str) -> str:
    """Black on the whole text; ``FormatError`` (with the text, numbered) when black refuses it."""
    import black

    try:
        return str(black.format_str(text, mode=mode()))
    except black.InvalidInput as exc:
        numbered = "\n".join(f"{i:5} {line}" for i, line in enumerate(text.splitlines(), 1))
        raise FormatError(f"black could not parse the generated code: {exc}\n{numbered}", text) from exc
