"""What ``validate`` prints: each payload accepted or its problems, then the problems grouped by the
place in the schema that says them (``Usage.iterations`` required, absent in 35 of 88), as text or JSON."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from . import Checked
from .explain import Problem

Place = Callable[[Problem], str]
"""A problem's place in the schema, written ``file:line:col#pointer``."""

SAID = {"missing": "required, absent", "null": "null, not allowed", "enum": "a value the enum lacks",
        "unknown key": "a key the closed object does not have", "unknown tag": "a tag no member has",
        "type": "a value of another type", "limit": "a value out of the limits", "union": "a value no member takes"}


@dataclass(frozen=True, slots=True)
class Group:
    schema: str
    what: str
    count: int
    place: str


def summary(checked: list[Checked], place: Place) -> list[Group]:
    """The problems by schema place and kind, each with the number of payloads it is in, most first."""
    found: dict[tuple[str, str], tuple[set[int], str]] = {}
    for i, c in enumerate(checked):
        for p in c.problems:
            entry = found.setdefault((p.schema, SAID[p.kind]), (set(), place(p)))
            entry[0].add(i)
    groups = [Group(schema, what, len(payloads), at) for (schema, what), (payloads, at) in found.items()]
    return sorted(groups, key=lambda g: (-g.count, g.schema, g.what))


def text(checked: list[Checked], place: Place) -> str:
    lines = []
    for c in checked:
        name = c.payload.file + (f":{c.payload.line}" if c.payload.line is not None else "")
        lines.append(f"{name}: {'accepted' if c.accepted else 'refused'}")
        lines += [f"  {p.where}: {p.what} ({place(p)})" for p in c.problems]
    refused = sum(not c.accepted for c in checked)
    lines.append("")
    lines.append(f"{refused} of {len(checked)} payloads refused" + (":" if refused else ""))
    lines += [f"  `{g.schema}` {g.what}, in {g.count} of {len(checked)}  ({g.place})" for g in summary(checked, place)]
    return "\n".join(lines) + "\n"


def as_json(checked: list[Checked], place: Place) -> str:
    payloads = [{"file": c.payload.file, **({"line": c.payload.line} if c.payload.line is not None else {}),
                 "accepted": c.accepted,
                 "errors": [{"where": p.where, "what": p.what, "schema": place(p)} for p in c.problems]}
                for c in checked]
    groups = [{"schema": g.schema, "what": g.what, "count": g.count, "place": g.place} for g in summary(checked, place)]
    return json.dumps({"payloads": payloads, "summary": groups}, indent=2, ensure_ascii=False) + "\n"
