"""Inputs: which schema files make which output package."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..diagnostics import Diagnostic, Location, SchemaError
from ..frontend.read import SUFFIXES
from ..names import identifier
from .config import Config, InputSpec

if TYPE_CHECKING:
    from ..frontend.dialects import Dialect


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
            raise SchemaError([Diagnostic(Location(display_path(config.schemas, config.root)), "no schema folder here",
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
        display = display_path(path, config.root)
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


def display_path(path: Path, root: Path) -> str:
    """How messages name ``path``: relative to the project root when it is inside, ``/`` after a folder."""
    try:
        text = path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        text = path.as_posix()
    return text + "/" if path.is_dir() else text
