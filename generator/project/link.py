"""References between inputs: ``other.json#/definitions/X`` is class ``X`` of the package made
from ``other.json``, imported where used. Each input is lowered once; inputs that refer to each
other in a cycle would be modules importing each other, which is an error."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from .. import ir
from ..diagnostics import Diagnostic, Location, Reporter, SchemaError
from ..frontend.bundle import Library
from .config import Config, InputSpec, display_path
from .inputs import Input, discover
from .pipeline import Stages, constrains_nothing, to_ir

if TYPE_CHECKING:
    from ..frontend.dialects import Dialect


class Linker:
    def __init__(self, inputs: Sequence[Input], config: Config, stages: Stages = Stages(), *,
                 folder: Path | None = None, where: str = "the schema folder") -> None:
        """``inputs`` as the project ``config`` reads them: referenced files that are not inputs are read
        from its schema folder (or ``folder``, which ``where`` names in messages), URLs from the folders
        its ``[tool.schemagen.refs]`` maps them to."""
        self.root = config.root
        self.stages = stages
        self.by_file = {source.display: source for source in inputs if source.path.is_file()}
        mapped = tuple((prefix, display_path(path, config.root).rstrip("/") + "/") for prefix, path in config.refs)
        self.library = Library(config.root, folder or config.schemas, frozenset(self.by_file), mapped, where)
        self.done: dict[str, tuple[ir.Module | SchemaError, list[Diagnostic]]] = {}
        self.active: list[str] = []
        self.empty: dict[str, bool] = {}
        """Inputs whose root constrains nothing (``pipeline.constrains_nothing``), asked once a run."""

    def lower(self, source: Input) -> tuple[ir.Module, list[Diagnostic]]:
        """The IR of ``source`` and its warnings (once per run); raises ``SchemaError``."""
        if source.display not in self.done:
            self.active.append(source.display)
            reporter = Reporter()
            try:
                result: ir.Module | SchemaError = to_ir(source, self.root, reporter, self.resolve, self.library,
                                                         self.stages)
            except SchemaError as exc:
                result = exc
            finally:
                self.active.pop()
            self.done[source.display] = (result, reporter.warnings)
        result, warnings = self.done[source.display]
        if isinstance(result, SchemaError):
            raise result
        return result, warnings

    def _empty(self, target: Input) -> bool:
        if target.display not in self.empty:
            self.empty[target.display] = constrains_nothing(target, self.root, self.stages)
        return self.empty[target.display]

    def resolve(self, ref: str, where: Location) -> ir.Type:
        """The type ``ref`` names in another input; raises ``SchemaError`` saying why not."""
        file, _, pointer = ref.partition("#")
        target = self.by_file.get(file)
        if target is None:
            raise SchemaError([Diagnostic(where, *self.library.refusal(file, pointer))])
        if file in self.active:
            cycle = " -> ".join([*self.active[self.active.index(file):], file])
            raise SchemaError([Diagnostic(where, f"inputs refer to each other in a cycle: {cycle}",
                                          "their modules would import each other: move the shared definitions "
                                          "into one file")])
        try:
            module, _ = self.lower(target)
        except SchemaError:
            raise SchemaError([Diagnostic(where, f"{file!r} has errors of its own (reported for it)")]) from None
        names = {d.origin.pointer: d.name for d in module.declarations if d.origin and d.origin.path == file}
        if pointer not in names:
            if pointer == "" and self._empty(target):
                return ir.AnyType()  # as `{}` is
            raise SchemaError([Diagnostic(where, f"{file!r} declares nothing at #{pointer}",
                                          "refer to one of its definitions")])
        return ir.Ref(names[pointer], module=target.name)


def one_input(config: Config, path: Path, dialect: Dialect | None = None) -> tuple[Input, Linker]:
    """The input at ``path`` as the project reads it (with the settings ``[[tool.schemagen.inputs]]``
    lists for it; ``dialect`` instead of its own when given), and a linker over it and the project's
    other inputs, for references to them. A path outside the schema folder is read in its own folder,
    which stands for the schema folder in that run: nothing above it is read."""
    listed = [s for s in config.inputs or () if (config.root / s.path).resolve() == path.resolve()]
    spec = dataclasses.replace(listed[0], path=str(path)) if listed else InputSpec(str(path))
    if dialect is not None:
        spec = dataclasses.replace(spec, dialect=dialect)
    [source] = discover(dataclasses.replace(config, inputs=(spec,)))
    folder, where = config.schemas, "the schema folder"
    if not source.path.resolve().is_relative_to(config.schemas.resolve()):
        folder = source.path if source.path.is_dir() else source.path.parent
        shown = display_path(folder, config.root)
        where = "the folder of the rendered file" + (f" ({shown})" if shown not in ("./", ".") else "")
    try:
        others = [o for o in discover(config) if o.display != source.display
                  and o.path.resolve().is_relative_to(folder.resolve())]
    except SchemaError:
        others = []
    return source, Linker([*others, source], config, folder=folder, where=where)
