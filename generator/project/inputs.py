"""Inputs: which schema files make which output package, and which overlays mend them (``overlays``)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from ..diagnostics import Diagnostic, Location, SchemaError
from ..frontend.overlays import sniff
from ..frontend.read import SUFFIXES, schema_files
from ..names import identifier
from .config import Config, InputSpec, display_path
from .ignores import Ignore
from .overlays import OverlayFile, Source, attach, in_folder
from .refmap import holds_mapped

if TYPE_CHECKING:
    from ..frontend.dialects import Dialect
    from ..passes.required_defaults import Setting


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
    found = in_folder(config)
    if specs is None:
        if not config.schemas.is_dir():
            raise SchemaError([Diagnostic(Location(display_path(config.schemas, config.root)), "no schema folder here",
                                          "create it, or set `schemas` under [tool.schemagen]")])
        entries = sorted(config.schemas.iterdir())
        specs = tuple(
            InputSpec(str(p.relative_to(config.root))) for p in entries
            if not p.name.startswith(".") and (p.is_dir() or p.suffix in SUFFIXES) and p.resolve() not in found
            and not (p.is_dir() and holds_mapped(p, config.refs))  # documents for references, no input
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
        if path.is_file() and (path.resolve() in found or sniff(path, display) is not None):
            problems.append(Diagnostic(Location(display), "an overlay, not a schema",
                                       "list it under the `overlays` of the input it mends, or name that input "
                                       "in its `extends`"))
            continue
        name = identifier(spec.name or path.stem, style="snake")
        if name in seen:
            problems.append(Diagnostic(Location(display), f"output package {name!r} is also made from {seen[name]}",
                                       "rename one, or give it a `name` under [[tool.schemagen.inputs]]"))
            continue
        seen[name] = display
        sources.append((Source(index, spec, path, display), Input(name, path, display, spec.dialect, (),
                                                                  spec.required_defaults or config.required_defaults,
                                                                  spec.ignore)))
    mends = attach(config, [s for s, _ in sources], found, problems)
    if problems:
        raise SchemaError(problems)
    return [replace(i, overlays=overlays) for (_, i), overlays in zip(sources, mends)]
