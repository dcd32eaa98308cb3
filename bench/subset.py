"""Smaller OpenAPI documents cut from a big one: a subset of its component schemas closed under
references (every ``#/components/schemas/X`` a chosen schema mentions, as ``$ref`` or in a
discriminator mapping, is chosen too), so that each subset is a valid input of its own."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

PREFIX = "#/components/schemas/"


def mentions(value: Any) -> Iterator[str]:
    """The component names a schema refers to."""
    if isinstance(value, dict):
        for item in value.values():
            yield from mentions(item)
    elif isinstance(value, list):
        for item in value:
            yield from mentions(item)
    elif isinstance(value, str) and value.startswith(PREFIX):
        yield value[len(PREFIX):].split("/", 1)[0].replace("~1", "/").replace("~0", "~")


def closure(schemas: dict[str, Any], name: str) -> set[str]:
    found: set[str] = set()
    todo = [name]
    while todo:
        current = todo.pop()
        if current in found or current not in schemas:
            continue
        found.add(current)
        todo.extend(mentions(schemas[current]))
    return found


def closed_subset(document: dict[str, Any], size: int) -> dict[str, Any]:
    """``document`` with about ``size`` of its component schemas (at most ``size``), closed under
    references; schemas are taken in document order, each with what it refers to, while they fit."""
    schemas: dict[str, Any] = document["components"]["schemas"]
    chosen: set[str] = set()
    for name in schemas:
        if name in chosen:
            continue
        more = closure(schemas, name) - chosen
        if len(chosen) + len(more) <= size:
            chosen |= more
        if len(chosen) >= size:
            break
    return {
        "openapi": document.get("openapi", "3.1.0"),
        "info": document.get("info", {"title": "subset", "version": "0"}),
        "paths": {},
        "components": {"schemas": {name: schema for name, schema in schemas.items() if name in chosen}},
    }
