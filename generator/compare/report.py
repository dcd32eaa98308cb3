"""A comparison as text for a terminal, a Markdown table, or JSON; and its summary line.

Each opens with the root causes where there are some (``hiding``): each difference that hides others
and is hidden by none, how many it hides, and its witness; the differences it hides are listed under
it, a level deeper.
"""

from __future__ import annotations

import json

from ..review.report import cell
from . import DIRECTIONS, ROOT, Comparison, Difference
from .hiding import causes, tree

NOTHING = "no differences\n"
INDENT = " " * len("a->b  ")
"""A hidden difference's line starts under the place of the line of the one that hides it."""


def text(c: Comparison) -> str:
    """One line per difference, ``a->b`` first: ``a->b  choices[].finish_reason: value 'x' only in A``; a hidden
    one indented under the one that hides it; first, the root causes."""
    if not c.differences:
        return NOTHING
    lines = []
    root_causes = _causes(c)
    if root_causes:
        lines.append(f"root causes: {_headline(root_causes)}; a payload that reaches a hidden one is refused first at "
                     "the one it is listed under")
        for d, n in root_causes:
            lines.append(f"{d.direction:<4}  {d.where or ROOT}: {d.what} (hides {n})")
            if d.witnessed:
                lines.append(f"{INDENT}witness: {json.dumps(d.witness, ensure_ascii=False)}")
        lines.append("")
    for level, d in _tree(c):
        lines.append(f"{INDENT * level}{d.direction:<4}  {d.where or ROOT}: {d.fact if level else d.what}")
    return "\n".join(lines) + "\n"


def markdown(c: Comparison) -> str:
    """A table ``| direction | where | A | B | what |``, one row per difference, a hidden one (``↳``) under the one
    that hides it; first, a table of the root causes."""
    if not c.differences:
        return NOTHING
    rows = []
    root_causes = _causes(c)
    if root_causes:
        rows += [f"**Root causes**: {_headline(root_causes)}; a payload that reaches a hidden one (↳) is refused first "
                 "at the one it is listed under.", "",
                 "| direction | where | what | hides | witness |", "| --- | --- | --- | --- | --- |"]
        for d, n in root_causes:
            shown = cell(json.dumps(d.witness, ensure_ascii=False)) if d.witnessed else "none"
            rows.append(f"| **{d.direction}** | `{d.where or ROOT}` | {cell(d.what)} | {n} | {shown} |")
        rows.append("")
    rows += ["| direction | where | A | B | what |", "| --- | --- | --- | --- | --- |"]
    for level, d in _tree(c):
        direction = d.direction if d.direction == "docs" else f"**{d.direction}**"
        mark = "&emsp;" * (level - 1) + "↳ " if level else ""
        rows.append(f"| {mark}{direction} | `{d.where or ROOT}` | `{d.a}` | `{d.b}` | "
                    f"{cell(d.fact if level else d.what)} |")
    return "\n".join(rows) + "\n"


def as_json(c: Comparison) -> str:
    """The sides, the pairs, each difference (``hidden_by``: the place of the one that hides it), then the root
    causes (``hides``: how many)."""
    document = {
        "a": c.a, "b": c.b, "pairs": [list(p) for p in c.pairs],
        "differences": [{"direction": d.direction, "where": d.where, "a": d.a, "b": d.b, "field": d.field,
                         "what": d.what, "witness": d.witness,
                         "hidden_by": None if d.hidden_by is None else d.hidden_by.where} for d in c.differences],
        "root_causes": [{"direction": d.direction, "where": d.where, "what": d.what, "hides": n, "witness": d.witness}
                        for d, n in _causes(c)],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def summary(c: Comparison) -> str:
    """One line for stderr: how many of each direction, and how many declarations were paired."""
    counts = ", ".join(f"{c.count(d)} {d}" for d in DIRECTIONS)
    return f"{counts} ({c.a} as A, {c.b} as B); {len(c.pairs)} pairs of declarations"


def _parents(c: Comparison) -> list[int | None]:
    index = {id(d): i for i, d in enumerate(c.differences)}
    return [None if d.hidden_by is None else index[id(d.hidden_by)] for d in c.differences]


def _tree(c: Comparison) -> list[tuple[int, Difference]]:
    return [(level, c.differences[i]) for level, i in tree(_parents(c))]


def _causes(c: Comparison) -> list[tuple[Difference, int]]:
    """The root causes, ``a->b`` first, each direction's the most hiding first."""
    found = [(c.differences[i], n) for i, n in causes(_parents(c))]
    return sorted(found, key=lambda cause: DIRECTIONS.index(cause[0].direction))


def _headline(root_causes: list[tuple[Difference, int]]) -> str:
    """``1 difference hides 8 others``, ``2 differences hide 18 others``."""
    hidden = sum(n for _, n in root_causes)
    many = len(root_causes) > 1
    return (f"{len(root_causes)} difference{'s' if many else ''} hide{'' if many else 's'} {hidden} "
            f"other{'s' if hidden > 1 else ''}")
