"""Keywords beside ``$ref`` in OpenAPI 3.0 and Swagger 2.0, where a reference's siblings are ignored.

schemagen reads such a sibling as OpenAPI 3.1 and JSON Schema 2019-09 do: ``{$ref: X, nullable:
true}`` is X or null, ``{$ref: X, maxLength: 3}`` is X with the limit. Where that reading differs
from the version the document says it is, a warning says so: for every sibling that is no
annotation, unless the target already says the same (``nullable: true`` beside a nullable target).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...diagnostics import Location, Reporter, few, pointer
from ..schema import ONE_SCHEMA, SCHEMA_LIST, SCHEMA_MAP
from .common import follow

#: Siblings that only describe the reference: ignoring them or not gives the same type. (``default``
#: is the field's default beside a reference in every dialect, as drafts 4 to 7 have it too.)
ANNOTATIONS = frozenset({"$ref", "description", "title", "default", "example", "examples", "externalDocs", "xml",
                         "readOnly", "writeOnly", "deprecated", "$comment"})


def check(document: dict[str, Any], container: tuple[str, ...], display: str, version: str, reporter: Reporter) -> None:
    """Warn of each ``$ref`` under ``container`` (the document's schemas) whose siblings change its meaning."""
    schemas: object = document
    for token in container:
        schemas = schemas.get(token) if isinstance(schemas, dict) else None
    if not isinstance(schemas, dict):
        return
    for node, here in _walk(schemas, pointer(*container)):
        ref = node.get("$ref")
        if not isinstance(ref, str) or len(node) == 1:
            continue
        target = follow(document, ref[1:]) if ref.startswith("#/") else None
        changed = [k for k, v in node.items() if isinstance(k, str) and k not in ANNOTATIONS
                   and not k.startswith("x-") and not _same(k, v, target)]
        if changed:
            them = "it" if len(changed) == 1 else "them"
            reporter.warn(Location(display, here),
                          f"{version} ignores {few([f'`{k}`' for k in changed])} beside `$ref`; schemagen applies "
                          f"{them}, as OpenAPI 3.1 does",
                          f"to say so in {version}, put the reference alone in an `allOf` beside {them}",
                          kind="$ref sibling")


def _same(key: str, value: Any, target: Any) -> bool:
    """Whether the target says what the sibling ``key: value`` says (or the sibling says nothing)."""
    if key == "nullable" and value is not True:
        return True
    if not isinstance(target, dict):
        return False
    if key == "type" and target.get("nullable") is True:
        return False  # (a `type` beside a nullable target takes its null away)
    if key == "type" and "type" not in target:
        implied = "object" if any(k in target for k in ("properties", "additionalProperties")) else \
            "array" if "items" in target else None
        return bool(value == implied)
    return key in target and target[key] == value


def _walk(schemas: dict[str, Any], here: str) -> Iterator[tuple[dict[str, Any], str]]:
    """Every raw schema object under the definitions ``schemas`` (at ``here``), with its pointer."""
    stack: list[tuple[Any, str]] = [(v, here + pointer(k)) for k, v in reversed(schemas.items())]
    while stack:
        node, at = stack.pop()
        if not isinstance(node, dict):
            continue
        yield node, at
        found: list[tuple[Any, str]] = []
        for key, value in node.items():
            if key in ONE_SCHEMA:
                found.append((value, at + pointer(key)))
            elif key in SCHEMA_LIST + ("items",) and isinstance(value, list):
                found.extend((v, at + pointer(key, i)) for i, v in enumerate(value))
            elif key in SCHEMA_MAP and isinstance(value, dict):
                found.extend((v, at + pointer(key, k)) for k, v in value.items())
        stack.extend(reversed(found))
