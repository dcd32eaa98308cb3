"""The pinned black: its mode, explicit (never a pyproject's), and its version."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # black is imported when something is formatted, not when the program starts
    import black

LINE_LENGTH = 88
TARGET = "PY311"
SCHEME = "2"
"""Version of how chunks and statements are cut and keyed; change it when their meaning changes."""


@cache
def mode() -> black.Mode:
    import black

    return black.Mode(line_length=LINE_LENGTH, target_versions={black.TargetVersion[TARGET]})


@cache
def black_version() -> str:
    from _black_version import version  # a one-line module; ``import black`` takes a tenth of a second

    return str(version)
