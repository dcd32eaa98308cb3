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
from .places import owner_place, requiring

__all__ = ["Checked", "Payload", "Problem", "check", "place_of", "read_all"]


@dataclass(frozen=True, slots=True)
class Checked:
    payload: Payload
    problems: list[Problem]

    @property
    def accepted(self) -> bool:
        return not self.problems


def check(side: Side, payloads: list[Payload], variant: str = "msgspec") -> tuple[list[Checked], str | None]:
    """Each payload with the places where the side's models of ``variant`` refuse it (none: accepted),
    and a note when another variant's models had to judge (``variants.judge``).

    The generated models decide; the places are the explanation's (``explain``, a model of msgspec's
    decoding). Where the two disagree, which tests hold as a bug, the models' word stands: a payload
    they refuse and the explanation finds nothing in is refused at the root, in their words."""
    from .variants import judge

    verdict, note = judge(side, variant)
    explainer = Explainer(side)
    checked = []
    for p in payloads:
        refused = verdict(p.value)
        problems = [] if refused is None else explainer.explain(p.value)
        if refused is not None and not problems:
            problems = [Problem("$", "type", refused, explainer.top[1])]
        checked.append(Checked(p, problems))
    return checked, note


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
        holders = requiring(document, place, problem.key)
        return origin.path, f"{holders[0]}/required" if holders else place
    return origin.path, place
