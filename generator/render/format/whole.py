"""Black on a whole module: the reference every other way of formatting must equal."""

from __future__ import annotations

from .black_mode import mode


class FormatError(Exception):
    """Black refused the generated text: a generator bug. The text is kept for the report."""

    def __init__(self, message: str, text: str) -> None:
        super().__init__(message)
        self.text = text


def format_whole(text: str) -> str:
    """The reference: black on the whole text."""
    import black

    try:
        return str(black.format_str(text, mode=mode()))
    except black.InvalidInput as exc:
        numbered = "\n".join(f"{i:5} {line}" for i, line in enumerate(text.splitlines(), 1))
        raise FormatError(f"black could not parse the generated code: {exc}\n{numbered}", text) from exc
