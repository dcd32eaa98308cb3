"""Where a referenced document that is no input may be read from, and what a URL stands for.

A ``$ref`` to another file names it by its display path (``schemas/other.json``, relative to the
project root); only a schema file inside ``folder`` is read. A URL is never fetched: it names a
shipped JSON Schema meta-schema (``metaschemas``), or, under a prefix that ``[tool.schemagen.refs]``
maps to a folder, the file there: the prefix replaced by the folder, or else the file of that folder
whose ``$id`` is the URL. Anything else stays a remote reference, which lowering reports.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag

from ..diagnostics import SchemaError
from . import metaschemas
from .read import SUFFIXES, read_document, schema_files

REFS_SETTING = "[tool.schemagen.refs]"


@dataclass(frozen=True, slots=True)
class Library:
    """Where referenced files that are not inputs may be read from."""

    root: Path
    """The project root: display paths (``schemas/other.json``) are relative to it."""
    folder: Path
    """The schema folder: no file outside it is read."""
    inputs: frozenset[str] = frozenset()
    """Display paths of the input files (imported where referenced, never copied)."""
    refs: tuple[tuple[str, str], ...] = ()
    """``[tool.schemagen.refs]``: (URL prefix, folder as a display path ending in ``/``)."""
    where: str = "the schema folder"
    """How messages name ``folder``."""
    _ids: dict[str, dict[str, str]] = field(default_factory=dict, compare=False, repr=False)
    asked: list[str] = field(default_factory=list, compare=False, repr=False)
    """The files ``read`` was asked for, in order, found or not (what a run read besides its inputs)."""

    def locate(self, url: str, referrer: str) -> str | None:
        """What an absolute URL (without fragment) names: a shipped meta-schema (its ``$id``), or the
        display path of a file where ``refs`` maps it (which may not exist: reading it then fails).
        ``referrer``: the display path of the document that refers to it."""
        shipped = metaschemas.canonical(url, inside=metaschemas.canonical(referrer, inside=True) is not None)
        if shipped is not None:
            return shipped
        mapped = [(prefix, folder) for prefix, folder in self.refs if _under(url, prefix)]
        if not mapped:
            return None
        prefix, folder = max(mapped, key=lambda m: len(m[0]))
        file = folder + url[len(prefix):].lstrip("/")
        if (self.root / file).is_file():
            return file
        return self._by_id(folder).get(url, file)

    def answers(self, file: str, referrer: str) -> bool:
        """A reference from ``referrer`` to ``file`` may be read: a file path, or a URL ``locate`` names
        (a meta-schema's vocabulary, say, only from within the meta-schema)."""
        return ":" not in file.split("/", 1)[0] or self.locate(file, referrer) == file

    def read(self, file: str) -> Any | None:
        """The parsed document ``file`` names, if it may be read (else ``None``: ``refusal`` says why)."""
        if metaschemas.canonical(file, inside=True) == file:
            return metaschemas.read(file)
        self.asked.append(file)
        path = self.path_of(file)
        return None if path is None else read_document(path, file)

    def path_of(self, file: str) -> Path | None:
        """The file a reference names, if it may be read: inside the folder, a schema file, no input."""
        if file in self.inputs or Path(file).suffix not in SUFFIXES or ":" in file.split("/", 1)[0]:
            return None
        path = _resolved(self.root, file)
        if path is None or not path.is_relative_to(self.folder.resolve()) or not _is_file(path):
            return None
        return path

    def refusal(self, file: str, fragment: str = "") -> tuple[str, str]:
        """Why a reference to ``file#fragment`` is not read, or finds nothing (message, hint)."""
        path = _resolved(self.root, file)
        if path is None:
            return f"{file!r} is no file name", "fix the reference"
        if not path.is_relative_to(self.folder.resolve()):
            return f"{file!r} is outside {self.where}: it is not read", f"vendor it into {self.where}"
        if not _is_file(path):
            prefix = next((p for p, folder in self.refs if file.startswith(folder)), None)
            if prefix is not None:
                return f"no file {file!r}", f"{REFS_SETTING} maps {prefix!r} there: vendor the document into it"
            return f"no file {file!r}", "fix the reference"
        if Path(file).suffix not in SUFFIXES:
            return f"{file!r} is not a schema file", "refer to a .json, .yaml or .yml file"
        return f"{file!r} declares nothing at #{fragment}", "refer to one of its definitions"

    def _by_id(self, folder: str) -> dict[str, str]:
        """The files of a mapped folder (and its subfolders) by their root ``$id`` (``id`` before
        draft-06), without fragment; read once per run."""
        if folder not in self._ids:
            found: dict[str, str] = {}
            base = self.root / folder
            for path in schema_files(base, nested=True):
                display = folder + path.relative_to(base).as_posix()
                try:
                    document = read_document(path, display)
                except SchemaError:  # names no URL (read as a reference's target, it is reported)
                    continue
                ident = next((document[k] for k in ("$id", "id") if isinstance(document, dict)
                              and isinstance(document.get(k), str)), None)
                if ident is not None:
                    found.setdefault(urldefrag(ident)[0], display)
            self._ids[folder] = found
        return self._ids[folder]


def _under(url: str, prefix: str) -> bool:
    """``url`` starts with ``prefix`` at a path boundary (``https://a.org/s`` does not cover ``…/schemas``)."""
    return url.startswith(prefix) and (prefix.endswith("/") or url[len(prefix):][:1] in ("", "/"))


def _resolved(root: Path, file: str) -> Path | None:
    """``file`` (relative to ``root``) made absolute, or ``None`` when no file can have that name (a
    NUL in it)."""
    try:
        return (root / file).resolve()
    except (OSError, ValueError):
        return None


def _is_file(path: Path) -> bool:
    """``path`` is a file; a name too long for the system is none."""
    try:
        return path.is_file()
    except OSError:
        return False
