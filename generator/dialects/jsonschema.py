"""JSON Schema (draft-04 to 2020-12) into the canonical ``SchemaSet``."""

from __future__ import annotations

from typing import Any

from ..errors import Location, pointer
from ..schema import Definition, Schema, SchemaSet, wrap
from .common import boolean_exclusive_bounds, drop_extensions, map_subschemas, tuple_items

#: Keywords that make a document a type of its own rather than only a container of definitions.
TYPE_KEYWORDS = frozenset(
    {"type", "properties", "items", "prefixItems", "anyOf", "oneOf", "allOf", "enum", "const",
     "$ref", "additionalProperties", "patternProperties"}
)
DEFINITION_CONTAINERS = ("definitions", "$defs")


def normalise(document: Any, display: str, default_name: str) -> SchemaSet:
    root = wrap(document, Location(display))
    if not isinstance(root, Schema):
        root = Schema({}, Location(display))
    definitions: dict[str, Definition] = {}
    if TYPE_KEYWORDS & root.keys():
        body = Schema({k: v for k, v in root.items() if k not in DEFINITION_CONTAINERS}, root.loc)
        title = root.get("title")
        name = title if isinstance(title, str) and title.strip() else default_name
        definitions["#"] = Definition("#", name, body)
    for container in DEFINITION_CONTAINERS:
        for name, schema in (root.get(container) or {}).items():
            key = "#" + pointer(container, name)
            definitions[key] = Definition(key, name, schema)
    _Refs(document, display, definitions).add_pointer_targets()
    return SchemaSet({key: Definition(d.key, d.name, _rewrite(d.schema)) for key, d in definitions.items()})


def _rewrite(schema: Schema) -> Schema:
    schema = map_subschemas(schema, _rewrite)
    boolean_exclusive_bounds(schema)
    tuple_items(schema)
    drop_extensions(schema)
    return schema


class _Refs:
    """Local ``$ref``s that point inside a definition (``#/properties/a``) get a definition of their own."""

    def __init__(self, document: Any, display: str, definitions: dict[str, Definition]) -> None:
        self.document = document
        self.display = display
        self.definitions = definitions

    def add_pointer_targets(self) -> None:
        pending = list(self.definitions.values())
        while pending:
            for ref in _refs(pending.pop().schema):
                if ref in self.definitions or not ref.startswith("#/"):
                    continue
                target = _follow(self.document, ref[1:])
                if target is None:
                    continue
                tokens = ref[2:].split("/")
                name = tokens[-1].replace("~1", "/").replace("~0", "~")
                definition = Definition(ref, name, wrap(target, Location(self.display, ref[1:])))
                self.definitions[ref] = definition
                pending.append(definition)


def _refs(schema: Any) -> list[str]:
    """Every ``$ref`` string in ``schema`` and its subschemas."""
    found: list[str] = []
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, Schema):
            if isinstance(node.get("$ref"), str):
                found.append(node["$ref"])
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, dict):
            stack.extend(node.values())
    return found


def _follow(document: Any, json_pointer: str) -> Any:
    node = document
    for raw in json_pointer.split("/")[1:]:
        token = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return None
    return node if isinstance(node, (dict, bool)) else None
