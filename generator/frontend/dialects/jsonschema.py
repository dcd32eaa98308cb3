"""JSON Schema (draft-04 to 2020-12) into the canonical ``SchemaSet``.

Every ``$ref`` this document can answer itself (JSON pointers, ``$id`` base URIs, ``$anchor``s) is
rewritten to ``#<pointer>`` of its target; a target that is not a definition becomes one, named
after the last token of its pointer. Anything else (remote documents) is left for lowering to
report as unresolved, unless ``locate`` names a file for it (a shipped meta-schema, a folder that
``[tool.schemagen.refs]`` maps the URL to).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import unquote, urldefrag, urljoin

from ...diagnostics import Diagnostic, Location, Reporter, SchemaError, few, pointer
from ..schema import ONE_SCHEMA, PYTHON_NAME, SCHEMA_LIST, SCHEMA_MAP, Definition, Schema, SchemaSet, refs_of, wrap
from .common import (boolean_exclusive_bounds, drop_extensions, follow, is_path, join, map_subschemas, not_a_schema,
                     tuple_items, write_only_not_required)

#: Keywords that say nothing about values: a document with only these is a container of definitions.
METADATA = frozenset(
    {"$schema", "$id", "id", "title", "description", "$comment", "examples", "default", "$anchor",
     "$vocabulary", "definitions", "$defs", "deprecated", "readOnly", "writeOnly"}
)
DEFINITION_CONTAINERS = ("definitions", "$defs")
#: Keywords that may stand beside ``$ref`` in drafts 4 to 7, where other siblings are ignored.
#: ``type`` stays: it only adds kinds that a target without a ``type`` lets through (``lower.references.kinds_beside``).
LEGACY_REF_SIBLINGS = frozenset({"$ref", "description", "title", "default", "examples", "$comment", "$schema", "$id",
                                 "id", "definitions", "$defs", "type", PYTHON_NAME})
LEGACY_DRAFTS = ("draft-04", "draft-06", "draft-07", "draft-03")


Locate = Callable[[str, str], str | None]
"""(an absolute URL without fragment, the referring file) → the file the URL stands for (a display
path, or a shipped meta-schema's ``$id``), or ``None`` for a remote document (``library.Library.locate``)."""

#: Every keyword of JSON Schema draft-04 to 2020-12 that says something about values or structure.
SCHEMA_KEYWORDS = frozenset({
    "$schema", "$ref", "$defs", "definitions", "type", "properties", "required", "items", "prefixItems",
    "additionalItems", "additionalProperties", "patternProperties", "anyOf", "oneOf", "allOf", "not", "enum",
    "const", "if", "then", "else", "minLength", "maxLength", "pattern", "format", "minimum", "maximum",
    "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minItems", "maxItems", "uniqueItems", "contains",
    "minProperties", "maxProperties", "propertyNames", "dependencies", "dependentSchemas", "dependentRequired",
    "unevaluatedProperties", "unevaluatedItems", "$id", "id", "$anchor", "$dynamicRef", "$recursiveRef",
})


def looks_like_a_schema(document: dict[str, Any]) -> bool:
    """An empty schema (``{}``, anything goes) or one with at least one schema keyword."""
    return not document or bool(SCHEMA_KEYWORDS & document.keys())


def normalise(document: Any, display: str, default_name: str, reporter: Reporter,
              wanted: Iterable[str] = (), locate: Locate | None = None,
              rewrite: Callable[[Schema], Schema] | None = None) -> SchemaSet:
    """``wanted``: pointers (``#/…``) that other files refer to; each becomes a definition too.
    ``locate``: the file that a URL this document does not answer stands for, if any (``Locate``).
    ``rewrite``: a further rewriting of every schema, after this one's (a schema file an OpenAPI
    document refers to is read with the document's keywords)."""
    dialect = document.get("$schema") if isinstance(document, dict) else None
    legacy = isinstance(dialect, str) and any(d in dialect for d in LEGACY_DRAFTS)
    canonical = _Refs(document, legacy, display, locate).rewrite(document, display, "")

    def read(raw: Any, where: Location) -> Any:
        schema = _rewrite(wrap(raw, where), legacy, reporter)
        return rewrite(schema) if rewrite is not None and isinstance(schema, Schema) else schema

    root = read(canonical, Location(display))
    definitions: dict[str, Definition] = {}
    if isinstance(root, Schema) and not says_nothing(root):
        body = Schema({k: v for k, v in root.items() if k not in DEFINITION_CONTAINERS}, root.place)
        title = root.get("title")
        definitions["#"] = Definition("#", title if isinstance(title, str) and title.strip() else default_name, body)
    for container in DEFINITION_CONTAINERS:
        found = root.get(container) or {}
        if not isinstance(found, dict):
            raise SchemaError([Diagnostic(root.loc.child(container), f"`{container}` must be an object of schemas")])
        for name, schema in found.items():
            key = "#" + pointer(container, name)
            problem = not_a_schema(schema, root.loc.child(container, name))
            if problem:
                reporter.error(problem.location, problem.message)
            else:
                definitions[key] = Definition(key, name, schema)
    _add_pointer_targets(root, definitions, read, wanted)
    return SchemaSet(definitions, frozenset({"#"} if "#" not in definitions and isinstance(root, Schema) else ()))


def says_nothing(root: Schema) -> bool:
    """A document's root that constrains no value (metadata and definitions alone, as ``{}``): it
    declares nothing, and a reference to it is ``Any``."""
    return not set(root) - METADATA


def _rewrite(schema: Schema, legacy: bool, reporter: Reporter) -> Schema:
    """Drafts' spellings into 2020-12 ones, bottom-up, once for the whole document."""
    schema = map_subschemas(write_only_not_required(schema), lambda s: _rewrite(s, legacy, reporter))
    boolean_exclusive_bounds(schema)
    tuple_items(schema)
    drop_extensions(schema)
    if legacy and "$ref" in schema:
        ignored = sorted(set(schema) - LEGACY_REF_SIBLINGS)
        if ignored:
            reporter.warn(schema.loc, "keywords beside `$ref` are ignored before draft 2019-09: " + few(ignored),
                          kind="ignored keyword")
            for key in ignored:
                del schema[key]
    return schema


def _add_pointer_targets(root: Schema, definitions: dict[str, Definition],
                         read: Callable[[dict[str, Any], Location], Schema], wanted: Iterable[str]) -> None:
    """A ``$ref`` to ``#/properties/a`` makes that subschema a definition (the same object); a
    pointer into a plain object (``#/definitions/group/item``) reads the schema found there."""
    pending: list[Definition | None] = [None, *definitions.values()]
    while pending:
        found = pending.pop()
        for ref in (refs_of(found.schema) if found is not None else wanted):
            if ref in definitions or not ref.startswith("#/"):
                continue
            target = follow(root, ref[1:], _tuple_spelling)
            if isinstance(target, dict) and not isinstance(target, Schema):
                target = read(target, Location(root.loc.path, ref[1:]))
            if isinstance(target, Schema):
                name = ref.rsplit("/", 1)[-1].replace("~1", "/").replace("~0", "~")
                definitions[ref] = Definition(ref, name, target)
                pending.append(definitions[ref])


class _Refs:
    """Where each ``$id`` and ``$anchor`` of a document is, and ``$ref``s rewritten to pointers."""

    def __init__(self, document: Any, legacy: bool, display: str, locate: Locate | None = None) -> None:
        self.legacy = legacy
        self.locate = locate
        self.id_key = "id" if legacy and isinstance(document, dict) and isinstance(document.get("id"), str) \
            and not isinstance(document.get("$id"), str) else "$id"
        self.bases: dict[str, str] = {}
        self.anchors: dict[str, str] = {}
        self._index(document, display, "")
        self.display = display
        root_id = self._base(document, display) if isinstance(document, dict) else display
        self.mirrored = root_id.rsplit("/", 1)[0] + "/" if "://" in root_id else None
        """The folder URL of the root ``$id`` (``https://example.com/schemas/``): the schema folder
        stands for it, so ``https://example.com/schemas/b.json`` is the file ``b.json`` beside this one."""

    def _base(self, node: dict[str, Any], base: str) -> str:
        ident = node.get(self.id_key)
        if self.legacy and "$ref" in node:
            return base  # before 2019-09, `$ref` makes its siblings (`$id` too) ignored
        if isinstance(ident, str) and not ident.startswith("#"):
            return urldefrag(join(base, ident))[0]
        return base

    def _index(self, node: Any, base: str, here: str) -> None:
        if not isinstance(node, dict):
            return
        new_base = self._base(node, base)
        if new_base != base or here == "":
            self.bases.setdefault(new_base, here)
        anchor = node.get("$anchor")
        if isinstance(anchor, str):
            self.anchors.setdefault(f"{new_base}#{anchor}", here)
        ident = node.get(self.id_key)
        if isinstance(ident, str) and ident.startswith("#") and len(ident) > 1 and not ident.startswith("#/"):
            self.anchors.setdefault(f"{new_base}{ident}", here)  # draft-06/07 plain-name fragments
        for key, child, token in _subschemas(node):
            self._index(child, new_base, here + token)

    def rewrite(self, node: Any, base: str, here: str) -> Any:
        if not isinstance(node, dict):
            return node
        base = self._base(node, base)
        out: dict[str, Any] = {}
        for key, value in node.items():
            if key in ONE_SCHEMA and isinstance(value, dict):
                value = self.rewrite(value, base, here + pointer(key))
            elif key in SCHEMA_LIST + ("items",) and isinstance(value, list):
                value = [self.rewrite(v, base, here + pointer(key, i)) for i, v in enumerate(value)]
            elif key in SCHEMA_MAP and isinstance(value, dict):
                value = {k: self.rewrite(v, base, here + pointer(key, k)) for k, v in value.items()}
            out[key] = value
        if isinstance(node.get("$ref"), str):
            out["$ref"] = self.resolve(node["$ref"], base)
        return out

    def resolve(self, ref: str, base: str) -> str:
        target, fragment = urldefrag(join(base, ref))
        located = self.locate(target, self.display) if self.locate and target not in self.bases else None
        if located is not None:  # a URL that a file stands for: it is that file
            return f"{located}#{unquote(fragment)}" if fragment == "" or fragment.startswith("/") else ref
        if target not in self.bases and self.mirrored and target.startswith(self.mirrored):
            target = urljoin(self.display, target[len(self.mirrored):])
        if target not in self.bases:
            # Another file beside this one: ``schemas/other.json#/definitions/X`` (the linker's job).
            return f"{target}#{unquote(fragment)}" if is_path(target) else ref
        if fragment == "" or fragment.startswith("/"):
            return "#" + self.bases[target] + unquote(fragment)
        anchored = self.anchors.get(f"{target}#{fragment}")
        return "#" + anchored if anchored is not None else ref


def _subschemas(node: dict[str, Any]) -> list[tuple[str, Any, str]]:
    """(keyword, subschema, pointer suffix) for each direct subschema of a raw schema object."""
    found = []
    for key, value in node.items():
        if key in ONE_SCHEMA and isinstance(value, dict):
            found.append((key, value, pointer(key)))
        elif key in SCHEMA_LIST + ("items",) and isinstance(value, list):
            found.extend((key, v, pointer(key, i)) for i, v in enumerate(value))
        elif key in SCHEMA_MAP and isinstance(value, dict):
            found.extend((key, v, pointer(key, k)) for k, v in value.items())
    return found


#: Where a pointer written against draft-04 to 2019-09 arrays finds its target after ``tuple_items``.
_TUPLE_SPELLINGS = {"items": "prefixItems", "additionalItems": "items"}


def _tuple_spelling(node: Any, tokens: list[str], i: int) -> str:
    """A pointer written into a draft-07 tuple (``items/0``, ``additionalItems``) after ``items: [...]``
    became ``prefixItems`` (``common.follow``)."""
    token = tokens[i]
    if isinstance(node, dict) and isinstance(node.get("prefixItems"), list) and (
            (token == "items" and i + 1 < len(tokens) and tokens[i + 1].isdigit())
            or (token == "additionalItems" and token not in node)):
        return _TUPLE_SPELLINGS[token]
    return token
