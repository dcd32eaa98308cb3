"""An input's IR remembered across runs, kept by everything lowering it reads: an edit of one input
of a project lowers that input (and those that refer to it) again, not every input.

``project.pipeline.to_ir`` is a pure function of the input's settings, the project root, the bytes
of the input's files and overlays, the files its references read that are no input, the generator
(its source, templates, meta-schemas and the libraries beside it) and the inputs it refers to. The
key is made of the settings, the files, the generator and the files of the folders
``[tool.schemagen.refs]`` maps URLs to (all of them: a URL may name a file by its ``$id``). The files
of the schema folder its references read (``Library.asked``, found or not) are kept in the entry with
their digests, and so are the inputs it referred to, each with its own key (and theirs); an entry
is taken only while each of those still holds (the inputs may be kept, or lowered again, in this
run). What lowering warned of is kept with the
IR; an input with errors is never kept, so its errors are found and reported in every run.

One entry per project and input (``scope``), replaced when the input is lowered again: the cache does
not grow by an IR at every edit.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .. import ir
from ..diagnostics import Diagnostic
from . import pickled
from .store import Cache, digest

NAMESPACE = "lowered"
SCHEME = "3"
"""Bump it when what a kept IR means changes without the generator's source changing."""
ABSENT = "-"


@dataclass(frozen=True, slots=True)
class Kept:
    warnings: tuple[Diagnostic, ...]
    referred: tuple[tuple[str, str], ...]
    """The inputs lowering referred to, by display path, each with its ``whole`` key then."""
    read: tuple[tuple[str, str], ...]
    """The other files it read, each with the digest of its bytes then (``ABSENT``: no such file)."""
    data: bytes = field(repr=False)
    """The IR, pickled apart: read only when asked for (``module``). An input whose modules' texts are
    kept too (``cache.texts``) needs its warnings alone."""

    def module(self) -> ir.Module | None:
        """The IR; ``None`` if it cannot be read (a damaged entry: the input is lowered again)."""
        try:
            module = pickle.loads(self.data)
        except Exception:
            return None
        return module if isinstance(module, ir.Module) else None


class Lowered:
    """The IR of a project's inputs in ``store``; ``salt``: the generator's digest."""

    def __init__(self, store: Cache, salt: str, scope: str) -> None:
        """``scope``: whose entries these are (the project: its folder)."""
        self.store = store
        self.salt = salt
        self.scope = scope
        self._bytes: dict[Path, str] = {}

    def key(self, settings: str, own: Sequence[Path], readable: Iterable[Path]) -> str | None:
        """The key of an input: its ``settings`` (the input, the project root, what its references may
        read), the names and bytes of its ``own`` files (in order: the input's, then its overlays') and
        of the ``readable`` files; ``None`` when one cannot be read (the run reports it)."""
        parts: list[str | bytes] = [SCHEME, self.salt, os.environ.get("PYTHONHASHSEED", ""), settings]
        try:
            for group in (own, sorted(set(readable))):
                parts.append(str(len(group)))
                for path in group:
                    parts += [str(path), self._digest(path)]
        except OSError:
            return None
        return digest(*parts)

    def get(self, source: str, key: str, current: Callable[[str], str | None]) -> Kept | None:
        """The IR kept for input ``source`` (its display path), if it was made under ``key`` and every
        input it referred to has the key it had then (``current``: an input's key in this run)."""
        data = self.store.get(NAMESPACE, self._slot(source))
        if data is None:
            return None
        try:
            made, kept = pickle.loads(data)
        except Exception:  # another version of the classes, a damaged entry: a miss
            return None
        if made != key or not isinstance(kept, Kept):
            return None
        if any(self.digest_of(Path(path)) != was for path, was in kept.read):
            return None
        if any(current(display) != was for display, was in kept.referred):
            return None
        return kept

    @staticmethod
    def whole(key: str, referred: Iterable[tuple[str, str]]) -> str:
        """An input's ``key`` with the ``whole`` keys of the inputs it refers to (by display path): what
        its IR, and so the declarations other inputs find in it, is made from."""
        return digest(key, *(f"{display}={whole}" for display, whole in referred))

    def put(self, source: str, key: str, module: ir.Module, warnings: Iterable[Diagnostic],
            referred: Iterable[tuple[str, str]], read: Iterable[tuple[str, str]]) -> None:
        """Keeps ``module`` as input ``source``'s IR, made under ``key``, with its ``warnings`` and the
        inputs it ``referred`` to and files it ``read`` (in place of what was kept for it)."""
        kept = Kept(tuple(warnings), tuple(referred), tuple(read), pickled.dumps(module))
        data = pickled.dumps((key, kept))
        self.store.put_many(NAMESPACE, {self._slot(source): data})

    def _slot(self, source: str) -> str:
        return digest(NAMESPACE, SCHEME, self.scope, source)

    def digest_of(self, path: Path) -> str:
        """``_digest`` of a file that may not be there (``ABSENT``), or not be a file."""
        try:
            return self._digest(path) if path.is_file() else ABSENT
        except OSError:
            return ABSENT

    def _digest(self, path: Path) -> str:
        """SHA-256 of a file's bytes, once a run."""
        found = self._bytes.get(path)
        if found is None:
            found = self._bytes[path] = hashlib.sha256(path.read_bytes()).hexdigest()
        return found
