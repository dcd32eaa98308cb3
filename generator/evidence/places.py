"""Where a problem is written in the document: the schema objects an overlay action must change.

A declaration's schema is at its origin's pointer; what folding put into it (``allOf`` members, their
``$ref`` targets in the same document) may hold the keyword instead, so each search looks there too,
in document order. Then the JSONPath (RFC 9535) an overlay's ``target`` selects that place with.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from ..diagnostics import pointer as json_pointer, tokens
from .explain import Owner

Test = Callable[[dict[str, Any]], bool]
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def at(document: Any, pointer: str) -> Any:
    """The value at ``pointer``, or ``None``."""
    node = document
    for token in tokens(pointer):
        if isinstance(node, dict):
            node = node.get(token)
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return None
    return node


def places(document: Any, pointer: str, test: Test) -> list[str]:
    """The schema at ``pointer`` and those it folds in (``allOf`` members, local ``$ref`` targets)
    that pass ``test``, in document order; each once."""
    found: list[str] = []
    seen: set[str] = set()
    stack = [pointer]
    while stack:
        here = stack.pop()
        node = at(document, here)
        if here in seen or not isinstance(node, dict):
            continue
        seen.add(here)
        if test(node):
            found.append(here)
        inner = [_local(m["$ref"]) if isinstance(m, dict) and isinstance(m.get("$ref"), str) else f"{here}/allOf/{i}"
                 for i, m in enumerate(node.get("allOf") or [])]
        if isinstance(node.get("$ref"), str) and len(node) > 1:  # a $ref beside other keywords is folded in too
            inner.insert(0, _local(node["$ref"]))
        stack.extend(reversed([p for p in inner if p is not None]))
    return found


def requiring(document: Any, pointer: str, key: str) -> list[str]:
    """The schemas at ``pointer`` and folded into it whose ``required`` lists ``key``."""
    return places(document, pointer, lambda n: isinstance(n.get("required"), list) and key in n["required"])


def owner_place(document: Any, owner: Owner) -> str | None:
    """The pointer of the schema ``owner`` names: its declaration's, then each step from it (a
    property where one of the schemas folded in declares it)."""
    origin = owner.declaration.origin
    if origin is None:
        return None
    here = origin.pointer
    steps = iter(owner.steps)
    for step in steps:
        if step == "properties":
            key = next(steps)
            holders = places(document, here, lambda n: isinstance(n.get("properties"), dict) and key in n["properties"])
            if not holders:
                return None
            here = holders[0] + json_pointer("properties", key)
        else:
            here = f"{here}/{step}"
        if not isinstance(at(document, here), dict):
            return None
    return here


def jsonpath(document: Any, pointer: str) -> str:
    """``$.components.schemas.Usage``: the place at ``pointer``, as names where they are plain and
    as quoted names or indexes elsewhere."""
    text, node = "$", document
    for token in tokens(pointer):
        if isinstance(node, list):
            text += f"[{int(token)}]"
            node = node[int(token)]
            continue
        text += f".{token}" if _NAME.fullmatch(token) else f"[{quoted(token)}]"
        node = node[token] if isinstance(node, dict) else None
    return text


def quoted(text: str) -> str:
    """A JSONPath string literal: single quotes, with ``\\`` and ``'`` escaped and control characters as JSON writes them."""
    inner = json.dumps(text, ensure_ascii=False)[1:-1].replace('\\"', '"').replace("'", "\\'")
    return f"'{inner}'"


def _local(ref: str) -> str | None:
    return ref[1:] if ref.startswith("#") else None


