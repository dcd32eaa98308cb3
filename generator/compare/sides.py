"""The two sides of a comparison: ``PATH[#Name]``, lowered as ``generate`` lowers it, and the
declaration it names.

PATH is an input file or folder, in the project it is in (the nearest folder above it whose
``pyproject.toml`` holds ``[tool.schemagen]``), or in ``--project DIR`` with PATH relative to DIR;
the output names it relative to the working folder, as typed.
An input listed under ``[[tool.schemagen.inputs]]`` keeps its settings there (name, dialect,
overlays, ``required_defaults``). The inputs it refers to are lowered too, so that a reference to
another input's declaration can be followed. ``Name`` is a declaration as the schema names it (its
key under ``definitions``, ``$defs`` or ``components/schemas``, or a component file's name), or its
class name, or a JSON pointer (``#/definitions/X``); without it, the input's root.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Mapping
from pathlib import Path

from .. import ir
from ..diagnostics import SchemaError
from ..ir.walk import all_types
from ..project import config as configuration
from ..project.inputs import Input
from ..project.link import Linker, one_input


class CompareError(Exception):
    """A side that cannot be compared: no such input, no such declaration, no root."""


class Side:
    """One side: its modules (output package → IR: this input's, and those of the inputs it refers
    to), the package of the input, and the declaration compared (by its class name there)."""

    def __init__(self, label: str, modules: Mapping[str, ir.Module], package: str, root: str,
                 source: Input | None = None, project: Path | None = None) -> None:
        self.label = label
        """How the output names this side: ``schemas/chat_completion_out.json#OpenAIChatCompletionOut``."""
        self.modules = modules
        self.package = package
        self.root = root
        self.source = source
        """The input, as the project configures it (``validate`` reads its documents again)."""
        self.project = project
        """The project root the input's places are written from."""
        self._index = {name: _index(m) for name, m in modules.items()}

    def declarations(self, package: str) -> Mapping[str, ir.Declaration]:
        return self._index[package]


def _index(module: ir.Module) -> dict[str, ir.Declaration]:
    return {d.name: d for d in module.declarations}


def load(spec: str, project: Path | None) -> Side:
    """The side ``spec`` (``PATH[#Name]``) names; ``project``: ``--project``, else the project PATH is in.
    Raises ``CompareError``, or ``SchemaError`` for an input that fails to lower."""
    text, _, name = spec.partition("#")
    path = _path(text, project)
    if not text or not path.exists():
        raise CompareError(f"{spec}: no input {text!r} (no such file or folder)")
    cfg = configuration.load(project_of(spec, project))
    source, linker = one_input(cfg, path)
    module, _ = linker.lower(source)
    modules = {source.name: module}
    _referenced(module, {o.name: o for o in linker.by_file.values()}, linker, modules)
    shown = shown_path(path)
    declaration = _find(module, name, shown)
    return Side(f"{shown}#{declaration.name}", modules, source.name, declaration.name, source, cfg.root)


def shown_path(path: Path) -> str:
    """How the output names the input at ``path``: relative to the working folder (so, as typed when it was
    typed relative to it), ``/`` after a folder."""
    try:
        text = Path(os.path.relpath(path, Path.cwd())).as_posix()
    except ValueError:  # (another drive)
        text = path.as_posix()
    return text + "/" if path.is_dir() else text


def project_of(spec: str, project: Path | None) -> Path:
    """The project root ``spec`` is read in: ``project``, else the project its PATH is in."""
    return project if project is not None else configuration.find_root(_path(spec.partition("#")[0], project))


def _path(text: str, project: Path | None) -> Path:
    path = Path(text)
    if project is not None and not path.is_absolute():
        path = project / path
    return path.absolute()


def _referenced(module: ir.Module, inputs: Mapping[str, Input], linker: Linker, found: dict[str, ir.Module]) -> None:
    """Every input ``module`` refers to, directly or through others, into ``found``."""
    for t in all_types(module):
        if isinstance(t, ir.Ref) and t.module is not None and t.module not in found and t.module in inputs:
            other, _ = linker.lower(inputs[t.module])
            found[t.module] = other
            _referenced(other, inputs, linker, found)


def _find(module: ir.Module, name: str, display: str) -> ir.Declaration:
    """The declaration ``name`` stands for (see the module docstring); the root when it is empty."""
    by_class = _index(module)
    if not name:
        if module.root is None:
            named = ", ".join(sorted(d.name for d in module.declarations if not d.inline)[:3])
            raise CompareError(f"{display} has no root schema; name a declaration: {display}#Name (one of: {named}, …)")
        return by_class[module.root]
    for d in module.declarations:
        if d.origin is not None and not d.inline and (d.origin.pointer == name or _last_token(d.origin.pointer) == name):
            return d
    if name in by_class:
        return by_class[name]
    names = [_last_token(d.origin.pointer) or d.name if d.origin else d.name for d in module.declarations
             if not d.inline] + list(by_class)
    close = difflib.get_close_matches(name, list(dict.fromkeys(names)), n=3)
    hint = f"; did you mean {' or '.join(map(repr, close))}?" if close else ""
    raise CompareError(f"{display}: no declaration {name!r}{hint}")


def _last_token(pointer: str) -> str:
    """The last token of a JSON pointer, unescaped (``/definitions/a~1b`` → ``a/b``)."""
    if not pointer:
        return ""
    return pointer.rsplit("/", 1)[-1].replace("~1", "/").replace("~0", "~")
