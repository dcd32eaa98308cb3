"""Dialect detection and dispatch: every input becomes one canonical ``SchemaSet``."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any, Literal

from ...diagnostics import Diagnostic, Location, Reporter, SchemaError
from ..components import component_name
from ..schema import SchemaSet
from . import jsonschema, openapi
from .jsonschema import Locate
from .openapi import PARTS, Part
from .operations import Files

Dialect = Literal["auto", "jsonschema", "openapi"]


SCHEMAS_ONLY: tuple[Part, ...] = ("schemas",)
"""The scope of a document read for what another refers to in it."""


def normalise(documents: list[tuple[str, Any]], *, folder: bool, dialect: Dialect, default_name: str,
              reporter: Reporter, wanted: Iterable[str] = (), locate: Locate | None = None,
              openapi_scope: Collection[Part] = PARTS, files: Files | None = None,
              keep: openapi.Keep | None = None) -> SchemaSet:
    """``documents`` are (display path, parsed value); a folder input is a set of OpenAPI components.
    ``openapi_scope``: what of a whole OpenAPI 3 document is generated (``openapi.PARTS``); ``files``:
    where the other files its paths refer to are read (``operations.Files``); ``keep``: where the normal
    form of each definition of a whole OpenAPI document may be taken from (``openapi.Keep``).
    ``wanted``: pointers into a JSON Schema document that other files refer to (see ``bundle``);
    ``locate``: the files URLs stand for (``jsonschema.Locate``)."""
    if folder or (dialect != "jsonschema" and len(documents) == 1 and component_name(documents[0][1])):
        if dialect == "jsonschema":
            raise SchemaError([Diagnostic(Location(documents[0][0]), "a folder input must hold OpenAPI component files")])
        return openapi.normalise_components(documents, reporter)
    display, document = documents[0]
    if not isinstance(document, dict):
        raise SchemaError([Diagnostic(Location(display), "not a schema: the document must be a JSON/YAML object")])
    whole = "openapi" in document or "swagger" in document
    if dialect == "openapi" and not whole:
        return openapi.normalise_components(documents, reporter, default_name)
    if dialect == "openapi" or (dialect == "auto" and whole):
        version = str(document.get("openapi", document.get("swagger")))
        if not (version.startswith("3.") or version == "2.0"):
            key = "/openapi" if "openapi" in document else "/swagger"
            raise SchemaError([Diagnostic(Location(display, key), f"unsupported OpenAPI version {version!r}",
                                          "schemagen reads Swagger 2.0 and OpenAPI 3.0/3.1")])
        return openapi.normalise_document(document, display, reporter, openapi_scope, files, keep)
    if dialect == "auto" and not jsonschema.looks_like_a_schema(document):
        raise SchemaError([Diagnostic(Location(display), "neither a JSON Schema nor an OpenAPI document: "
                                      "no schema keyword, no `openapi:`, no component `$id`",
                                      "check the file, or set its dialect under [[tool.schemagen.inputs]]")])
    return jsonschema.normalise(document, display, default_name, reporter, wanted, locate)


def normalise_referenced(display: str, document: Any, *, openapi_schemas: bool, default_name: str,
                         reporter: Reporter, wanted: Iterable[str] = (), locate: Locate | None = None) -> SchemaSet:
    """A file that an input refers to: a document of its own dialect (an OpenAPI document, a component
    file, JSON Schema with its ``$schema``); a plain schema file read as the referrer writes schemas
    (``openapi_schemas``: with OpenAPI's keywords, as a split OpenAPI project's files are)."""
    plain = isinstance(document, dict) and not ({"openapi", "swagger", "$schema"} & document.keys()) \
        and component_name(document) is None
    if openapi_schemas and plain:
        return openapi.normalise_file(document, display, default_name, reporter, wanted, locate)
    # a document referred to for its schemas: its operations are its own input's, if it is one
    return normalise([(display, document)], folder=False, dialect="auto", default_name=default_name,
                     reporter=reporter, wanted=wanted, locate=locate, openapi_scope=SCHEMAS_ONLY)
