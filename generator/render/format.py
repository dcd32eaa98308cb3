"""Formatting with the pinned black, in-process, with an explicit mode (never a pyproject's)."""

from __future__ import annotations

import black

MODE = black.Mode(line_length=88, target_versions={black.TargetVersion.PY311})


class FormatError(Exception):
    """Black refused the generated text: a generator bug. The text is kept for the report."""

    def __init__(self, message: str, text: str) -> None:
        super().__init__(message)
        self.text = text


def format_source(text: str) -> str:
    try:
        return black.format_str(text, mode=MODE)
    except black.InvalidInput as exc:
        numbered = "\n".join(f"{i:5} {line}" for i, line in enumerate(text.splitlines(), 1))
        raise FormatError(f"black could not parse the generated code: {exc}\n{numbered}", text) from exc
