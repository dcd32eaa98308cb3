"""References between inputs: ``other.json#/definitions/X`` is class ``X`` of the package made
from ``other.json``, imported where used. Each input is lowered once; inputs that refer to each
other in a cycle would be modules importing each other, which is an error."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from .. import ir
from ..diagnostics import Diagnostic, Location, Reporter, SchemaError
from ..frontend.bundle import Library
from .inputs import Input, display_path
from .pipeline import Stages, to_ir


class Linker:
    def __init__(self, inputs: Sequence[Input], root: Path, folder: Path, stages: Stages = Stages(), *,
                 refs: tuple[tuple[str, Path], ...] = (), where: str = "the schema folder") -> None:
        """``folder``: the schema folder, where referenced files that are not inputs are read from
        (``where`` names it in messages); ``refs``: the folders URL prefixes are read from."""
        self.root = root
        self.stages = stages
        self.by_file = {source.display: source for source in inputs if source.path.is_file()}
        mapped = tuple((prefix, display_path(path, root).rstrip("/") + "/") for prefix, path in refs)
        self.library = Library(root, folder, frozenset(self.by_file), mapped, where)
        self.done: dict[str, tuple[ir.Module | SchemaError, list[Diagnostic]]] = {}
        self.active: list[str] = []

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

    def resolve(self, ref: str, where: Location) -> ir.Type:
        """The type ``ref`` names in another input; raises ``SchemaError`` saying why not."""
        file, pointer = ref.split("#", 1)
        target = self.by_file.get(file)
        if target is None:
            raise SchemaError([Diagnostic(where, *self.library.refusal(file))])
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
            raise SchemaError([Diagnostic(where, f"{file!r} declares nothing at #{pointer}",
                                          "refer to one of its definitions")])
        return ir.Ref(names[pointer], module=target.name)
