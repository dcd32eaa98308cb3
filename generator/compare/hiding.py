"""Which difference hides which: one that has no witness because every payload reaching it is
refused first at another.

A witness is built from the place of its difference outwards, each container on the path from the
root holding the smallest values both sides take at the keys either side requires (``witness``).
When one of those keys (or a key inside its value, as deep as building went) can hold no value both
sides take, every payload that reaches the difference holds that key, and is refused there: the
place is *blocked*, and the difference of the same direction at it *hides* this one. The first
container met going out from the difference is the one whose key is taken, so the hider is the
nearest. A place inside a pair of models met again is the place where that pair was compared (each
pair is compared once); union members are told apart by the label ``check`` gives them, and matched
without it when the labels differ. Among several differences at a blocked place, the first that
holds a value there (not one that leaves the key out), in report order.

Hiders can hide each other (two keys, each refused by the other side): such a cycle is broken at its
first difference in report order, which is then hidden by none. Everything is a dictionary look-up
per difference and per step of its place: linear in the differences.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from .check import Segments


class Spot(NamedTuple):
    """What ``hiders`` reads of a difference."""

    direction: str
    segments: Segments
    blocked: Segments | None
    """Where no value both sides take exists, if that is why it has no witness."""
    omits: bool
    """Whether its witness leaves a key out."""


def hiders(spots: Sequence[Spot], again: Mapping[str, Mapping[Segments, Segments]]) -> list[int | None]:
    """For each difference (in report order), the index of the one that hides it, or ``None``;
    ``again``: per direction, where a pair of models was met again → where it was compared."""
    exact: dict[tuple[str, Segments], int] = {}
    loose: dict[tuple[str, Segments], int] = {}
    for i, s in enumerate(spots):
        for index, key in ((exact, (s.direction, s.segments)), (loose, (s.direction, _unlabelled(s.segments)))):
            kept = index.get(key)
            if kept is None or (spots[kept].omits and not s.omits):
                index[key] = i
    parents: list[int | None] = []
    for i, s in enumerate(spots):
        found = None
        if s.blocked is not None:
            place = _compared(s.blocked, again.get(s.direction, {}))
            found = exact.get((s.direction, place), loose.get((s.direction, _unlabelled(place))))
        parents.append(None if found == i else found)
    return _acyclic(parents)


def _unlabelled(segments: Segments) -> Segments:
    return tuple(s for s in segments if s[0] != "member")


def _compared(place: Segments, again: Mapping[Segments, Segments]) -> Segments:
    """``place``, inside the models where they were compared: the longest start of it met again, replaced."""
    for _ in range(len(place) + 1):  # a place compared is never inside one met again: once is enough, but bounded
        for n in range(len(place), 0, -1):
            first = again.get(place[:n])
            if first is not None:
                place = (*first, *place[n:])
                break
        else:
            return place
    return place


def _acyclic(parents: list[int | None]) -> list[int | None]:
    """``parents`` with each cycle broken at its first member (the lowest index)."""
    state = [0] * len(parents)  # 0: not seen, 1: on the path being followed, 2: done
    for start in range(len(parents)):
        path: list[int] = []
        i: int | None = start
        while i is not None and state[i] == 0:
            state[i] = 1
            path.append(i)
            i = parents[i]
        if i is not None and state[i] == 1:  # a cycle: path from i on
            cycle = path[path.index(i):]
            parents[min(cycle)] = None
        for j in path:
            state[j] = 2
    return parents


def outward(parents: Sequence[int | None]) -> list[int]:
    """The indices, each hider before what it hides (``parents`` without cycles)."""
    depth: list[int | None] = [None] * len(parents)
    for start in range(len(parents)):
        path: list[int] = []
        i: int | None = start
        while i is not None and depth[i] is None:
            path.append(i)
            i = parents[i]
        base = -1 if i is None else depth[i]
        assert base is not None
        for j in reversed(path):
            base += 1
            depth[j] = base
    return sorted(range(len(parents)), key=lambda i: (depth[i], i))


def tree(parents: Sequence[int | None]) -> list[tuple[int, int]]:
    """``(level, index)`` in display order: each difference hidden by none in report order, the
    differences it hides under it (a level deeper), and theirs under them."""
    children: dict[int, list[int]] = {}
    for i, p in enumerate(parents):
        if p is not None:
            children.setdefault(p, []).append(i)
    out: list[tuple[int, int]] = []
    stack = [(0, i) for i in reversed(range(len(parents))) if parents[i] is None]
    while stack:
        level, i = stack.pop()
        out.append((level, i))
        stack.extend((level + 1, c) for c in reversed(children.get(i, [])))
    return out


def causes(parents: Sequence[int | None]) -> list[tuple[int, int]]:
    """``(index, how many it hides, directly or not)`` of each difference hidden by none that hides
    some: the most first, then in report order."""
    counts: list[tuple[int, int]] = []
    for level, i in tree(parents):
        if level == 0:
            counts.append((i, 0))
        else:
            counts[-1] = (counts[-1][0], counts[-1][1] + 1)
    return sorted(((i, n) for i, n in counts if n), key=lambda c: (-c[1], c[0]))
