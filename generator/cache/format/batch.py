"""Black on statements and chunks: statements are sent to black in batches and cut apart again."""

from __future__ import annotations

from ...render.format import mode
from .chunks import logical_lines

_CONTEXT = {"module": ("", ""), "body": ("class _:\n", ""), "header": ("", "    pass\n")}
"""What a statement is formatted inside: a module of its own, a class body, a class with a body."""
BATCH = 40
"""Statements formatted by one call of black (they are split apart again afterwards)."""


def _black(text: str) -> str:
    import black

    return str(black.format_str(text, mode=mode()))


def format_statement(kind: str, source: str) -> str | None:
    """Black's formatting of one statement in its context; ``None`` if black refuses it."""
    before, after = _CONTEXT[kind]
    try:
        out = _black(before + source + after)
    except Exception:
        return None
    if not (out.startswith(before) and out.endswith(after)):
        return None
    return out[len(before):len(out) - len(after)]


def format_statements(kind: str, sources: list[str]) -> list[str | None]:
    """``format_statement`` of each; black is called once for all of them when that works out."""
    if len(sources) > 1:
        together = _format_together(kind, sources)
        if together is not None:
            return together  # type: ignore[return-value]
    return [format_statement(kind, s) for s in sources]


def _format_together(kind: str, sources: list[str]) -> list[str] | None:
    """The statements in one context, cut apart again: simple statements are one logical line each, and
    classes (headers with a ``pass`` body) are two blank lines apart. ``None`` if it does not cut."""
    before, after = _CONTEXT[kind]
    try:
        out = _black(before + "".join(s + after for s in sources))
    except Exception:
        return None
    if not out.startswith(before):
        return None
    out = out[len(before):]
    if kind == "header":
        parts = out.split(after)
        if len(parts) != len(sources) + 1 or parts[-1] or not all(p.startswith("\n\n") for p in parts[1:-1]):
            return None
        results = [parts[0]] + [p[2:] for p in parts[1:-1]]
    else:
        lines = logical_lines(out)
        if lines is None or len(lines) != len(sources):
            return None
        results = [out[start:end] for start, end in lines]
    return None if any(r.startswith("\n") for r in results) else results


def format_chunk(text: str) -> str | None:
    try:
        return _black(text)
    except Exception:
        return None

