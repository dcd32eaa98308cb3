"""The overlay that would make a side's models accept recorded payloads: one action per thing the
payloads show, each the smallest change a reviewer would accept, each saying its evidence.

- a required key the payloads leave out: it leaves ``required`` (of every schema folded in that lists it);
- null where the schema forbids it: null joins the type (``nullable: true`` in OpenAPI 3.0,
  ``x-nullable: true`` in Swagger 2.0; else ``"null"`` joins ``type``; a ``$ref`` becomes
  a union of it and null), and the enum, if there is one;
- a value an enum lacks: it joins the enum;
- a key a closed object does not have: the property is added, with the type its values have (a key
  no field can name, with a quote or a backslash in it, opens the object instead).

An unknown tag of a union, a value of another type and a value out of limits are reported, never
mended: the payloads cannot say which change is meant.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..compare.shapes import MSGSPEC
from ..ir import JSON
from .explain import Problem
from .places import at, jsonpath, owner_place, places, quoted, requiring

MENDED = ("missing", "null", "enum", "unknown key")
JSON_TYPES = {type(None): "null", bool: "boolean", int: "integer", float: "number", str: "string", list: "array",
              dict: "object"}


@dataclass
class _Group:
    sample: Problem
    place: str
    payloads: set[int] = field(default_factory=set)
    values: list[JSON] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Suggestion:
    actions: list[dict[str, Any]]
    unmended: list[str]
    """What the overlay does not mend, and why: one line each."""


def suggest(document: Any, display: str, found: Sequence[list[Problem]], nullable: str | None) -> Suggestion:
    """The actions on ``document`` (the file ``display``, mended as the models were made from it) that
    mend the problems ``found`` of each payload; ``nullable``: the keyword the dialect says null with
    (``nullable``, Swagger 2.0's ``x-nullable``), or ``None`` where null is a type."""
    total = len(found)
    groups: dict[tuple[str, str, str | None], _Group] = {}
    unmended: dict[str, set[int]] = {}
    for i, problems in enumerate(found):
        for p in problems:
            origin = p.owner.declaration.origin
            here = origin is not None and origin.path == display
            place = owner_place(document, p.owner) if p.kind in MENDED and here else None
            if place is None:
                why = ("not mended: the payloads do not say which change is meant" if p.kind not in MENDED
                       else f"not mended: it is written in {origin.path}, not in {display}" if origin and not here
                       else "not mended: its schema is not found in the document")
                unmended.setdefault(f"{p.schema}: {p.what} ({why})", set()).add(i)
                continue
            group = groups.setdefault((p.kind, place, p.key), _Group(p, place))
            group.payloads.add(i)
            group.values.append(p.value)
    actions: list[dict[str, Any]] = []
    for key in sorted(groups, key=lambda k: (k[1], MENDED.index(k[0]), k[2] or "")):
        group = groups[key]
        made = _actions(document, group, f"{len(group.payloads)} of {total} recorded payloads", nullable)
        if made:
            actions += made
        else:
            unmended.setdefault(f"{group.sample.schema}: {group.sample.what} (not mended: no place in the "
                                "document says it)", set()).update(group.payloads)
    lines = [f"{text}, in {len(payloads)} of {total} recorded payloads" for text, payloads in sorted(unmended.items())]
    return Suggestion(actions, lines)


def _actions(document: Any, group: _Group, evidence: str, nullable: str | None) -> list[dict[str, Any]]:
    p, place = group.sample, group.place
    if p.kind == "missing":
        assert p.key is not None
        return [{"target": f"{jsonpath(document, h)}.required[?@ == {quoted(p.key)}]",
                 "description": f"`{p.key}` is absent in {evidence}", "remove": True}
                for h in requiring(document, place, p.key)]
    if p.kind == "enum":
        holders = places(document, place, lambda n: isinstance(n.get("enum"), list) or "const" in n)
        new = list(dict.fromkeys(json.dumps(v, sort_keys=True) for v in group.values))
        values = [json.loads(v) for v in new]
        if not holders:
            return []
        said = f"{', '.join(new)}: sent in {evidence}"
        holder = at(document, holders[0])
        if isinstance(holder.get("enum"), list):
            return [{"target": jsonpath(document, holders[0]), "description": said, "update": {"enum": values}}]
        return [{"target": jsonpath(document, f"{holders[0]}/const"), "description": said, "remove": True},  # one value
                {"target": jsonpath(document, holders[0]), "description": said,  # becomes an enum of them
                 "update": {"enum": [holder["const"], *values]}}]
    if p.kind == "unknown key":
        assert p.key is not None
        holders = places(document, place, lambda n: n.get("additionalProperties") is False)
        if not holders:
            return []
        if not MSGSPEC.names_key(p.key):  # (no field can hold it: the object opens)
            return [{"target": jsonpath(document, f"{holders[0]}/additionalProperties"), "remove": True,
                     "description": f"`{p.key}` is in {evidence}, and no field of the models can name it"}]
        return [{"target": jsonpath(document, holders[0]),
                 "description": f"`{p.key}` is in {evidence}, and the object forbids unknown keys",
                 "update": {"properties": {p.key: _type_of(group.values, nullable)}}}]
    return _null(document, place, f"null in {evidence}", nullable)


def _null(document: Any, place: str, evidence: str, nullable: str | None) -> list[dict[str, Any]]:
    node = at(document, place)
    target = jsonpath(document, place)
    actions: list[dict[str, Any]] = []
    ref = node.get("$ref")
    if isinstance(ref, str):  # (nothing beside a $ref is read in OpenAPI 3.0: the reference moves into a union)
        actions.append({"target": jsonpath(document, f"{place}/$ref"), "description": evidence, "remove": True})
        union = {"allOf": [{"$ref": ref}], nullable: True} if nullable else {"anyOf": [{"$ref": ref}, {"type": "null"}]}
        actions.append({"target": target, "description": evidence, "update": union})
    kinds = node.get("type")
    if nullable and not isinstance(ref, str):
        actions.append({"target": target, "description": evidence, "update": {nullable: True}})
    elif not nullable and isinstance(kinds, str):  # (beside a $ref too: it would still refuse null)
        actions.append({"target": f"{target}.type", "description": evidence, "remove": True})
        actions.append({"target": target, "description": evidence, "update": {"type": [kinds, "null"]}})
    elif not nullable and isinstance(kinds, list):
        actions.append({"target": target, "description": evidence, "update": {"type": ["null"]}})
    elif not nullable and not isinstance(ref, str):
        members = next((k for k in ("anyOf", "oneOf") if isinstance(node.get(k), list)), None)
        if members is not None:
            actions.append({"target": target, "description": evidence, "update": {members: [{"type": "null"}]}})
        elif not isinstance(node.get("enum"), list):
            return []
    if isinstance(node.get("enum"), list) and None not in node["enum"]:
        actions.append({"target": target, "description": evidence, "update": {"enum": [None]}})
    return actions


def _type_of(values: list[JSON], nullable: str | None) -> dict[str, Any]:
    """The schema of a property the payloads hold: the JSON type of its values (integers among numbers
    are numbers; values of several other types: any value)."""
    kinds = {JSON_TYPES[type(v)] for v in values}
    if {"integer", "number"} <= kinds:
        kinds.discard("integer")
    others = sorted(kinds - {"null"})
    if len(others) > 1:
        return {}
    if not others:
        return {nullable: True} if nullable else {"type": "null"}
    if "null" not in kinds:
        return {"type": others[0]}
    return {"type": others[0], nullable: True} if nullable else {"type": [others[0], "null"]}
