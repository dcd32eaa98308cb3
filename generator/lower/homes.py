"""The order definitions are lowered in: each after the definitions it folds in.

Folding (an ``allOf`` member, a ``$ref`` beside constraining keywords, a union beside the keywords
its branches share) copies a definition's subschemas into another parent; the inline model of such a
subschema is one declaration per place (``Lowering.inline``), named by the first parent that lowers
it. Lowering the folded-in definition first makes that parent the one that writes the subschema:
``AdminApiKey``'s ``owner`` is ``AdminApiKeyOwner`` in ``AdminApiKeyCreateResponse`` too, whatever
order the document lists them in. (The output's order is ``passes.order``'s, by name.)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from ..frontend.schema import Definition
from .shapes import REF_ANNOTATIONS

_UNIONS = ("anyOf", "oneOf")
BESIDE_NOTHING = REF_ANNOTATIONS | set(_UNIONS)
"""A union with no other keyword than these: its branches take nothing from beside them."""


def home_first(definitions: Mapping[str, Definition], direct: Mapping[str, Sequence[str]] | None = None) -> list[str]:
    """The keys of ``definitions`` in order, each moved after those it folds in (a cycle is cut where
    it is met again); ``direct``: ``folds_of(definitions)``, where it is known already."""
    direct = folds_of(definitions) if direct is None else direct
    folds = {key: [k for k in direct[key] if k in definitions and k != key] for key in definitions}
    done: set[str] = set()
    ordered: list[str] = []
    for start in definitions:
        if start in done:
            continue
        done.add(start)
        stack: list[tuple[str, Iterator[str]]] = [(start, iter(folds[start]))]
        while stack:
            key, rest = stack[-1]
            following = next((k for k in rest if k not in done), None)
            if following is None:
                stack.pop()
                ordered.append(key)
            else:
                done.add(following)
                stack.append((following, iter(folds[following])))
    return ordered


def folds_of(definitions: Mapping[str, Definition]) -> dict[str, list[str]]:
    """``folded`` of each definition's schema, by key."""
    own = {id(d.schema) for d in definitions.values()}
    return {key: folded(d.schema, own) for key, d in definitions.items()}


def folded(root: Any, own: set[int]) -> list[str]:
    """The ``$ref`` targets folding copies into ``root`` (not into the definitions nested in it)."""
    found: list[str] = []
    for node, nested in own_nodes(root, own):
        if nested:
            continue
        ref = node.get("$ref")
        if isinstance(ref, str) and not REF_ANNOTATIONS.issuperset(node):
            found.append(ref)
        members = _list(node.get("allOf"))
        if ("anyOf" in node or "oneOf" in node) and not BESIDE_NOTHING.issuperset(node):
            members = [*members, *_list(node.get("anyOf")), *_list(node.get("oneOf"))]  # branches take what is beside them
        for member in members:
            if isinstance(member, dict) and isinstance(member.get("$ref"), str):
                found.append(member["$ref"])
    return found


def own_nodes(root: Any, own: set[int]) -> Iterator[tuple[dict[str, Any], bool]]:
    """Every object of ``root``'s document, once (a value met along two paths, through a YAML anchor, is
    walked once), each with whether it is a definition nested in ``root`` (``own``: the ``id`` of every
    definition's schema): such a one is met, not walked (it is walked for itself)."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack.extend(node)
            continue
        if not isinstance(node, dict) or id(node) in seen:
            continue
        seen.add(id(node))
        nested = id(node) in own and node is not root
        yield node, nested
        if not nested:
            stack.extend(node.values())


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
