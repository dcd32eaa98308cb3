"""Model changes as text for a terminal, or as a Markdown table for a pull request."""

from __future__ import annotations

from collections import Counter

from .changes import SEVERITIES, Change, Severity

LABELS: dict[Severity, str] = {"breaking": "BREAKING", "compatible": "compatible", "docs": "docs"}
WIDTH = max(map(len, LABELS.values()))
NOTHING = "no model changes\n"
MARKDOWN_PUNCTUATION = set("\\`*_[]<>|~")


def text(changes: list[Change]) -> str:
    """One line per change, the label padded to a column, in the order given (``changes.ordered``)."""
    if not changes:
        return NOTHING
    return "".join(f"{LABELS[c.severity]:<{WIDTH}} {c.where}: {c.what}\n" for c in changes)


def markdown(changes: list[Change]) -> str:
    """A table ``| change | where | what |``, one row per change."""
    if not changes:
        return NOTHING
    rows = ["| change | where | what |", "| --- | --- | --- |"]
    for c in changes:
        label = f"**{LABELS[c.severity]}**" if c.breaking else LABELS[c.severity]
        rows.append(f"| {label} | `{c.where}` | {cell(c.what)} |")
    return "\n".join(rows) + "\n"


def cell(value: str) -> str:
    """Shown as written: Markdown punctuation escaped, a pipe would end the cell, a newline the row."""
    return " ".join("".join("\\" + ch if ch in MARKDOWN_PUNCTUATION else ch for ch in value).split())


def summary(changes: list[Change], rev: str) -> str:
    """One line for stderr: how many of each kind, since ``rev``."""
    counts = Counter(c.severity for c in changes)
    parts = ", ".join(f"{counts[s]} {s}" for s in SEVERITIES)
    return f"changes since {rev}: {parts}"
