"""OpenAPI 3.0/3.1 and Swagger 2.0 (whole documents, or folders of component files) into the
canonical ``SchemaSet``."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from functools import partial
from typing import Any, Literal, NamedTuple

from ...diagnostics import Diagnostic, Location, Reporter, SchemaError, pointer
from ...frozen import Frozen, field
from ..components import COMPONENTS, component_name
from ..read import SUFFIXES
from ..schema import Definition, Schema, SchemaSet, reached, wrap
from . import jsonschema, operations, ref_siblings
from .common import (boolean_exclusive_bounds, drop_extensions, file_ref, home_ref, not_a_schema,
                     rewrite_subschemas, write_only_not_required)
from .jsonschema import Locate

#: OpenAPI annotations with no bearing on the type (``example`` is checked against its schema first).
DROPPED = ("example", "externalDocs", "xml", "readOnly", "writeOnly")
#: The ``example`` values of a document: (where, value, the canonical schema it is an example of).
Examples = list[tuple[Location, str, Any, Schema]]
_DROPPED = frozenset(DROPPED)
_ABSENT = object()
Part = Literal["schemas", "operations"]
PARTS: tuple[Part, ...] = ("schemas", "operations")
"""What of a whole OpenAPI 3 document is generated: ``components.schemas``, the bodies its operations use."""
ANNOTATIONS = ("title", "description", "default", "deprecated", "examples")


class NormalForm(NamedTuple):
    """One definition of a document normalised, and what reading it found: the ``example`` values it holds
    (``SchemaSet.examples``) and the ``$ref`` s it made canonical that name another file."""

    definition: Definition
    examples: tuple[tuple[Location, str, Any, Schema], ...]
    elsewhere: tuple[str, ...]


Keep = Callable[[str, Location, str, str, Callable[[], NormalForm]], NormalForm]
"""``keep(key, where, context, own, make)``: the definition ``key`` read at ``where``, ``make()`` or the same
kept from an earlier run (a cache's, which knows the text it was read from). What else its normal form
depends on: ``context``, the same for every definition of the document (the document, the names of its
components), and ``own``, its own (its name, which an operation's body takes from where it is used, and
whether it is such a body)."""


def normalise_document(document: dict[str, Any], display: str, reporter: Reporter,
                       scope: Collection[Part] = PARTS, files: operations.Files | None = None,
                       keep: Keep | None = None) -> SchemaSet:
    """``components.schemas`` of an OpenAPI 3 document (with ``scope``'s ``"schemas"``), and the inline
    bodies of its operations (``"operations"``: see ``operations``, which reads the other files its
    paths refer to through ``files``); ``definitions`` of a Swagger 2.0 one. A component is a
    definition whatever the scope when another definition refers to it. ``keep``: where each definition's
    normal form may be taken from (``Keep``); each is the same, made or kept."""
    container = ("definitions",) if "swagger" in document else ("components", "schemas")
    found: Any = document
    for token in container:
        found = found.get(token) if isinstance(found, dict) else None
    version = str(document.get("openapi", document.get("swagger")))
    if version.startswith("3.0") or version == "2.0":
        ref_siblings.check(document, container, display, "Swagger 2.0" if version == "2.0" else "OpenAPI 3.0", reporter)
    definitions: dict[str, Definition] = {}
    found = found if isinstance(found, dict) else {}
    components = frozenset(map(str, found))
    examples: Examples = []
    elsewhere: list[str] = []
    problems = []
    whole = "openapi" in document  # (Swagger 2.0: its definitions, whatever the scope)
    used = operations.used(document, display, reporter, files) if whole and "operations" in scope else operations.NONE
    declared = [("#" + at, Location(display, at), name, raw, False)
                for name, raw in found.items() for at in [pointer(*container, name)]]
    bodies = [(b.key, Location(b.file, b.pointer), b.name, b.raw, True) for b in used.bodies]
    context = repr((display, sorted(components)))  # (what `_normal_form` reads besides the definition's own)
    for key, where, name, raw, derived in declared + bodies:
        problem = not_a_schema(raw, where)
        if problem:
            problems.append(problem)
            continue
        make = partial(_normal_form, key, where, name, raw, derived, components, display)
        normal = make() if keep is None else keep(key, where, context, repr((name, derived)), make)
        definitions[key] = normal.definition
        examples += normal.examples
        elsewhere += normal.elsewhere
    if whole and "schemas" not in scope:
        definitions = _used_by(definitions, [b.key for b in used.bodies] + used.components)
    if problems:
        raise SchemaError(problems)
    known = used.bodies or used.components  # (no operation says what is read: any definition may be)
    return SchemaSet(definitions, openapi=True, responses=used.responses if known else None,
                     examples=tuple(examples), self_contained=not elsewhere)


def _normal_form(key: str, where: Location, name: str, raw: Any, derived: bool, components: frozenset[str],
                 home: str) -> NormalForm:
    """One definition of a document, read on its own (what it reads of the document: ``_Reading``)."""
    reading = _Reading([], components, home=home)
    definition = Definition(key, name, _rewrite(wrap(raw, where), reading), derived)
    return NormalForm(definition, tuple(reading.examples), tuple(reading.elsewhere))


def normalise_file(document: Any, display: str, default_name: str, reporter: Reporter,
                   wanted: Iterable[str] = (), locate: Locate | None = None) -> SchemaSet:
    """A schema file that an OpenAPI document refers to and that is no document itself (no
    ``openapi:`` key, no component ``$id``): read as JSON Schema is (its root named by its ``title``,
    else ``default_name``; its ``$defs``; the pointers ``wanted``), with the document's keywords
    (``nullable``, ``discriminator``, ``example``) read as in the document."""
    reading = _Reading([], frozenset(), refs=False)  # the JSON Schema reading made them file references
    schemas = jsonschema.normalise(document, display, default_name, reporter, wanted, locate,
                                   rewrite=lambda schema: _rewrite(schema, reading))
    return SchemaSet(schemas.definitions, schemas.anything, openapi=True, examples=tuple(reading.examples))


def _used_by(definitions: dict[str, Definition], roots: list[str]) -> dict[str, Definition]:
    """The definitions ``roots`` are, and those they refer to (in turn), in their order."""
    kept = reached(definitions, roots)
    return {key: d for key, d in definitions.items() if key in kept}


def normalise_components(files: list[tuple[str, Any]], reporter: Reporter, default_name: str | None = None) -> SchemaSet:
    """A folder of component files: ``#/components/schemas/X`` is the file whose ``$id`` names X.

    ``default_name`` names a lone component file that has no ``$id`` (its dialect set in config).
    """
    definitions: dict[str, Definition] = {}
    names = frozenset(name for _, document in files if (name := component_name(document)) is not None)
    reading = _Reading([], names)
    problems = []
    for display, document in files:
        name = component_name(document)
        if name is None and default_name and len(files) == 1 and isinstance(document, dict):
            title = document.get("title")
            name = title if isinstance(title, str) and title.strip() else default_name
        if name is None:
            problems.append(Diagnostic(
                Location(display), "not an OpenAPI component file: no `$id: \"#/components/schemas/<Name>\"`",
                "give it one, or move it out of the component folder"))
            continue
        key = "#" + pointer("components", "schemas", name)
        if key in definitions:
            first = definitions[key].schema.file
            problems.append(Diagnostic(Location(display, "/$id"), f"duplicate component {name!r}, also in {first}"))
            continue
        raw = {k: v for k, v in document.items() if k not in ("$id", "$schema")}
        definitions[key] = Definition(key, name, _rewrite(wrap(raw, Location(display)), reading))
    if problems:
        raise SchemaError(problems)
    return SchemaSet(definitions, openapi=True, examples=tuple(reading.examples), self_contained=not reading.elsewhere)


class _Reading(Frozen, frozen=True):
    """What the rewriting of one document's schemas shares."""

    examples: Examples
    """The ``example`` values met, checked with the other checks once the set is read (``SchemaSet.examples``)."""
    components: frozenset[str]
    """The component names the document (or folder) declares: a discriminator mapping value that is
    one of them names it, even when it looks like a file name."""
    refs: bool = True
    """``$ref`` to other files still to be made canonical (``common.file_ref``)."""
    home: str | None = None
    """The document whose places are written ``#/…`` (``common.home_ref``): schemas of other files it
    holds (the bodies of a split project's path files) refer from where they are."""
    elsewhere: list[str] = field(default_factory=list)
    """The ``$ref``s made canonical that name a place in another file (or a URL)."""


def _rewrite(schema: Schema, reading: _Reading) -> Schema:
    """``schema`` in canonical form; its ``example`` (and those inside it) go to ``reading.examples``.
    ``schema`` is rewritten where it is: every caller passes one just made (``wrap``'s, or the JSON
    Schema reading's), held by nothing else."""
    schema = write_only_not_required(_nullable_members(schema))  # (before its properties drop `writeOnly`)
    schema = rewrite_subschemas(schema, lambda s: _rewrite(s, reading))
    if reading.refs and isinstance(schema.get("$ref"), str):
        schema["$ref"] = home_ref(schema["$ref"], schema.file, reading.home)
        if not schema["$ref"].startswith("#"):
            reading.elsewhere.append(schema["$ref"])
    boolean_exclusive_bounds(schema)
    if "x-nullable" in schema and schema.pop("x-nullable") is True:  # Swagger 2.0's spelling
        schema["nullable"] = True
    drop_extensions(schema)
    example = _ABSENT
    if not _DROPPED.isdisjoint(schema):  # (most schemas hold none: every subschema of a document passes here)
        example = schema.get("example", _ABSENT)
        for key in DROPPED:
            schema.pop(key, None)
    if isinstance(schema.get("discriminator"), dict):
        schema["discriminator"] = _discriminator(schema["discriminator"], schema.file, reading)
    done = _nullable(schema) if schema.pop("nullable", False) is True else schema
    if example is not _ABSENT:
        reading.examples.append((schema.loc.child("example"), "example", example, done))
    return done


def _nullable_members(schema: Schema) -> Schema:
    """The 3.0 idiom ``allOf: [{$ref: X}, {nullable: true}]`` means "X or null": say it on the whole."""
    members = schema.get("allOf")
    if not isinstance(members, list):
        return schema
    marks = [m for m in members if isinstance(m, Schema) and m.get("nullable") is True
             and set(m) <= {"nullable", *ANNOTATIONS}]
    if not marks:
        return schema
    out = Schema({**schema, "allOf": [m for m in members if m not in marks], "nullable": True}, schema.place)
    for mark in marks:
        for key in ANNOTATIONS:
            if key in mark and key not in out:
                out[key] = mark[key]
    return out


def _discriminator(raw: dict[str, Any], file: str, reading: _Reading) -> dict[str, Any]:
    """``mapping`` targets as definition keys: ``Dog`` and ``#/components/schemas/Dog`` alike, and a
    file (``./Dog.yaml``, ``common.yaml#/components/schemas/Dog``) as a ``$ref`` in ``file`` to it is."""
    out: dict[str, Any] = {"propertyName": raw.get("propertyName")}
    if isinstance(raw.get("mapping"), dict):
        out["mapping"] = {str(value): _mapped(target, file, reading)
                          for value, target in raw["mapping"].items() if isinstance(target, str)}
    return out


def _mapped(target: str, file: str, reading: _Reading) -> str:
    """A mapping value is a component's name, unless it names none and reads as a reference: it has a
    ``#`` or a ``/``, or ends as a schema file does (``Dog.yaml``)."""
    if target in reading.components:
        return COMPONENTS + target
    if "#" in target or "/" in target or any(target.endswith(suffix) for suffix in SUFFIXES):
        return home_ref(target, file, reading.home) if reading.refs else file_ref(target, file) or target
    return COMPONENTS + target


def _nullable(schema: Schema) -> Schema:
    """``nullable: true`` → 3.1 style: ``null`` in the type list (and the enum), or an ``anyOf``."""
    kind = schema.get("type")
    if isinstance(kind, str) or isinstance(kind, list):
        kinds = [kind] if isinstance(kind, str) else list(kind)
        schema["type"] = kinds if "null" in kinds else kinds + ["null"]
        if isinstance(schema.get("enum"), list) and None not in schema["enum"]:
            schema["enum"] = [*schema["enum"], None]
        return schema
    inner = Schema({k: v for k, v in schema.items() if k not in ANNOTATIONS}, schema.place)
    outer = {k: v for k, v in schema.items() if k in ANNOTATIONS}
    outer["anyOf"] = [inner, Schema({"type": "null"}, schema.place)]
    return Schema(outer, schema.place)
