"""Hypothesis strategies for fuzzing the generator (tests/test_fuzz.py).

- ``documents()``: a whole random input, as ``Case``: a JSON Schema document (any draft, with
  ``definitions`` or ``$defs``), an OpenAPI 3.0/3.1 document, or Swagger 2.0, built from the
  keywords docs/conformance.md covers (type and type arrays, properties with hostile keys, required,
  enum/const with mixed values, anyOf/oneOf/allOf, ``$ref`` to generated definitions,
  additionalProperties, patternProperties, items/prefixItems, every constraint with random
  numbers, defaults of random JSON, format, nullable and discriminator in OpenAPI, descriptions
  and titles of hostile text, and the keywords that only warn: not, if/then/else, …).
- ``model_documents()``: a document whose definitions are objects (or tagged unions of them), for
  reading payloads with the generated classes.
- ``mutations()``: a seed input (``schemas/chat_completion_out.json`` or the component folder
  ``schemas/openai/``) with random subschemas replaced, keywords deleted or added, and values
  swapped for garbage.

A ``Case`` is a set of files (name → JSON value) and whether it is a folder input: the test writes
it out and runs the generator on it.
"""

from __future__ import annotations

import copy
import json
import keyword
import string
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent
SEED_SCHEMA = ROOT / "schemas" / "chat_completion_out.json"
SEED_FOLDER = ROOT / "schemas" / "openai"

JSON = Any
Schema = Any
"""A JSON Schema: a dict, or a boolean."""


@dataclass(frozen=True)
class Case:
    """One generator input: ``files`` (name → value) written as JSON; a folder input when ``folder``."""

    files: dict[str, JSON]
    folder: bool = False
    label: str = "random"

    def describe(self) -> str:
        """The input as one line of JSON (a folder as ``{file name: component}``)."""
        if not self.folder:
            return json.dumps(next(iter(self.files.values())), ensure_ascii=False)
        return json.dumps(self.files, ensure_ascii=False)

    @property
    def input_name(self) -> str:
        """The file, or the folder ``components``, the input is written as."""
        return "components" if self.folder else next(iter(self.files))

    def lowered(self, folder: Path) -> Any:
        """Write the input under ``folder`` (made here) and lower it: its IR, or ``None`` for a clean error."""
        from schemagen.diagnostics import Reporter, SchemaError
        from schemagen.project.inputs import Input
        from schemagen.project.pipeline import to_ir

        folder.mkdir(parents=True)
        target = folder / self.input_name
        if self.folder:
            target.mkdir()
            for name, value in self.files.items():
                (target / name).write_text(json.dumps(value))
        else:
            [(_, value)] = self.files.items()
            target.write_text(json.dumps(value))
        try:
            return to_ir(Input("fuzz", target, target.name), folder, Reporter())
        except SchemaError:
            return None

    def __repr__(self) -> str:
        return f"<{self.label}{' folder' if self.folder else ''}: {self.describe()}>"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """How hypothesis shows a failing example: the input as compact JSON."""
        printer.text(repr(self))


# --------------------------------------------------------------------------------------------
# Text, names, values

HOSTILE_TEXT = [
    '"""', "'''", '"', "'", "\\", "\\\\", "back\\slash\\", '\\"', "\\N{BULLET}", "\\x41", "\\u0041",
    "{{ 7*7 }}", "{% raw %}", "{#", "$", "%s", "%(x)s", "{0}", "{}", "nul\x00here", "cr\r\nlf", "\r", "\n",
    "\t", "\x1b[31m", "\x7f", "\u2028", "\u2029", "\ufeff", "\ud7ff", "ünïcødé", "日本語", "🐍", "",
    " ", "  leading", "trailing  ", "# comment", "#", "*/", "/*", "-->", "<!--", "`", "```", "''' + 1",
    '""" + __import__("os").getcwd() + """', "__import__('os')", "import os", "\\\n", "a\\", "\\'",
    "x" * 120, "a " * 60,
]
"""Text that broke (or could break) quoting, docstrings, templates or terminals."""

HOSTILE_KEYS = [
    '"', "'", "\\", 'a"b', "a'b", "a\\b", "class", "from", "import", "def", "None", "True", "False",
    "self", "cls", "str", "int", "float", "bool", "bytes", "list", "dict", "tuple", "set", "type", "id",
    "object", "Any", "Literal", "Annotated", "Optional", "Union", "ClassVar", "Final", "NotRequired",
    "Required", "TypedDict", "Struct", "Meta", "UNSET", "UnsetType", "field", "fields", "dataclass",
    "datetime", "date", "time", "uuid", "decimal", "Decimal", "UUID", "msgspec", "typing", "enum",
    "annotations", "kw_only", "tag", "tag_field", "rename", "forbid_unknown_fields", "default",
    "default_factory", "__init__", "__class__", "__dict__", "__slots__", "__annotations__", "_", "__",
    "_private", "", " ", "a-b", "a_b", "a b", "a.b", "a/b", "a~b", "a%20b", "a#b", "2fa", "0", "-1",
    "ünï", "日本", "λ", "ℌ", "ﬁ", "\x00", "\n", "\t", "\u2028", "A", "a", "aB", "AB", "a__b", "$ref",
    "properties", "required", "items", "x" * 80, "mro", "copy", "replace", "keys", "values", "get",
    "match", "case", "print", "exec",
    *keyword.kwlist, *keyword.softkwlist,
]
"""Property names, definition names and enum values that need care in Python."""

_identifiers = st.text(string.ascii_letters + string.digits + "_", min_size=1, max_size=10)
texts = st.one_of(st.sampled_from(HOSTILE_TEXT), st.text(max_size=12))
keys = st.one_of(st.sampled_from(HOSTILE_KEYS), _identifiers, st.text(max_size=6))
definition_names = st.one_of(st.sampled_from(HOSTILE_KEYS), _identifiers.map(str.capitalize), st.text(max_size=6))

numbers = st.one_of(
    st.integers(-3, 3), st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False, allow_infinity=False, width=64),
    st.sampled_from([0.5, 0.1, 0.01, 1e-300, 1e300, -0.0, 2.5, 1e16, 2**53 + 1]),
)
positive_numbers = st.one_of(st.integers(1, 1000), st.floats(min_value=1e-6, max_value=1e6),
                             st.sampled_from([0.5, 0.1, 0.01, 1e-300, 2**70]))
multiples = st.one_of(positive_numbers, positive_numbers, positive_numbers, numbers)
"""``multipleOf``: mostly valid (> 0)."""
positive_counts = st.one_of(st.integers(0, 5), st.integers(-2, 2**64))
"""``minLength`` and friends: mostly sensible, sometimes negative or huge (invalid per the meta-schema)."""

scalars = st.one_of(st.none(), st.booleans(), numbers, texts)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(keys, inner, max_size=3)),
    max_leaves=6,
)

TYPES = ["string", "integer", "number", "boolean", "null", "object", "array"]
FORMATS = ["date-time", "date", "time", "uuid", "decimal", "byte", "binary", "duration", "uri", "email",
           "int32", "int64", "float", "double", "password", "ipv4", "hostname", "regex", "unknown-format", ""]
PATTERNS = ["^a+$", "^[A-Z]{2,3}$", "\\d+", "^\\p{L}+$", "[", "(?P<x>a)", "(?<x>a)", "\\", "^$", "a{2,1}",
            "^[^\"'\\\\]*$", "\\u00e9", "(a|b)*c", ".*", "^\\w+@\\w+$"]
"""Patterns: valid, ECMA-only (``\\p{L}``, ``(?<x>``) and broken."""

DRAFTS = [None, "http://json-schema.org/draft-04/schema#", "http://json-schema.org/draft-06/schema#",
          "http://json-schema.org/draft-07/schema#", "https://json-schema.org/draft/2019-09/schema",
          "https://json-schema.org/draft/2020-12/schema", "https://example.com/unknown-meta-schema"]


def ref_to(prefix: str, name: str, encode: bool) -> str:
    """``$ref`` to ``name`` under ``prefix`` (a JSON pointer), escaped as RFC 6901 says; percent-encoded if ``encode``."""
    token = name.replace("~", "~0").replace("/", "~1")
    pointer = f"{prefix}/{token}"
    return "#" + (quote(pointer, safe="/~!$&'()*+,;=:@") if encode else pointer)


# --------------------------------------------------------------------------------------------
# Schemas


@dataclass(frozen=True)
class Dialect:
    ref_prefix: str
    """``/definitions``, ``/$defs`` or ``/components/schemas``."""
    openapi: str | None = None
    """``3.0``, ``3.1``, ``2.0`` or ``None`` for JSON Schema."""


def _type_keyword(dialect: Dialect) -> st.SearchStrategy[Any]:
    single = st.sampled_from(TYPES)
    if dialect.openapi in ("3.0", "2.0"):
        return single  # type arrays are not OpenAPI 3.0
    arrays = st.lists(st.sampled_from(TYPES), min_size=1, max_size=3, unique=True)
    invalid = st.sampled_from([[], "any", ["string", "string"]])  # a clean error, now and then
    return st.one_of(single, single, single, arrays, arrays, invalid)


def annotating_keywords(dialect: Dialect) -> st.SearchStrategy[dict[str, Any]]:
    """Keywords that only annotate (and the dialect's extras): added beside any schema."""
    optional: dict[str, st.SearchStrategy[Any]] = {
        "description": texts, "title": texts, "default": json_values, "examples": st.lists(json_values, max_size=2),
        "format": st.sampled_from(FORMATS), "deprecated": st.booleans(), "readOnly": st.booleans(),
        "writeOnly": st.booleans(), "$comment": texts, "x-extension": json_values,
    }
    if dialect.openapi == "3.0":
        optional["nullable"] = st.booleans()
        optional["example"] = json_values
    elif dialect.openapi == "2.0":
        optional["x-nullable"] = st.booleans()
    return st.fixed_dictionaries({}, optional=optional)


def _leaf(dialect: Dialect, names: list[str], broken: bool) -> st.SearchStrategy[Schema]:
    """Schemas without subschemas."""
    choices: list[st.SearchStrategy[Any]] = [
        st.just({}), st.booleans() if dialect.openapi is None else st.just({}),
        _type_keyword(dialect).map(lambda t: {"type": t}),
        st.fixed_dictionaries({"type": st.just("string")}, optional={
            "minLength": positive_counts, "maxLength": positive_counts, "pattern": st.sampled_from(PATTERNS),
            "format": st.sampled_from(FORMATS)}),
        st.fixed_dictionaries({"type": st.sampled_from(["integer", "number"])}, optional={
            "minimum": numbers, "maximum": numbers, "multipleOf": multiples,
            "exclusiveMinimum": numbers if dialect.openapi not in ("3.0", "2.0") else st.booleans(),
            "exclusiveMaximum": st.one_of(numbers, st.booleans()), "format": st.sampled_from(FORMATS)}),
        st.fixed_dictionaries({"enum": st.lists(scalars, min_size=1, max_size=5)},
                              optional={"type": _type_keyword(dialect)}),
        st.fixed_dictionaries({"enum": st.lists(json_values, max_size=4)}),
        st.fixed_dictionaries({"const": json_values}, optional={"type": _type_keyword(dialect)}),
        # limits without a type apply only to their kind
        st.fixed_dictionaries({}, optional={"minimum": numbers, "maxLength": positive_counts,
                                            "minItems": positive_counts, "maxProperties": positive_counts}),
    ]
    if names:
        refs = st.builds(ref_to, st.just(dialect.ref_prefix), st.sampled_from(names), st.booleans())
        choices.append(refs.map(lambda r: {"$ref": r}))
        choices.append(refs.map(lambda r: {"$ref": r}))  # twice: references should be common
    if broken:  # a reference that does not resolve: a clean error
        choices.append(st.sampled_from(["#/definitions/Missing", "#/nowhere", "other.json#/definitions/X", "#",
                                        "#/properties/x", "#x-anchor", "", "#/components/schemas"])
                       .map(lambda r: {"$ref": r}))
    return st.one_of(choices)


def _decorate(dialect: Dialect, schemas: st.SearchStrategy[Schema]) -> st.SearchStrategy[Schema]:
    """A schema with annotations beside it (booleans stay booleans)."""
    def merge(pair: tuple[Schema, dict[str, Any]]) -> Schema:
        schema, extra = pair
        if not isinstance(schema, dict):
            return schema
        return {**schema, **extra}
    return st.tuples(schemas, annotating_keywords(dialect)).map(merge)


@st.composite
def _object(draw: st.DrawFn, children: st.SearchStrategy[Schema], dialect: Dialect) -> Schema:
    properties = draw(st.dictionaries(keys, children, max_size=5))
    schema: dict[str, Any] = {}
    if draw(st.integers(0, 4)):
        schema["type"] = "object"
    with_empty = draw(st.booleans())
    if properties or with_empty:
        schema["properties"] = properties
    wanted = list(properties) + ["not-a-property"]
    if draw(st.booleans()):
        schema["required"] = draw(st.lists(st.sampled_from(wanted), max_size=len(wanted) + 1,
                                           unique=draw(st.integers(0, 5)) > 0))
    extra = draw(st.sampled_from(["none", "false", "true", "schema", "pattern"]))
    if extra == "false":
        schema["additionalProperties"] = False
    elif extra == "true":
        schema["additionalProperties"] = True
    elif extra == "schema":
        schema["additionalProperties"] = draw(children)
    elif extra == "pattern":
        schema["patternProperties"] = draw(st.dictionaries(st.sampled_from(PATTERNS), children, min_size=1,
                                                           max_size=2))
    for word in ("minProperties", "maxProperties"):
        if not draw(st.integers(0, 5)):
            schema[word] = draw(positive_counts)
    if not draw(st.integers(0, 6)):
        schema["propertyNames"] = {"pattern": draw(st.sampled_from(PATTERNS))}
    if not draw(st.integers(0, 8)) and properties:
        key = draw(st.sampled_from(list(properties)))
        schema["dependentRequired" if dialect.openapi != "3.0" else "x-dependent"] = {key: [key]}
    return schema


@st.composite
def _array(draw: st.DrawFn, children: st.SearchStrategy[Schema], dialect: Dialect) -> Schema:
    schema: dict[str, Any] = {}
    if draw(st.integers(0, 4)):
        schema["type"] = "array"
    shape = draw(st.sampled_from(["items", "items", "tuple", "open-tuple", "draft7-tuple", "none"]))
    if shape == "items":
        schema["items"] = draw(children)
    elif shape in ("tuple", "open-tuple"):
        members = draw(st.lists(children, min_size=1, max_size=3))
        schema["prefixItems"] = members
        if shape == "tuple":
            schema.update(items=False, minItems=len(members))
        elif draw(st.booleans()):
            schema["items"] = draw(children)
    elif shape == "draft7-tuple":
        members = draw(st.lists(children, min_size=1, max_size=3))
        schema.update(items=members, additionalItems=draw(st.one_of(st.booleans(), children)))
        if draw(st.booleans()):
            schema["minItems"] = len(members)
    for word in ("minItems", "maxItems"):
        if word not in schema and not draw(st.integers(0, 4)):
            schema[word] = draw(positive_counts)
    if not draw(st.integers(0, 5)):
        schema["uniqueItems"] = draw(st.booleans())
    if not draw(st.integers(0, 8)):
        schema["contains"] = draw(children)
    return schema


@st.composite
def _combination(draw: st.DrawFn, children: st.SearchStrategy[Schema], dialect: Dialect) -> Schema:
    word = draw(st.sampled_from(["anyOf", "oneOf", "allOf"]))
    schema: dict[str, Any] = {word: draw(st.lists(children, min_size=draw(st.sampled_from([0, 1, 1, 1])),
                                                  max_size=4))}
    if not draw(st.integers(0, 3)):  # a base schema beside the alternatives
        schema["type"] = draw(_type_keyword(dialect))
    if not draw(st.integers(0, 4)):
        schema["properties"] = draw(st.dictionaries(keys, children, max_size=2))
    if not draw(st.integers(0, 4)):
        schema["required"] = draw(st.lists(keys, max_size=2))
    return schema


@st.composite
def _tagged_union(draw: st.DrawFn, children: st.SearchStrategy[Schema], dialect: Dialect) -> Schema:
    """Object alternatives told apart by one property (const / one-value enum; an OpenAPI discriminator)."""
    tag = draw(st.one_of(st.just("type"), keys))
    tag_values = st.one_of(texts, st.integers(-2, 2), st.booleans(), st.none())
    if draw(st.integers(0, 5)):
        values = draw(st.lists(tag_values, min_size=1, max_size=4, unique_by=lambda v: (type(v).__name__, v)))
    else:  # sometimes two members share a value: no tag can be found
        values = draw(st.lists(tag_values, min_size=1, max_size=4))
    members = []
    for value in values:
        spelling = draw(st.sampled_from(["const", "enum", "const"]))
        tag_schema: dict[str, Any] = {"const": value} if spelling == "const" else {"enum": [value]}
        if draw(st.booleans()):
            tag_schema["type"] = {str: "string", int: "integer", bool: "boolean"}.get(type(value), "null")
        member: dict[str, Any] = {"type": "object", "properties": {tag: tag_schema,
                                                                   **draw(st.dictionaries(keys, children, max_size=2))}}
        if draw(st.integers(0, 3)):
            member["required"] = [tag]
        if not draw(st.integers(0, 3)):
            member["additionalProperties"] = False
        members.append(member)
    schema: dict[str, Any] = {draw(st.sampled_from(["oneOf", "anyOf"])): members}
    if dialect.openapi is not None and draw(st.booleans()):
        schema["discriminator"] = {"propertyName": tag}
    return schema


def schemas(dialect: Dialect, names: list[str], max_leaves: int = 12, broken: bool = False
            ) -> st.SearchStrategy[Schema]:
    """Random (sub)schemas whose ``$ref``s point at ``names`` (definitions of the same document).

    With ``broken``, some ``$ref``s point nowhere (so the input is an error).
    """
    def extend(children: st.SearchStrategy[Schema]) -> st.SearchStrategy[Schema]:
        nodes = st.one_of(
            _object(children, dialect), _object(children, dialect), _array(children, dialect),
            _combination(children, dialect), _tagged_union(children, dialect),
            st.fixed_dictionaries({"not": children}),
            st.fixed_dictionaries({"if": children}, optional={"then": children, "else": children}),
            _ref_with_siblings(children, dialect, names),
        )
        return _decorate(dialect, nodes)
    return st.recursive(_decorate(dialect, _leaf(dialect, names, broken)), extend, max_leaves=max_leaves)


def _ref_with_siblings(children: st.SearchStrategy[Schema], dialect: Dialect, names: list[str]
                       ) -> st.SearchStrategy[Schema]:
    if not names:
        return st.fixed_dictionaries({"allOf": st.lists(children, min_size=1, max_size=2)})
    refs = st.builds(ref_to, st.just(dialect.ref_prefix), st.sampled_from(names), st.booleans())
    return st.fixed_dictionaries({"$ref": refs}, optional={
        "type": _type_keyword(dialect), "minimum": numbers, "maxLength": positive_counts,
        "properties": st.dictionaries(keys, children, max_size=2), "required": st.lists(keys, max_size=2),
        "items": children, "anyOf": st.lists(children, min_size=1, max_size=2)})


@st.composite
def documents(draw: st.DrawFn, max_leaves: int = 12) -> Case:
    """A whole input: JSON Schema (any draft), OpenAPI 3.0 / 3.1 or Swagger 2.0, or a lone component file."""
    kind = draw(st.sampled_from(["jsonschema", "jsonschema", "jsonschema", "openapi-3.0", "openapi-3.1",
                                 "swagger-2.0", "component-folder"]))
    names = draw(st.lists(definition_names, max_size=4, unique=True))
    broken = not draw(st.integers(0, 9))
    if kind == "jsonschema":
        container = draw(st.sampled_from(["definitions", "$defs"]))
        dialect = Dialect("/" + container)
        sub = schemas(dialect, names, max_leaves, broken)
        root = draw(sub)
        if names and not draw(st.integers(0, 3)):  # the root is one of the definitions
            root = {"$ref": ref_to(dialect.ref_prefix, draw(st.sampled_from(names)), draw(st.booleans()))}
        if not isinstance(root, dict):
            root = {"allOf": [root]}
        document: dict[str, Any] = dict(root)
        draft = draw(st.sampled_from(DRAFTS))
        if draft is not None:
            document["$schema"] = draft
        if draw(st.booleans()):
            document["$id"] = draw(st.sampled_from(["https://example.com/root.json", "urn:example:root",
                                                    "#/components/schemas/NotReally", "relative.json"]))
        with_empty = draw(st.booleans())
        if names or with_empty:
            document[container] = {name: draw(sub) for name in names}
        if draw(st.booleans()):
            document["title"] = draw(st.one_of(texts, definition_names))
        return Case({"schema.json": document}, label=kind)
    if kind == "component-folder":
        names = [n for n in names if n.strip() and "/" not in n] or ["Only"]
        dialect = Dialect("/components/schemas", "3.1")
        sub = schemas(dialect, names, max_leaves, broken)
        files = {}
        for index, name in enumerate(names):
            component = draw(sub)
            component = component if isinstance(component, dict) else {"allOf": [component]}
            files[f"c{index}.json"] = {"$id": f"#/components/schemas/{name}", "title": name, **component}
        return Case(files, folder=True, label=kind)
    version = {"openapi-3.0": "3.0", "openapi-3.1": "3.1", "swagger-2.0": "2.0"}[kind]
    prefix = "/definitions" if version == "2.0" else "/components/schemas"
    dialect = Dialect(prefix, version)
    sub = schemas(dialect, names, max_leaves, broken)
    components = {name: draw(sub) for name in names}
    if version == "2.0":
        document = {"swagger": "2.0", "info": {"title": "t", "version": "1"}, "paths": {}, "definitions": components}
    else:
        document = {"openapi": {"3.0": "3.0.3", "3.1": "3.1.0"}[version], "info": {"title": "t", "version": "1"},
                    "paths": {}, "components": {"schemas": components}}
    return Case({"api.json": document}, label=kind)


@st.composite
def model_documents(draw: st.DrawFn, max_leaves: int = 8) -> Case:
    """A JSON Schema or OpenAPI 3.0/3.1 document whose definitions are objects, or tagged unions of
    objects, with random properties: classes to read payloads with (tests/test_dataclass_convert.py)."""
    kind = draw(st.sampled_from(["jsonschema", "openapi-3.0", "openapi-3.1"]))
    names = draw(st.lists(_identifiers.map(str.capitalize), min_size=1, max_size=4, unique=True))
    dialect = Dialect("/$defs") if kind == "jsonschema" else Dialect("/components/schemas", kind[-3:])
    children = schemas(dialect, names, max_leaves)
    definitions = {name: draw(st.one_of(_object(children, dialect), _object(children, dialect),
                                        _tagged_union(children, dialect))) for name in names}
    if kind == "jsonschema":
        root = {"$schema": "https://json-schema.org/draft/2020-12/schema", **draw(_object(children, dialect))}
        return Case({"schema.json": {**root, "title": "Root", "$defs": definitions}}, label="objects " + kind)
    document = {"openapi": {"3.0": "3.0.3", "3.1": "3.1.0"}[dialect.openapi or ""],
                "info": {"title": "t", "version": "1"}, "paths": {}, "components": {"schemas": definitions}}
    return Case({"api.json": document}, label="objects " + kind)


# --------------------------------------------------------------------------------------------
# Mutations of the seeds

SCHEMA_KEYWORDS = [
    "type", "properties", "required", "additionalProperties", "patternProperties", "items", "prefixItems",
    "enum", "const", "anyOf", "oneOf", "allOf", "not", "$ref", "default", "description", "title", "format",
    "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength",
    "pattern", "minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties", "nullable",
    "discriminator", "$id", "$anchor", "examples", "if", "then", "else", "dependentSchemas", "$defs",
    "definitions", "contains", "propertyNames", "unevaluatedProperties", "$dynamicRef", "readOnly",
]


def _nodes(value: JSON, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], dict[str, Any]]]:
    """Every object in a JSON value, with its path (subschemas, and the maps and lists that hold them)."""
    if isinstance(value, dict):
        yield path, value
        for key, item in value.items():
            yield from _nodes(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _nodes(item, path + (index,))


def _keyword_value(word: str, children: st.SearchStrategy[Schema], names: list[str], prefix: str
                   ) -> st.SearchStrategy[Any]:
    """A value for ``word``: usually of the right shape, sometimes garbage of any shape."""
    right: dict[str, st.SearchStrategy[Any]] = {
        "type": st.one_of(st.sampled_from(TYPES), st.lists(st.sampled_from(TYPES), max_size=3)),
        "properties": st.dictionaries(keys, children, max_size=3),
        "required": st.lists(st.one_of(keys, st.sampled_from(["role", "content", "type", "id"])), max_size=3),
        "additionalProperties": st.one_of(st.booleans(), children),
        "patternProperties": st.dictionaries(st.sampled_from(PATTERNS), children, max_size=2),
        "items": st.one_of(children, st.booleans(), st.lists(children, max_size=2)),
        "prefixItems": st.lists(children, max_size=3),
        "enum": st.lists(json_values, max_size=4), "const": json_values,
        "anyOf": st.lists(children, max_size=3), "oneOf": st.lists(children, max_size=3),
        "allOf": st.lists(children, max_size=3), "not": children, "if": children, "then": children,
        "else": children, "contains": children, "propertyNames": children, "unevaluatedProperties": children,
        "dependentSchemas": st.dictionaries(keys, children, max_size=2),
        "$defs": st.dictionaries(definition_names, children, max_size=2),
        "definitions": st.dictionaries(definition_names, children, max_size=2),
        "$ref": st.one_of(st.builds(ref_to, st.just(prefix), st.sampled_from(names or ["X"]), st.booleans()),
                          st.sampled_from(["#", "#/", "#/definitions", "#/properties/choices/items",
                                           "#/components/schemas/Missing", "#/definitions/Missing",
                                           "https://example.com/x.json", "#anchor"])),
        "$dynamicRef": st.just("#meta"), "$id": st.sampled_from(["#/components/schemas/X", "urn:x", "#frag", ""]),
        "$anchor": st.sampled_from(["anchor", "a b", ""]),
        "default": json_values, "examples": st.lists(json_values, max_size=2), "description": texts,
        "title": st.one_of(texts, definition_names), "format": st.sampled_from(FORMATS), "pattern": st.sampled_from(PATTERNS),
        "nullable": st.booleans(), "readOnly": st.booleans(), "uniqueItems": st.booleans(),
        "discriminator": st.fixed_dictionaries({"propertyName": st.one_of(st.just("type"), keys)},
                                               optional={"mapping": st.dictionaries(keys, st.builds(
                                                   ref_to, st.just(prefix), st.sampled_from(names or ["X"]),
                                                   st.booleans()), max_size=2)}),
    }
    good = right.get(word, multiples if word == "multipleOf" else numbers
                     if word in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum") else positive_counts)
    return st.one_of(good, good, good, json_values)


@st.composite
def mutations(draw: st.DrawFn) -> Case:
    """A seed input with 1-4 random edits."""
    folder = draw(st.booleans())
    if folder:
        files = {p.name: json.loads(p.read_text()) for p in sorted(SEED_FOLDER.glob("*.json"))}
        names = [f["$id"].rsplit("/", 1)[-1] for f in files.values()]
        prefix, dialect = "/components/schemas", Dialect("/components/schemas", "3.1")
    else:
        files = {SEED_SCHEMA.name: json.loads(SEED_SCHEMA.read_text())}
        names = list(files[SEED_SCHEMA.name]["definitions"])
        prefix, dialect = "/definitions", Dialect("/definitions")
    files = copy.deepcopy(files)
    edit(draw, files, names, prefix, dialect, draw(st.integers(1, 4)))
    return Case(files, folder=folder, label="mutation of " + ("schemas/openai/" if folder else SEED_SCHEMA.name))


def edit(draw: st.DrawFn, files: dict[str, Any], names: list[str], prefix: str, dialect: Dialect, edits: int) -> None:
    """``edits`` random changes, in place, to schemas in ``files`` (name → schema) that refer to ``names``."""
    children = schemas(dialect, names, max_leaves=6)
    for _ in range(edits):
        file = draw(st.sampled_from(sorted(files)))
        nodes = list(_nodes(files[file]))
        path, node = draw(st.sampled_from(nodes))
        action = draw(st.sampled_from(["replace", "delete", "add", "add", "retype"]))
        if action == "replace" and path:
            parent = files[file]
            for step in path[:-1]:
                parent = parent[step]
            parent[path[-1]] = draw(children)
        elif action == "delete" and node:
            del node[draw(st.sampled_from(sorted(node)))]
        elif action == "retype":
            node["type"] = draw(_keyword_value("type", children, names, prefix))
        else:
            word = draw(st.sampled_from(SCHEMA_KEYWORDS))
            node[word] = draw(_keyword_value(word, children, names, prefix))
