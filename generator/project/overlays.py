"""Which overlays mend which input.

An overlay file directly in the schema folder (a JSON or YAML object with a top-level ``overlay``
key) is no input of its own: its ``extends``, a path relative to the overlay, names what it mends,
either an input file (``openai.yaml``) or one file of a component folder (``openai/Usage.json``).
An input of ``[[tool.schemagen.inputs]]`` may also list overlays by path (``overlays = [...]``),
which mend it whatever their ``extends`` says of an input file (a folder's overlay must still name
its file). An input's overlays apply in that order: those it lists, then those found beside it, in
file-name order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..diagnostics import Diagnostic, Location, Reporter, SchemaError
from ..frontend.overlays import parse, sniff
from ..frontend.read import SUFFIXES, read_document
from .config import Config, InputSpec, display_path

_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
FOLDER_HINT = "an overlay of a component folder names one file of it in `extends` (`openai/Usage.json`)"


@dataclass(frozen=True, slots=True)
class OverlayFile:
    path: Path
    display: str
    """How messages and headers name it: relative to the project root."""
    target: Path
    """The file it mends: the input, or one file of the input's component folder."""


@dataclass(frozen=True, slots=True)
class Source:
    """What binding needs of an input: its index in the configuration, its spec, path and display path."""

    index: int
    spec: InputSpec
    path: Path
    display: str


def in_folder(config: Config) -> dict[Path, Any]:
    """The files directly in the schema folder that an overlay may be (resolved path → its document if it is
    one, else ``None``), in file-name order: each is read once, and what it is known from then on."""
    if not config.schemas.is_dir():
        return {}
    return {path.resolve(): sniff(path, display_path(path, config.root)) for path in sorted(config.schemas.iterdir())
            if path.suffix in SUFFIXES and not path.name.startswith(".") and path.is_file()}


def attach(config: Config, sources: list[Source], found: dict[Path, Any],
           problems: list[Diagnostic]) -> list[tuple[OverlayFile, ...]]:
    """The overlays of each of ``sources``, in order; problems are appended to ``problems``."""
    bound: dict[int, list[OverlayFile]] = {n: [] for n in range(len(sources))}
    listed: set[Path] = set()
    for n, source in enumerate(sources):
        for j, name in enumerate(source.spec.overlays):
            path = config.root / name
            display = display_path(path, config.root)
            where = Location("pyproject.toml", f"/tool/schemagen/inputs/{source.index}/overlays/{j}")
            document = found.get(path.resolve()) if path.is_file() else None
            document = document if document is not None or not path.is_file() else sniff(path, display)
            if not path.is_file():
                problems.append(Diagnostic(where, f"no overlay file {name!r} (relative to the project root)"))
            elif document is None:
                problems.extend(_unreadable(path, display) or
                                [Diagnostic(where, f"{name!r} is no overlay: it has no top-level `overlay` key")])
            else:
                listed.add(path.resolve())
                target = _listed_target(path, display, document, source, problems)
                if target is not None:
                    bound[n].append(OverlayFile(path, display, target))
    for path, document in found.items():
        if path not in listed:
            _bind_found(config, path, document, sources, bound, problems)
    return [tuple(bound[n]) for n in range(len(sources))]


def _unreadable(path: Path, display: str) -> list[Diagnostic]:
    """Why a file that ``sniff`` finds no overlay does not parse (a syntax error, a key written twice), if it does not."""
    try:
        read_document(path, display)
    except SchemaError as exc:
        return exc.diagnostics
    return []


def _unbound(path: Path, display: str, document: Any, problem: Diagnostic, problems: list[Diagnostic]) -> None:
    """An overlay that mends nothing: ``problem``, and what else is wrong with it (reported together)."""
    problems.append(problem)
    parse(document, display, path, Reporter(), problems)


def _listed_target(path: Path, display: str, document: Any, source: Source, problems: list[Diagnostic]) -> Path | None:
    """The file an overlay that ``source`` lists mends."""
    extends, named = _extends(path, document)
    home = source.path.resolve()
    if source.path.is_file():
        if named is None or named == home or not named.exists():
            return home
        _unbound(path, display, document, Diagnostic(
            Location(display, "/extends"), f"extends {extends!r}, but the input that lists it is {source.display}",
            "make `extends` name that input, or list it elsewhere"), problems)
    elif named is not None and named.parent == home and named.is_file():
        return named
    else:
        _unbound(path, display, document, Diagnostic(
            Location(display, "/extends" if extends is not None else ""),
            f"{source.display} is a component folder: which file does the overlay mend?", FOLDER_HINT), problems)
    return None


def _bind_found(config: Config, path: Path, document: Any, sources: list[Source],
                bound: dict[int, list[OverlayFile]], problems: list[Diagnostic]) -> None:
    """Attach an overlay found in the schema folder to the input its ``extends`` names."""
    display = display_path(path, config.root)
    extends, named = _extends(path, document)
    where = Location(display, "/extends" if extends is not None else "")
    if named is None:
        what = "names no input" if extends is None else f"extends {extends!r}: a URL, not a file beside it"
        _unbound(path, display, document, Diagnostic(
            where, f"an overlay in the schema folder {what}",
            "set `extends` to the input it mends, relative to the overlay (`openai.yaml`), or list it under that "
            "input's `overlays` in [[tool.schemagen.inputs]]"), problems)
        return
    for n, source in enumerate(sources):
        home = source.path.resolve()
        if named == home and source.path.is_dir():
            _unbound(path, display, document, Diagnostic(
                where, f"extends {extends!r}, a component folder: which file does it mend?", FOLDER_HINT), problems)
            return
        if named == home or (source.path.is_dir() and named.parent == home and named.suffix in SUFFIXES):
            if not named.is_file():
                break
            bound[n].append(OverlayFile(path, display, named))
            return
    if config.inputs is not None and named.is_file():
        return  # it mends a file this configuration does not generate from
    _unbound(path, display, document, Diagnostic(
        where, f"extends {extends!r}, which is no input here",
        "name an input beside the overlay: a schema file, or one file of a component folder"), problems)


def _extends(path: Path, document: Any) -> tuple[str | None, Path | None]:
    """``extends`` as written, and the file it names (``None`` for no path: absent, not a string, a URL)."""
    extends = document.get("extends") if isinstance(document, dict) else None
    if not isinstance(extends, str):
        return None, None
    if not extends.strip() or _URL.match(extends):
        return extends, None
    return extends, (path.parent / extends).resolve()
