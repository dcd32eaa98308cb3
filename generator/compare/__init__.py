"""``schemagen compare A B``: does code typed with one side's models accept the other side's payloads?

``compare(a, b)`` pairs the two roots and what they hold (``check``), in both directions: an
``a->b`` difference is a place where some payload A's model accepts is refused by B's (a client
typed with B's models, receiving A's responses, fails there); ``b->a`` the mirror; ``docs`` a
description that differs. Each ``a->b``/``b->a`` difference carries a witness where one can be built
(``witness``): a whole payload of the accepting root that its msgspec model decodes and the other
side's refuses; one that has none because every payload reaching it is refused first by another
difference is hidden by that one (``hiding``). ``sides`` reads ``PATH[#Name]``; ``report`` prints
the result.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from typing import Literal

from . import hiding
from .check import Checker, Found, Segments
from .shapes import JSON
from .sides import Side
from .values import Builder
from .witness import Shown, witness

Direction = Literal["a->b", "b->a", "docs"]
DIRECTIONS: tuple[Direction, ...] = ("a->b", "b->a", "docs")
ROOT = "(root)"
__all__ = ["DIRECTIONS", "Comparison", "Difference", "Direction", "Segments", "compare", "where"]


@dataclass(frozen=True, eq=False)
class Difference:
    direction: Direction
    where: str
    """The path from the root: ``choices[].finish_reason`` (``""``: the root itself)."""
    a: str
    """The declaration of A that holds the place (the model whose field it is)."""
    b: str
    field: str | None
    """The wire name of that model's field the place is in."""
    what: str
    witness: JSON
    """The payload that shows it; ``None`` is null where ``witnessed``, else there is none (``what`` says why)."""
    witnessed: bool = False
    segments: Segments = ()
    """``where`` as steps: (``field``, key), (``item``, None), (``index``, i), (``value``, None), (``member``, label)."""
    fact: str = ""
    """``what`` without why there is no witness."""
    hidden_by: Difference | None = None
    """The difference every payload that reaches this one meets first, and is refused at (so this one
    has no witness)."""
    blocked: Segments | None = None
    """Where no value both sides take exists, when that is why no witness was built (``hiding`` reads it)."""
    omits: bool = False
    """Whether the witness leaves a key out (else it holds a value there)."""


@dataclass(frozen=True, eq=False)
class Comparison:
    a: str
    b: str
    pairs: list[tuple[str, str]]
    """The declarations of A and B met at the same place, in the order they were met."""
    differences: list[Difference]

    def count(self, direction: Direction) -> int:
        return sum(d.direction == direction for d in self.differences)


def compare(a: Side, b: Side) -> Comparison:
    forward = Checker(a, b, ("A", "B"), docs=True).run()
    backward = Checker(b, a, ("B", "A")).run()
    builder = Builder(a, b)
    found: list[Difference] = []
    for f in forward.found:
        found.append(_difference("a->b", f, f.acc_decl, f.oth_decl, witness(f, a, b, builder, ("A", "B"))))
    for f in backward.found:
        found.append(_difference("b->a", f, f.oth_decl, f.acc_decl, witness(f, b, a, builder, ("B", "A"))))
    for f in forward.notes:
        found.append(_difference("docs", f, f.acc_decl, f.oth_decl, Shown(None)))
    unique = {(d.direction, d.where, d.what): d for d in reversed(found)}  # the first of each, kept
    rank = {direction: i for i, direction in enumerate(DIRECTIONS)}
    ordered = sorted(reversed(unique.values()), key=lambda d: (rank[d.direction], d.where))
    pairs = list(dict.fromkeys([*forward.pairs, *((p, q) for q, p in backward.pairs)]))
    return Comparison(a.label, b.label, pairs, _hidden(ordered, {"a->b": forward.again, "b->a": backward.again}))


def _hidden(ordered: list[Difference], again: dict[str, dict[Segments, Segments]]) -> list[Difference]:
    """``ordered``, each difference another hides naming it (``hiding``); a line that says what one before
    it says, once it names its hider, is left out (unless it hides some)."""
    parents = hiding.hiders([hiding.Spot(d.direction, d.segments, d.blocked, d.omits) for d in ordered], again)
    done: dict[int, Difference] = {}
    for i in hiding.outward(parents):
        d, p = ordered[i], parents[i]
        if p is not None:
            hider = done[p]
            d = replace(d, what=f"{d.fact} (no witness: hidden by {hider.where or ROOT})", hidden_by=hider)
        done[i] = d
    hiders = {p for p in parents if p is not None}
    said: set[tuple[str, str, str]] = set()
    kept = []
    for i in range(len(ordered)):
        d = done[i]
        if (d.direction, d.where, d.what) not in said or i in hiders:
            said.add((d.direction, d.where, d.what))
            kept.append(d)
    return kept


def _difference(direction: Direction, f: Found, a: str, b: str, shown: Shown) -> Difference:
    what = f.what if shown.why is None else f"{f.what} (no witness: {shown.why})"
    witnessed = direction != "docs" and shown.why is None
    omits = f.edit is not None and f.edit.pair is not None and f.edit.member is None
    return Difference(direction, where(f.segments), a, b, f.field, what, shown.value, witnessed, f.segments, f.what,
                      blocked=shown.blocked, omits=omits)


PLAIN_KEY = re.compile(r"[A-Za-z_$][\w$-]*")


def where(segments: Segments) -> str:
    """``choices[].message.tool_calls[]<type='function'>.type``; a key that is no plain word is quoted
    (``["a.b"]``), ``{}`` is any key of a map."""
    text = ""
    for kind, key in segments:
        if kind == "field":
            assert isinstance(key, str)
            text += ("." if text else "") + key if PLAIN_KEY.fullmatch(key) else f"[{json.dumps(key)}]"
        elif kind == "index":
            text += f"[{key}]"
        elif kind == "member":
            text += f"<{key}>"
        else:
            text += "[]" if kind == "item" else "{}"
    return text
