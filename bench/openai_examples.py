"""The example objects of OpenAI's description, and the class each one is an instance of: the payloads
that bench/decode.py times and tests/test_openai_corpus.py reads with both variants."""

from __future__ import annotations

import json
from typing import Any

from schemagen import ir


def examples(document: dict[str, Any]) -> list[tuple[str, str, Any]]:
    """(where, component, value): each component's ``x-oaiMeta`` example and ``example`` object, and
    each operation's example response (``x-oaiMeta.examples[].response``) with its 200 response's
    component; the JSON ones."""
    found: list[tuple[str, str, Any]] = []
    for name, schema in document["components"]["schemas"].items():
        meta = schema.get("x-oaiMeta") or {} if isinstance(schema, dict) else {}
        for where, value in (("x-oaiMeta.example", meta.get("example")), ("example", schema.get("example"))):
            if isinstance(value, str):
                try:
                    value = json.loads(value)
                except ValueError:
                    continue
            if isinstance(value, dict):
                found.append((f"{name} {where}", name, value))
    for route, operations in document["paths"].items():
        for method, operation in operations.items():
            try:
                ref = operation["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
            except (KeyError, TypeError):
                continue
            listed = (operation.get("x-oaiMeta") or {}).get("examples") or []
            for example in [listed] if isinstance(listed, dict) else listed:
                try:
                    found.append((f"{method} {route}", ref.rsplit("/", 1)[-1], json.loads(example["response"])))
                except (KeyError, TypeError, ValueError):
                    continue
    return found


def component_classes(module: ir.Module) -> dict[str, str]:
    """Component name → the class generated for it (``#/components/schemas/<name>`` itself)."""
    return {d.origin.pointer.rsplit("/", 1)[-1]: d.name for d in module.declarations
            if isinstance(d, ir.Model) and d.origin and d.origin.pointer.count("/") == 3}
