"""The schemas an OpenAPI document's operations use: request bodies and JSON response bodies.

Each operation of ``paths`` and of 3.1 ``webhooks`` is read for its ``requestBody`` and its
``responses``, for the media types that are JSON (``application/json``, any ``…+json`` such as
``application/problem+json``, parameters such as ``; charset=utf-8`` aside). A path item, a response
and a request body may be a ``$ref``: to a place in the document (``#/components/responses/NotFound``)
or in another file of the schema folder (``./paths/pets.yaml``, as a split project keeps its paths),
which is read (``Files``) and whose own references are read from where it is. A body whose schema is
a ``$ref`` (with annotations beside it at most) is that component: nothing new. Any other schema is a
definition at its place (``#/paths/~1menu~1items/get/responses/200/content/application~1json/schema``;
``schemas/paths/pets.yaml#/get/…`` in another file), named so:

- the operation's name is its ``operationId`` in PascalCase, else the method and the path's words
  (``get /menu/items`` → ``GetMenuItems``; a webhook's name stands for the path);
- a request body is ``<Operation>Request``;
- the *main* response is ``<Operation>Response``: the lowest ``2xx`` status with a JSON body, else a
  ``2XX`` range, else the only JSON response; every other JSON response adds its status
  (``GetOrderResponse404``, ``GetOrderResponse4XX``, ``GetOrderResponseDefault``);
- a body shared through ``components.responses`` / ``components.requestBodies`` is named after the
  component (``NotFound`` → ``NotFoundResponse``), and one that is a whole file after the file
  (``responses/NotFound.yaml`` → ``NotFoundResponse``), once, whichever operations use it.

Names made here yield to the names the document gives (``Definition.derived``).
"""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Any, Protocol
from urllib.parse import unquote

from ...diagnostics import Location, Reporter, SchemaError, pointer
from ...frozen import Frozen
from ...names import pascal
from . import common

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
#: Keys beside a ``$ref`` that only describe it: the body is the referenced component itself.
REF_ANNOTATIONS = frozenset({"$ref", "description", "summary", "title", "deprecated", "example", "examples",
                             "default", "readOnly", "writeOnly", "$comment", "externalDocs", "xml"})


class Files(Protocol):
    """Where the other files a document refers to are read (``frontend.library.Library``)."""

    def read(self, file: str) -> Any | None:
        """The parsed document ``file`` (a display path) names, or ``None`` when it may not be read."""

    def refusal(self, file: str, fragment: str = "") -> tuple[str, str]:
        """Why ``file`` is not read (message, hint)."""


class Used(Frozen, frozen=True):
    bodies: list[Body]
    """The inline schemas, in document order (each place once)."""
    components: list[str]
    """The ``$ref`` of each body that is a component, as the document writes it (``common.home_ref``)."""
    responses: frozenset[str] = frozenset()
    """The keys of the bodies, and the ``$ref`` of the components, that are a response's (what a client reads)."""


NONE = Used([], [])
"""What a document whose operations are not read uses."""


class Body(Frozen, frozen=True):
    key: str
    """The definition's key: ``#`` and where the schema is in the document, or, for one in another
    file, where the document reaches it (``#/paths/~1pets/get/responses/200/…`` for a path item that
    is a file)."""
    file: str
    """The display path of the file the schema is in (the document's own, or one it refers to)."""
    pointer: str
    """Where the schema is in ``file`` (a JSON pointer, without ``#``)."""
    name: str
    raw: Any


def is_json(media_type: Any) -> bool:
    """``application/json``, ``application/problem+json``, ``application/json; charset=utf-8``."""
    if not isinstance(media_type, str):
        return False
    base = media_type.split(";", 1)[0].strip().lower()
    return base == "application/json" or ("/" in base and base.endswith("+json"))


def used(document: dict[str, Any], display: str, reporter: Reporter, files: Files | None = None) -> Used:
    """The schemas of every operation's JSON bodies; ``files`` reads the files references name (without
    it, a reference to another file is a warning)."""
    reader = _Reader(document, display, reporter, files)
    for section in ("paths", "webhooks"):
        items = document.get(section)
        for key, item in (items.items() if isinstance(items, dict) else ()):
            at = _Place(display, pointer(section, key), pointer(section, key))
            at, found = reader.follow(at, item)
            for method in METHODS if isinstance(found, dict) else ():
                operation = found.get(method)
                if isinstance(operation, dict):
                    reader.operation(at.child(method), operation, _operation_name(operation, method, key))
    return Used(list(reader.found.values()), reader.components, frozenset(reader.responses))


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


class _Place(Frozen, frozen=True):
    file: str
    pointer: str
    route: str = ""
    """Where the document reaches it: ``pointer`` in the document itself; in another file, the place of
    the reference to the file, and the way from there (``Body.key``)."""

    def child(self, *tokens: str) -> _Place:
        down = pointer(*tokens)
        return _Place(self.file, self.pointer + down, self.route + down)


class _Reader:
    def __init__(self, document: dict[str, Any], display: str, reporter: Reporter, files: Files | None) -> None:
        self.display = display
        self.reporter = reporter
        self.files = files
        self.documents: dict[str, Any] = {display: document}
        self.ends: dict[tuple[str, str], tuple[_Place | None, Any, str | None]] = {}
        """By the place of a ``$ref`` (file, pointer): the place its chain ends at (``None``: nowhere),
        what is there, and the pointer of the last place in the document after it on the way (the
        route of a place in another file: ``_Place.route``), if any."""
        self.found: dict[tuple[str, str], Body] = {}
        """By file and pointer: a body reached along several ways is one."""
        self.components: list[str] = []
        self.responses: set[str] = set()

    def follow(self, at: _Place, node: Any) -> tuple[_Place, Any]:
        """``node`` (at ``at``), or what its ``$ref`` names (in turn), and where that is; ``None`` when
        a reference finds nothing (reported once) or goes round in a circle. Each reference of a
        chain is followed once, however many places lead into it (``ends``)."""
        trail: list[_Place] = []
        on_trail: set[tuple[str, str]] = set()
        while isinstance(node, dict) and isinstance(node.get("$ref"), str):
            key = (at.file, at.pointer)
            known = self.ends.get(key)
            if known is not None or key in on_trail:
                end, node, last = known or (None, None, None)
                if known is not None and last is None and at.file == self.display:
                    last = at.pointer  # (the place met is on the way too)
                break
            trail.append(at)
            on_trail.add(key)
            step = self._step(at, node["$ref"])
            if step is None:
                end, node, last = None, None, None
                break
            at, node = step
        else:
            if not trail:
                return at, node
            end, last = at, at.pointer if at.file == self.display else None
        start = trail[0] if trail else at
        for place in reversed(trail):
            self.ends[place.file, place.pointer] = (end, node, last)
            if last is None and place.file == self.display:
                last = place.pointer
        found = self.ends.get((start.file, start.pointer), (end, node, last))
        if found[0] is None:
            return start, None
        return _Place(found[0].file, found[0].pointer, found[2] if found[2] is not None else start.route), found[1]

    def _step(self, at: _Place, ref: str) -> tuple[_Place, Any] | None:
        """What the ``$ref`` at ``at`` names, and where; ``None`` (reported) when it names nothing."""
        where = Location(at.file, at.pointer + "/$ref")
        target = _target(ref, at.file)
        if target is None:
            self.reporter.warn(where, f"{ref!r} is no file of the schema folder: the bodies it holds are not generated",
                               kind="operation reference")
            return None
        document = self._document(target.file, where)
        node = common.follow(document, target.pointer) if target.pointer[:1] in ("", "/") else None
        if node is None:
            if document is not None:
                self.reporter.warn(where, f"{ref!r} names nothing: the bodies it would hold are not generated",
                                   kind="operation reference")
            return None
        return target, node

    def _document(self, file: str, where: Location) -> Any:
        """The parsed ``file``, read once; ``None`` when it may not be read (an error, or a warning
        when no ``files`` reads other files)."""
        if file not in self.documents:
            self.documents[file] = None
            if self.files is None:
                self.reporter.warn(where, f"{file!r} is not read here: the bodies it holds are not generated",
                                   kind="operation reference")
                return None
            try:
                self.documents[file] = self.files.read(file)
            except SchemaError as exc:
                for problem in exc.diagnostics:
                    self.reporter.add(problem)
                return None
            if self.documents[file] is None:
                self.reporter.error(where, *self.files.refusal(file))
        return self.documents[file]

    def operation(self, at: _Place, operation: dict[str, Any], name: str) -> None:
        if "requestBody" in operation:
            self.body(at.child("requestBody"), operation["requestBody"], name + "Request", "requestBodies", "Request")
        responses = operation.get("responses")
        if not isinstance(responses, dict):
            return
        read = {str(status): self.follow(at.child("responses", str(status)), response)
                for status, response in responses.items()}
        statuses = [s for s, (_, found) in read.items() if _json_schemas(found)]
        main = _main(statuses)
        for status in statuses:
            here, found = read[status]
            own = name + "Response" + ("" if status == main else _suffix(status))
            self.content(here, found, self._shared(here, "responses", "Response") or own, response=True)

    def body(self, at: _Place, node: Any, own: str, components: str, word: str) -> None:
        here, found = self.follow(at, node)
        self.content(here, found, self._shared(here, components, word) or own)

    def content(self, at: _Place, body: Any, name: str, response: bool = False) -> None:
        """The JSON media types of ``body`` (a request body or a response), each schema once."""
        kept: list[Any] = []
        for media_type, raw in _json_schemas(body):
            here = at.child("content", media_type, "schema")
            known = self.found.get((here.file, here.pointer))
            if known is not None or raw in kept:
                if known is not None and response:
                    self.responses.add(known.key)
                continue
            kept.append(raw)
            if isinstance(raw, dict) and isinstance(raw.get("$ref"), str) and REF_ANNOTATIONS.issuperset(
                    k for k in raw if not (isinstance(k, str) and k.startswith("x-"))):
                self.components.append(common.home_ref(raw["$ref"], here.file, self.display))
                if response:
                    self.responses.add(self.components[-1])
                continue  # the component itself
            self.found[here.file, here.pointer] = Body("#" + here.route, here.file, here.pointer, name, raw)
            if response:
                self.responses.add("#" + here.route)

    def _shared(self, at: _Place, components: str, word: str) -> str | None:
        """The name of a body kept in ``components.<components>`` (``/components/responses/NotFound``),
        or as a whole file of its own (``NotFound.yaml``)."""
        prefix = pointer("components", components) + "/"
        if at.pointer.startswith(prefix) and "/" not in at.pointer[len(prefix):]:
            name = pascal(at.pointer[len(prefix):].replace("~1", "/").replace("~0", "~"))
        elif at.file != self.display and not at.pointer:
            name = pascal(PurePosixPath(at.file).stem)
        else:
            return None
        name = name or word
        return name if name.endswith(word) else name + word


def _target(ref: str, file: str) -> _Place | None:
    """The place a ``$ref`` written in ``file`` names (``None`` for a URL: nothing is fetched)."""
    found = ref if ref.startswith("#") else common.file_ref(ref, file)
    if found is None:
        return None
    target, _, fragment = found.partition("#")
    fragment = unquote(fragment) if ref.startswith("#") else fragment
    return _Place(target or file, fragment, fragment)


def _json_schemas(body: Any) -> list[tuple[str, Any]]:
    content = body.get("content") if isinstance(body, dict) else None
    return [(media, found["schema"]) for media, found in (content.items() if isinstance(content, dict) else ())
            if is_json(media) and isinstance(found, dict) and "schema" in found]
