"""Inputs: which schema files make which output package, and which overlays mend them (``overlays``)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..diagnostics import Diagnostic, Location, SchemaError
from ..frontend.components import COMPONENTS, component_name
from ..frontend.overlays import sniff
from ..frontend.read import SUFFIXES, read_document, read_text, schema_files
from ..names import Naming, identifier
from .config import OPENAPI_PARTS, Config, InputSpec, display_path
from .ignores import Ignore
from .overlays import OverlayFile, Source, attach, in_folder
from .refmap import holds_mapped

if TYPE_CHECKING:
    from ..frontend.dialects import Dialect
    from ..frontend.dialects.openapi import Part
    from ..passes.required_defaults import Setting


#: The files that make a folder one whole OpenAPI project: that document is the input, and the other
#: files of the folder and its subfolders are read where it (or they) refer to them.
ROOT_DOCUMENTS = ("openapi.yaml", "openapi.yml", "openapi.json")


@dataclass(frozen=True, slots=True)
class Input:
    name: str
    """The output package (a Python identifier)."""
    path: Path
    display: str
    """How messages and headers name it: relative to the project root, ``/`` for a folder."""
    dialect: Dialect = "auto"
    overlays: tuple[OverlayFile, ...] = ()
    """Applied in this order, each to its file, before the dialect is normalised."""
    required_defaults: Setting | None = None
    """The input's setting, else the table's; ``None``: set in neither."""
    ignore: tuple[Ignore, ...] = ()
    """The warnings its own ``ignore`` acknowledges (the table's hold for every input: ``Config.ignore``)."""
    openapi_scope: tuple[Part, ...] = OPENAPI_PARTS
    """What of a whole OpenAPI 3 document is generated: the input's setting, else the table's, else both."""
    names: Naming = "schema"
    """How its classes are named: the input's setting, else the table's, else as the schema names them."""

    @property
    def files(self) -> list[Path]:
        if self.path.is_dir():
            return schema_files(self.path)
        return [self.path]

    @property
    def label(self) -> str:
        """How the header of its modules names it: with its overlays, if any."""
        if not self.overlays:
            return self.display
        many = "s" if len(self.overlays) > 1 else ""
        return f"{self.display} with overlay{many} {', '.join(o.display for o in self.overlays)}"


def discover(config: Config) -> list[Input]:
    specs = config.inputs
    sniffed = in_folder(config)
    found = {path: document for path, document in sniffed.items() if document is not None}
    if specs is None:
        if not config.schemas.is_dir():
            raise SchemaError([Diagnostic(Location(display_path(config.schemas, config.root)), "no schema folder here",
                                          "create it, or set `schemas` under [tool.schemagen]")])
        entries = sorted(config.schemas.iterdir())
        specs = tuple(
            InputSpec(str(p.relative_to(config.root))) for p in entries
            if not p.name.startswith(".") and (p.is_dir() or p.suffix in SUFFIXES) and p.resolve() not in found
            and not (p.is_dir() and holds_mapped(p, config.refs))  # documents for references, no input
            and not (p.is_dir() and not root_documents(p) and not holds_components(p))  # the same
        )
    sources: list[tuple[Source, Input]] = []
    seen: dict[str, str] = {}
    problems = []
    for index, spec in enumerate(specs):
        path = config.root / spec.path
        display = display_path(path, config.root)
        if not path.exists():
            problems.append(Diagnostic(Location(display), "input does not exist"))
            continue
        folder = path.name
        if path.is_dir() and root_documents(path):
            path, *more = root_documents(path)
            if more:
                problems.append(Diagnostic(Location(display), f"two root documents: {path.name} and {more[0].name}",
                                           "keep one: the folder is one OpenAPI project"))
                continue
            display = display_path(path, config.root)
        if path.is_file() and _is_overlay(path, display, sniffed):
            problems.append(Diagnostic(Location(display), "an overlay, not a schema",
                                       "list it under the `overlays` of the input it mends, or name that input "
                                       "in its `extends`"))
            continue
        name = identifier(spec.name or (folder if path.name in ROOT_DOCUMENTS else path.stem), style="snake")
        if name in seen:
            problems.append(Diagnostic(Location(display), f"output package {name!r} is also made from {seen[name]}",
                                       "rename one, or give it a `name` under [[tool.schemagen.inputs]]"))
            continue
        seen[name] = display
        scope = spec.openapi_scope or config.openapi_scope or OPENAPI_PARTS
        sources.append((Source(index, spec, path, display), Input(name, path, display, spec.dialect, (),
                                                                  spec.required_defaults or config.required_defaults,
                                                                  spec.ignore, scope,
                                                                  spec.names or config.names or "schema")))
    mends = attach(config, [s for s, _ in sources], found, problems)
    if problems:
        raise SchemaError(problems)
    return [replace(i, overlays=overlays) for (_, i), overlays in zip(sources, mends)]


def _is_overlay(path: Path, display: str, sniffed: dict[Path, Any]) -> bool:
    """Whether the file at ``path`` is an overlay: as ``in_folder`` found it, or read now."""
    resolved = path.resolve()
    return (sniffed[resolved] if resolved in sniffed else sniff(path, display)) is not None


def root_documents(folder: Path) -> list[Path]:
    """The root OpenAPI documents (``ROOT_DOCUMENTS``) directly in ``folder``: one makes it a split
    project, whose input is that file."""
    return [folder / name for name in ROOT_DOCUMENTS if (folder / name).is_file()]


def holds_components(folder: Path) -> bool:
    """Some file directly in ``folder`` is an OpenAPI component file (``$id: "#/components/schemas/X"``),
    or cannot be read (as an input it is then reported). A folder that holds none is no input: its
    files are read where others refer to them."""
    for path in schema_files(folder):
        try:
            if COMPONENTS in read_text(path, path.name) and component_name(read_document(path, path.name)):
                return True
        except SchemaError:
            return True
    return False
