"""Inputs: which schema files make which output package, and turning one into IR."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from . import ir, passes, validate
from .bundle import Library, bundle
from .cache import Cache
from .config import Config, InputSpec
from .dialects import Dialect, normalise
from .errors import Diagnostic, Location, Reporter, SchemaError
from .load import SUFFIXES, read_document
from .lower import External, lower
from .names import identifier, pascal

@dataclass(frozen=True, slots=True)
class Input:
    name: str
    """The output package (a Python identifier)."""
    path: Path
    display: str
    """How messages and headers name it: relative to the project root, ``/`` for a folder."""
    dialect: Dialect = "auto"

    @property
    def files(self) -> list[Path]:
        if self.path.is_dir():
            return sorted(p for p in self.path.iterdir() if p.suffix in SUFFIXES and p.is_file())
        return [self.path]


def discover(config: Config) -> list[Input]:
    specs = config.inputs
    if specs is None:
        if not config.schemas.is_dir():
            raise SchemaError([Diagnostic(Location(_display(config.schemas, config.root)), "no schema folder here",
                                          "create it, or set `schemas` under [tool.schemagen]")])
        entries = sorted(config.schemas.iterdir())
        specs = tuple(
            InputSpec(str(p.relative_to(config.root))) for p in entries
            if not p.name.startswith(".") and (p.is_dir() or p.suffix in SUFFIXES)
        )
    inputs: list[Input] = []
    seen: dict[str, str] = {}
    problems = []
    for spec in specs:
        path = config.root / spec.path
        display = _display(path, config.root)
        if not path.exists():
            problems.append(Diagnostic(Location(display), "input does not exist"))
            continue
        name = identifier(spec.name or path.stem, style="snake")
        if name in seen:
            problems.append(Diagnostic(Location(display), f"output package {name!r} is also made from {seen[name]}",
                                       "rename one, or give it a `name` under [[tool.schemagen.inputs]]"))
            continue
        seen[name] = display
        inputs.append(Input(name, path, display, spec.dialect))
    if problems:
        raise SchemaError(problems)
    return inputs


def to_ir(source: Input, root: Path, reporter: Reporter, external: External | None = None,
          library: Library | None = None, cache: Cache | None = None) -> ir.Module:
    """Load, normalise, lower and run the passes; problems go to ``reporter`` (errors raise).

    ``library`` says which referenced files that are not inputs are read (``bundle``; default: those
    in ``source``'s folder); ``external`` resolves references to inputs (see ``link.Linker``); other
    references to files are unresolved. ``cache`` spares work done in an earlier run (see ``validate.check``).
    """
    documents = [(_display(p, root), read_document(p, _display(p, root), cache)) for p in source.files]
    if not documents:
        raise SchemaError([Diagnostic(Location(source.display), "the folder holds no .json, .yaml or .yml file")])
    schemas = normalise(documents, folder=source.path.is_dir(), dialect=source.dialect,
                        default_name=pascal(source.path.stem) or "Model", reporter=reporter)
    if source.path.is_file():
        library = library or Library(root, source.path.parent, frozenset({source.display}))
        schemas = bundle(schemas, source.display, library, reporter)
    validate.check(schemas, reporter, cache)
    reporter.raise_errors()
    module = lower(schemas, reporter, external)
    reporter.raise_errors()
    module = passes.run(module, reporter)
    reporter.raise_errors()
    return module


def _display(path: Path, root: Path) -> str:
    try:
        text = path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        text = path.as_posix()
    return text + "/" if path.is_dir() else text
