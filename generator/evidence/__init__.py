"""``schemagen validate PATH#Name PAYLOAD…``: recorded payloads read by a side's models.

``check`` decodes each payload (``payloads``) as the side's msgspec models do, and says every place
where they refuse it (``explain``), with the place in the schema that says so. ``suggest`` writes
the overlay that would mend the spec so that the models accept them; ``report`` prints both.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..compare.sides import Side
from .explain import Explainer, Problem
from .payloads import Payload, read_all
from .places import owner_place, places

__all__ = ["Checked", "Payload", "Problem", "check", "place_of", "read_all"]


@dataclass(frozen=True, slots=True)
class Checked:
    payload: Payload
    problems: list[Problem]

    @property
    def accepted(self) -> bool:
        return not self.problems


def check(side: Side, payloads: list[Payload]) -> list[Checked]:
    """Each payload with the places where the side's models refuse it (none: accepted)."""
    explainer = Explainer(side)
    return [Checked(p, explainer.explain(p.value)) for p in payloads]


def place_of(problem: Problem, documents: dict[str, Any]) -> tuple[str, str]:
    """The file and JSON pointer of the schema that says what ``problem`` breaks (for a required key:
    the ``required`` that lists it), in ``documents`` (display path → mended document) when it is one
    of them; else the declaration's own place."""
    origin = problem.owner.declaration.origin
    if origin is None:
        return "", ""
    document = documents.get(origin.path)
    if document is None:
        return origin.path, origin.pointer
    place = owner_place(document, problem.owner)
    if place is None:
        return origin.path, origin.pointer
    if problem.kind == "missing" and problem.key is not None:
        key = problem.key
        holders = places(document, place, lambda n: isinstance(n.get("required"), list) and key in n["required"])
        return origin.path, f"{holders[0]}/required" if holders else place
    return origin.path, place
