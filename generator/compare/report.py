"""A comparison as text for a terminal, a Markdown table, or JSON; and its summary line."""

from __future__ import annotations

import json

from ..review.report import cell
from . import DIRECTIONS, Comparison

NOTHING = "no differences\n"
ROOT = "(root)"


def text(c: Comparison) -> str:
    """One line per difference, ``a->b`` first: ``a->b  choices[].finish_reason: value 'x' only in A``."""
    if not c.differences:
        return NOTHING
    return "".join(f"{d.direction:<4}  {d.where or ROOT}: {d.what}\n" for d in c.differences)


def markdown(c: Comparison) -> str:
    """A table ``| direction | where | A | B | what |``, one row per difference."""
    if not c.differences:
        return NOTHING
    rows = ["| direction | where | A | B | what |", "| --- | --- | --- | --- | --- |"]
    for d in c.differences:
        direction = d.direction if d.direction == "docs" else f"**{d.direction}**"
        rows.append(f"| {direction} | `{d.where or ROOT}` | `{d.a}` | `{d.b}` | {cell(d.what)} |")
    return "\n".join(rows) + "\n"


def as_json(c: Comparison) -> str:
    document = {
        "a": c.a, "b": c.b, "pairs": [list(p) for p in c.pairs],
        "differences": [{"direction": d.direction, "where": d.where, "a": d.a, "b": d.b, "field": d.field,
                         "what": d.what, "witness": d.witness} for d in c.differences],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def summary(c: Comparison) -> str:
    """One line for stderr: how many of each direction, and how many declarations were paired."""
    counts = ", ".join(f"{c.count(d)} {d}" for d in DIRECTIONS)
    return f"{counts} ({c.a} as A, {c.b} as B); {len(c.pairs)} pairs of declarations"

