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
from ..cache.lowered import Kept
from ..frontend.read import schema_files
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
        self.done: dict[str, tuple[ir.Module | Kept | SchemaError, list[Diagnostic]]] = {}
        self.active: list[str] = []
        self.empty: dict[str, bool] = {}
        """Inputs whose root constrains nothing (``pipeline.constrains_nothing``), asked once a run."""
        self.memo = stages.lowered
        """Where inputs' IR is kept across runs (``cache.lowered``), if anywhere."""
        self.keys: dict[str, str | None] = {}
        """Each input's key (``Lowered.key``)."""
        self.wholes: dict[str, str] = {}
        """Once it is lowered or found kept, each input's key with those of the inputs it refers to
        (``Lowered.whole``); none for an input with errors."""
        self.referred: dict[str, dict[str, None]] = {}
        """The inputs each input's lowering referred to, in order."""
        self._readable: list[Path] | None = None

    def lower(self, source: Input) -> tuple[ir.Module, list[Diagnostic]]:
        """The IR of ``source`` and its warnings (once per run); raises ``SchemaError``."""
        warnings = self.warnings(source)
        result = self.done[source.display][0]
        if isinstance(result, Kept):  # (its IR read now: it is asked for)
            module = result.module()
            self.done[source.display] = (module, warnings) if module is not None else self._lowered(source)
            return self.lower(source)
        assert isinstance(result, ir.Module)
        return result, warnings

    def warnings(self, source: Input) -> list[Diagnostic]:
        """What lowering ``source`` warns of (once per run; an IR kept is not read for it); raises
        ``SchemaError``."""
        if source.display not in self.done:
            self.done[source.display] = self._kept(source) or self._lowered(source)
        result, warnings = self.done[source.display]
        if isinstance(result, SchemaError):
            raise result
        return warnings

    def _lowered(self, source: Input) -> tuple[ir.Module | SchemaError, list[Diagnostic]]:
        key = self._key(source)  # (the files as they were before they are read)
        self.active.append(source.display)
        self.referred[source.display] = {}
        asked = len(self.library.asked)
        reporter = Reporter()
        try:
            result: ir.Module | SchemaError = to_ir(source, self.root, reporter, self.resolve, self.library,
                                                     self.stages)
        except SchemaError as exc:
            result = exc
        finally:
            self.active.pop()
        referred = [(d, self.wholes.get(d)) for d in self.referred[source.display]]
        if self.memo is not None and key is not None and isinstance(result, ir.Module):
            found = [(d, k) for d, k in referred if k is not None]
            if len(found) == len(referred):
                read = tuple((str(self.root / f), self.memo.digest_of(self.root / f))
                             for f in dict.fromkeys(self.library.asked[asked:]))
                self.memo.put(source.display, key, result, reporter.warnings, found, read)
                self.wholes[source.display] = self.memo.whole(key, found)
        return result, reporter.warnings

    def _kept(self, source: Input) -> tuple[Kept, list[Diagnostic]] | None:
        """``source``'s IR and warnings as an earlier run kept them, if made from what is here now."""
        key = self._key(source)
        if self.memo is None or key is None:
            return None
        found = self.memo.get(source.display, key, self._whole)
        if found is None:
            return None
        self.wholes[source.display] = self.memo.whole(key, found.referred)
        return found, list(found.warnings)

    def _whole(self, display: str) -> str | None:
        """The key of input ``display`` with those of the inputs it refers to, in this run (it is looked
        up, or lowered, first); ``None`` when it has errors or cannot be kept."""
        source = self.by_file.get(display)
        if source is None or display in self.active:
            return None
        try:
            self.warnings(source)  # (its IR is not read for this)
        except SchemaError:
            return None
        return self.wholes.get(display)

    def _key(self, source: Input) -> str | None:
        """What ``source``'s IR is made from, besides the inputs it refers to (``Lowered.key``)."""
        if self.memo is None:
            return None
        if source.display not in self.keys:
            if self._readable is None:
                self._readable = self.readable()
            own = [*source.files, *(o.path for o in source.overlays)]
            library = self.library  # (said in a fixed order: a set's ``repr`` changes with the hash seed)
            settings = [repr(source), str(self.root), str(library.folder), *sorted(library.inputs), repr(library.refs),
                        library.where]
            self.keys[source.display] = self.memo.key("\n".join(settings), own, self._readable)
        return self.keys[source.display]

    def readable(self) -> list[Path]:
        """The files of the folders ``[tool.schemagen.refs]`` maps URLs to, whichever an input reads (a URL
        may name a file by its ``$id``; those of the schema folder an input reads are kept with it)."""
        inputs = {(self.root / display).resolve() for display in self.by_file}
        folders = [self.root / folder for _, folder in self.library.refs]
        return [p for folder in folders if folder.is_dir() for p in schema_files(folder, nested=True)
                if p.resolve() not in inputs]

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
        self.referred[self.active[-1]][file] = None  # (asked while ``active[-1]`` is lowered)
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
