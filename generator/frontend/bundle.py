"""Definitions from schema files that are not inputs of their own.

A ``$ref`` to ``other.json#/definitions/X`` where ``other.json`` is an input imports that input's class
(``project.link``). Where ``other.json`` lies inside the schema folder but is no input (a shared file of
definitions, or a run on one file of a folder), the definitions the reference needs, and what they
refer to in turn, are read from it and declared in the referring module, under keys
``schemas/other.json#/definitions/X``. Nothing outside the schema folder is ever read: such a
reference is left for lowering to report as unresolved. A URL the normaliser found a document for
(``Library.locate``: a shipped meta-schema, a file where ``[tool.schemagen.refs]`` maps the URL) is
such a file too, under the key it was given (``http://json-schema.org/draft-07/schema#/definitions/X``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..diagnostics import Reporter
from ..frozen import replace
from ..names import pascal
from .dialects import normalise_referenced
from .library import Library
from .lint import examples
from .schema import Definition, Schema, SchemaSet, refs_of

__all__ = ["Library", "bundle"]


def bundle(schemas: SchemaSet, home: str, library: Library, reporter: Reporter) -> SchemaSet:
    """``schemas`` (read from ``home``) with every definition it needs from files of ``library``."""
    if schemas.self_contained:
        return schemas
    definitions = dict(schemas.definitions)
    anything = set(schemas.anything)
    documents: dict[str, _Document] = {}
    pending = [(ref, home, schemas.openapi) for d in definitions.values() for ref in refs_of(d.schema)]
    while pending:
        ref, referrer, openapi = pending.pop()
        file, _, fragment = ref.partition("#")
        if ref in definitions or ref in anything or not file or not library.answers(file, referrer):
            continue
        if file not in documents:
            document = library.read(file)
            if document is None:
                continue
            documents[file] = _Document(file, home, document, library, openapi)
        found = documents[file].definition(fragment, reporter)
        if found is not None:
            definitions[ref] = found
            pending.extend((found_ref, file, documents[file].openapi) for found_ref in refs_of(found.schema))
        elif documents[file].constrains_nothing(fragment):
            anything.add(ref)
    if not documents:
        return schemas
    moved = _adopt(definitions, list(schemas.definitions))
    responses = None if schemas.responses is None else frozenset(moved.get(r, r) for r in schemas.responses)
    return SchemaSet(definitions, frozenset(anything), schemas.openapi, responses, schemas.examples)


def _adopt(definitions: dict[str, Definition], own: list[str]) -> dict[str, str]:
    """A definition of the input that only refers to a copied one (``Pet: {$ref: ./Pet.yaml}``, as a
    split OpenAPI project lists its components) is that one, under its own key and name: the copy
    goes, and references to it name the definition (the first of several that refer to it). Returns
    the keys that went, each with the key that has its schema now."""
    moved: dict[str, str] = {}
    for key in own:
        schema = definitions[key].schema
        target = schema.get("$ref")
        if set(schema) == {"$ref"} and isinstance(target, str) and not target.startswith("#") \
                and target in definitions and target not in moved:
            moved[target] = key
    for target, key in moved.items():
        definitions[key] = replace(definitions[key], schema=definitions.pop(target).schema)
    if moved:
        _map_refs([d.schema for d in definitions.values()], lambda ref: moved.get(ref, ref) if isinstance(ref, str) else ref)
    return moved


class _Document:
    """One referenced file, normalised again whenever a pointer into it is asked for the first time."""

    def __init__(self, display: str, home: str, document: Any, library: Library, openapi: bool) -> None:
        """``openapi``: the first file to refer to it is OpenAPI's, and so is a plain schema file."""
        self.display = display
        self.home = home
        self.document = document
        self.library = library
        self.openapi = openapi
        self.wanted: list[str] = []
        self.schemas: SchemaSet | None = None

    def definition(self, fragment: str, reporter: Reporter) -> Definition | None:
        key = "#" + fragment
        if self.schemas is None or self.display + key not in self.schemas.definitions:
            self.wanted.append(key)
            self.schemas = normalise_referenced(
                self.display, self.document, openapi_schemas=self.openapi, reporter=reporter, wanted=self.wanted,
                default_name=pascal(Path(self.display).stem) or "Model", locate=self.library.locate)
            examples(self.schemas, reporter)  # (checked in its own set: the file as it is written)
            self.openapi = self.schemas.openapi
            _prefix(self.schemas, self.display, self.home)
        return self.schemas.definitions.get(self.display + key)

    def constrains_nothing(self, fragment: str) -> bool:
        """``#fragment`` (asked for already) is the root of a document that constrains nothing (``Any``)."""
        return self.schemas is not None and "#" + fragment in self.schemas.anything  # (keys local to the file)


def _prefix(schemas: SchemaSet, file: str, home: str) -> None:
    """Keys and references local to ``file`` (``#/…``) made ``file#/…``, as seen from ``home``; and
    references back into ``home`` made local to it."""
    def local(ref: Any) -> Any:
        if not isinstance(ref, str):
            return ref
        if ref.startswith("#"):
            return file + ref
        return ref[len(home):] if ref.startswith(home + "#") else ref

    for key, definition in list(schemas.definitions.items()):
        del schemas.definitions[key]
        schemas.definitions[local(key)] = replace(definition, key=local(key))
    _map_refs([d.schema for d in schemas.definitions.values()], local)


def _map_refs(roots: list[Schema], rewrite: Callable[[Any], Any]) -> None:
    """Rewrite, in place, every ``$ref`` and discriminator mapping target under ``roots`` (each once)."""
    seen: set[int] = set()
    stack: list[Any] = list(roots)
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, dict) and id(node) not in seen:
            seen.add(id(node))
            if isinstance(node, Schema):
                if "$ref" in node:
                    node["$ref"] = rewrite(node["$ref"])
                tags = node.get("discriminator")
                mapping = tags.get("mapping") if isinstance(tags, dict) else None
                if isinstance(mapping, dict):
                    for value in mapping:
                        mapping[value] = rewrite(mapping[value])
            stack.extend(v for v in node.values() if isinstance(v, (dict, list)))
