"""``[tool.schemagen.refs]``: URL prefixes whose documents are read from folders inside the schema folder.

```toml
[tool.schemagen.refs]
"https://json.schemastore.org/" = "schemas/vendor/schemastore/"
```

A ``$ref`` to ``https://json.schemastore.org/base.json#/definitions/path`` then reads
``schemas/vendor/schemastore/base.json`` (``frontend.library``). A mapped folder holds documents for
references, not inputs: input discovery skips it (``inputs.discover``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ..diagnostics import Diagnostic, Location

EXAMPLE = '"https://json.schemastore.org/" = "schemas/vendor/schemastore/"'


Refs = tuple[tuple[str, Path], ...]
"""(URL prefix, folder) pairs."""


def read(table: Any, root: Path, schemas: Path, where: Location) -> tuple[Refs, list[Diagnostic]]:
    """The (URL prefix, folder) pairs of the ``refs`` table (``where``: the ``[tool.schemagen]``
    table), and the problems of its settings."""
    if table is None:
        return (), []
    if not isinstance(table, dict):
        return (), [Diagnostic(where.child("refs"), f"must be a table of URL prefixes and folders, not {table!r}",
                               f"for example {EXAMPLE}")]
    found: list[tuple[str, Path]] = []
    problems: list[Diagnostic] = []
    inside = schemas.resolve()
    for prefix, folder in table.items():
        here = where.child("refs", prefix)
        if not _is_url(prefix):
            problems.append(Diagnostic(here, f"{prefix!r} is not a URL prefix",
                                       "write it with its scheme: https://…"))
        elif not isinstance(folder, str):
            problems.append(Diagnostic(here, f"must be a folder (a string, relative to the project root), not {folder!r}"))
        elif not (root / folder).resolve().is_relative_to(inside):
            problems.append(Diagnostic(here, f"{folder!r} is outside the schema folder: it is not read",
                                       "vendor the documents into a folder inside the schema folder"))
        elif not (root / folder).is_dir():
            problems.append(Diagnostic(here, f"no folder {folder!r} (relative to the project root)",
                                       "create it and vendor the documents into it"))
        else:
            found.append((prefix, root / folder))
    return tuple(found), problems


def holds_mapped(path: Path, refs: Refs) -> bool:
    """``path`` is a mapped folder, or a folder with one inside it."""
    path = path.resolve()
    return any(path == folder.resolve() or path in folder.resolve().parents for _, folder in refs)


def _is_url(prefix: Any) -> bool:
    return isinstance(prefix, str) and len(urlsplit(prefix).scheme) > 1 and "://" in prefix
