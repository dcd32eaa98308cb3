"""The schemas an OpenAPI document's operations use: request bodies and JSON response bodies.

Each operation of ``paths`` and of 3.1 ``webhooks`` (a path item may be a ``$ref`` to one elsewhere
in the document) is read for its ``requestBody`` and its ``responses`` (each may be a ``$ref`` to
``components``), for the media types that are JSON (``application/json``, any ``…+json`` such as
``application/problem+json``, parameters such as ``; charset=utf-8`` aside). A body whose schema is
a ``$ref`` (with annotations beside it at most) is that component: nothing new. Any other schema is a
definition at its JSON pointer (``#/paths/~1menu~1items/get/responses/200/content/application~1json/schema``,
or under ``components`` when the body is a shared one), named so:

- the operation's name is its ``operationId`` in PascalCase, else the method and the path's words
  (``get /menu/items`` → ``GetMenuItems``; a webhook's name stands for the path);
- a request body is ``<Operation>Request``;
- the *main* response is ``<Operation>Response``: the lowest ``2xx`` status with a JSON body, else a
  ``2XX`` range, else the only JSON response; every other JSON response adds its status
  (``GetOrderResponse404``, ``GetOrderResponse4XX``, ``GetOrderResponseDefault``);
- a body shared through ``components.responses`` / ``components.requestBodies`` is named after the
  component (``NotFound`` → ``NotFoundResponse``), once, whichever operations use it.

Names made here yield to the names the document gives (``Definition.derived``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...diagnostics import Location, Reporter, pointer
from ...names import pascal
from . import common

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
#: Keys beside a ``$ref`` that only describe it: the body is the referenced component itself.
REF_ANNOTATIONS = frozenset({"$ref", "description", "summary", "title", "deprecated", "example", "examples",
                             "default", "readOnly", "writeOnly", "$comment", "externalDocs", "xml"})


@dataclass(frozen=True, slots=True)
class Used:
    bodies: list[Body]
    """The inline schemas, in document order (each pointer once)."""
    components: list[str]
    """The ``$ref`` of each body that is a component."""


NONE = Used([], [])
"""What a document whose operations are not read uses."""


@dataclass(frozen=True, slots=True)
class Body:
    pointer: str
    """Where the schema is (a JSON pointer, without ``#``)."""
    name: str
    raw: Any


def is_json(media_type: Any) -> bool:
    """``application/json``, ``application/problem+json``, ``application/json; charset=utf-8``."""
    if not isinstance(media_type, str):
        return False
    base = media_type.split(";", 1)[0].strip().lower()
    return base == "application/json" or ("/" in base and base.endswith("+json"))


def used(document: dict[str, Any], display: str, reporter: Reporter) -> Used:
    """The schemas of every operation's JSON bodies."""
    reader = _Reader(document, display, reporter)
    for section in ("paths", "webhooks"):
        items = document.get(section)
        for key, item in (items.items() if isinstance(items, dict) else ()):
            here, found = reader.follow(pointer(section, key), item)
            for method in METHODS if isinstance(found, dict) else ():
                operation = found.get(method)
                if isinstance(operation, dict):
                    reader.operation(here + pointer(method), operation, _operation_name(operation, method, key))
    return Used(list(reader.found.values()), reader.components)


def _operation_name(operation: dict[str, Any], method: str, path: Any) -> str:
    ident = operation.get("operationId")
    named = pascal(ident) if isinstance(ident, str) else ""
    return named or pascal(method) + pascal(str(path))


def _main(statuses: list[str]) -> str | None:
    """The response named ``<Operation>Response`` without its status (see the module's docstring)."""
    success = sorted(s for s in statuses if len(s) == 3 and s.isdigit() and s.startswith("2"))
    if success:
        return success[0]
    ranges = [s for s in statuses if s.upper() == "2XX"]
    if ranges:
        return ranges[0]
    return statuses[0] if len(statuses) == 1 else None


def _suffix(status: str) -> str:
    return "Default" if status == "default" else status.upper()


class _Reader:
    def __init__(self, document: dict[str, Any], display: str, reporter: Reporter) -> None:
        self.document = document
        self.display = display
        self.reporter = reporter
        self.found: dict[str, Body] = {}
        self.components: list[str] = []

    def follow(self, here: str, node: Any) -> tuple[str, Any]:
        """``node`` (at ``here``), or what its ``$ref`` names in this document, and where that is."""
        seen = {here}
        while isinstance(node, dict) and isinstance(node.get("$ref"), str):
            ref = node["$ref"]
            if not ref.startswith("#/"):
                self.reporter.warn(Location(self.display, here + "/$ref"),
                                   f"{ref!r} is not in this document: the bodies it holds are not generated",
                                   kind="operation reference")
                return here, None
            if ref[1:] in seen:
                return here, None
            here = ref[1:]
            seen.add(here)
            node = common.follow(self.document, here)
        return here, node

    def operation(self, here: str, operation: dict[str, Any], name: str) -> None:
        if "requestBody" in operation:
            self.body(here + "/requestBody", operation["requestBody"], name + "Request", "requestBodies", "Request")
        responses = operation.get("responses")
        if not isinstance(responses, dict):
            return
        read = {str(status): self.follow(here + pointer("responses", str(status)), response)
                for status, response in responses.items()}
        statuses = [s for s, (_, found) in read.items() if _json_schemas(found)]
        main = _main(statuses)
        for status in statuses:
            at, found = read[status]
            own = name + "Response" + ("" if status == main else _suffix(status))
            self.content(at, found, _shared(at, "responses", "Response") or own)

    def body(self, here: str, node: Any, own: str, components: str, word: str) -> None:
        at, found = self.follow(here, node)
        self.content(at, found, _shared(at, components, word) or own)

    def content(self, here: str, body: Any, name: str) -> None:
        """The JSON media types of ``body`` (a request body or a response), each schema once."""
        kept: list[Any] = []
        for media_type, raw in _json_schemas(body):
            at = here + pointer("content", media_type, "schema")
            if at in self.found or raw in kept:
                continue
            kept.append(raw)
            if isinstance(raw, dict) and isinstance(raw.get("$ref"), str) and REF_ANNOTATIONS.issuperset(
                    k for k in raw if not (isinstance(k, str) and k.startswith("x-"))):
                self.components.append(raw["$ref"])
                continue  # the component itself
            self.found[at] = Body(at, name, raw)


def _json_schemas(body: Any) -> list[tuple[str, Any]]:
    content = body.get("content") if isinstance(body, dict) else None
    return [(media, found["schema"]) for media, found in (content.items() if isinstance(content, dict) else ())
            if is_json(media) and isinstance(found, dict) and "schema" in found]


def _shared(at: str, components: str, word: str) -> str | None:
    """The name of a body kept in ``components.<components>`` (``/components/responses/NotFound``)."""
    prefix = pointer("components", components) + "/"
    if not at.startswith(prefix) or "/" in at[len(prefix):]:
        return None
    name = pascal(at[len(prefix):].replace("~1", "/").replace("~0", "~")) or word
    return name if name.endswith(word) else name + word
