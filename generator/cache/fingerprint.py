"""The no-op run: a project's last result, kept beside a fingerprint of everything it was made from.

When the generator, the configuration (templates and options included) and every input's bytes are
exactly those of the last run, that run's result is the answer: nothing is read, lowered, rendered
or formatted (a run with nothing to do imports neither black, nor Jinja, nor jsonschema).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import pickle
import sys
from collections.abc import Iterable, Sequence
from functools import cache
from pathlib import Path

from ..render.templates import BUILTIN_TEMPLATES
from .store import Cache, digest

NAMESPACE = "plan"
TEXTS = "texts"
SCHEME = "1"
"""Bump it when what a kept result means changes without the generator's source changing."""


def fingerprint(settings: str, templates: Path | None, inputs: Iterable[tuple[str, Sequence[Path]]]) -> str | None:
    """A digest of the generator (``generator_digest``), the ``settings`` (a configuration's ``repr``),
    the files of the ``templates`` folder, and each input's settings and the names and bytes of its
    files (its overlays among them; all inputs: they may refer to each other). ``None`` when a file cannot be read (the run reports it)."""
    # The hash seed too: the output must not depend on it, and a run under another seed (as the
    # determinism tests do) then really runs instead of repeating an earlier run's result.
    parts: list[str | bytes] = [SCHEME, generator_digest(), settings, os.environ.get("PYTHONHASHSEED", "")]
    read: dict[Path, bytes] = {}  # a file listed twice (an input, and a file of the schema folder) is hashed once
    try:
        if templates is not None:
            parts += _folder(templates)
        for described, files in inputs:
            parts.append(described)
            for path in files:
                if path not in read:
                    read[path] = hashlib.sha256(path.read_bytes()).digest()
                parts += [path.name, read[path]]
    except OSError:
        return None
    return digest(*parts)


@cache
def generator_digest() -> str:
    """This generator: its source, its built-in templates and meta-schemas, and the libraries that shape
    its output (the name and version of every package installed beside Jinja, black, PyYAML and
    jsonschema, read off the ``*.dist-info`` folder names, so that a run with nothing to do imports
    none of them).

    The bytes of every file, not their times or sizes: a checkout, a copy or an edit that keeps the
    time (``touch -r``, an archive unpacked) must not give a stale result. Read with ``os.scandir`` and
    ``open`` (``pathlib``'s ``rglob`` and ``read_bytes`` took 15 ms for these 160 files; this, 3 ms)."""
    versions = [sys.version]
    spec = importlib.util.find_spec("jinja2")
    if spec is not None and spec.origin:
        site = os.path.dirname(os.path.dirname(spec.origin))
        versions += sorted(name for name in os.listdir(site) if name.endswith(".dist-info"))
    package = Path(__file__).resolve().parent.parent
    shipped = _tree(package / "frontend" / "metaschemas", ".json")[1::2]  # what a `$ref` to a meta-schema reads
    return digest(*versions, *_tree(package, ".py", skip="__pycache__"), *_folder(BUILTIN_TEMPLATES), *shipped)


class Results:
    """The result kept for ``scope`` (a project and configuration), good for a run whose fingerprint is
    ``key``: one entry with what a run with nothing to do needs (``summary``: the warnings, a digest of
    each file) and one with the files' text (``texts``: megabytes), read only when something is to be
    written. One of each per scope, both replaced by each run in one transaction: a cache does not grow
    by a whole result at every edit."""

    def __init__(self, store: Cache, scope: str, key: str) -> None:
        self.store = store
        self.slot = digest(NAMESPACE, scope)
        self.key = key.encode()

    def summary(self) -> object | None:
        """The summary kept, if the run that wrote it had this fingerprint."""
        return self._get(NAMESPACE)

    def texts(self) -> object | None:
        """The texts kept, if the run that wrote them had this fingerprint."""
        return self._get(TEXTS)

    def put(self, summary: object, texts: object) -> None:
        self.store.put_all((namespace, self.slot, self.key + pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
                           for namespace, value in ((NAMESPACE, summary), (TEXTS, texts)))

    def _get(self, namespace: str) -> object | None:
        data = self.store.get(namespace, self.slot)
        if data is None or not data.startswith(self.key):
            return None
        try:
            result: object = pickle.loads(data[len(self.key):])
        except Exception:  # written by another version of the classes: a miss
            return None
        return result


def _folder(folder: Path) -> list[str | bytes]:
    """The names and bytes of the files in ``folder`` (none if it is not there)."""
    if not folder.is_dir():
        return [str(folder)]
    return _tree(folder)


def _tree(folder: Path, suffix: str = "", skip: str | None = None) -> list[str | bytes]:
    """The relative names and bytes of the files under ``folder`` whose names end with ``suffix``, in path
    order (as ``sorted(folder.rglob(...))``: a folder's files before the next name), in no folder named
    ``skip``, and in no folder a symbolic link leads to (as ``rglob``)."""
    parts: list[str | bytes] = []

    def walk(at: str, prefix: str) -> None:
        with os.scandir(at) as listing:
            entries = sorted(listing, key=lambda e: e.name)
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                if entry.name != skip:
                    walk(entry.path, f"{prefix}{entry.name}/")
            elif entry.name.endswith(suffix) and entry.is_file():
                with open(entry.path, "rb") as handle:
                    parts.extend((prefix + entry.name, handle.read()))

    walk(str(folder), "")
    return parts
