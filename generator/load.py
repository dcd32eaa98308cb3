"""Reading input files: JSON or YAML into plain Python values, with located errors."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import yaml_pieces
from .errors import Diagnostic, Location, SchemaError

if TYPE_CHECKING:
    from .cache import Cache

SUFFIXES = (".json", ".yaml", ".yml")
PIECES_FROM = 64 * 1024
"""A YAML text at least this long is read piece by piece when there is a cache (``yaml_pieces``)."""


@cache
def _yaml() -> tuple[Any, type[Any]]:
    """PyYAML and its safe loader without timestamps (a date in a schema stays the string it was
    written as); imported when a run first reads YAML, so a run with nothing to do never does."""
    import yaml

    class Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
        pass

    Loader.yaml_implicit_resolvers = {
        first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }
    return yaml, Loader


def read_document(path: Path, display: str, cache: Cache | None = None) -> Any:
    """Parse one file; a syntax error names the file, line and column. With a ``cache``, a long YAML
    text is read piece by piece, each piece parsed once (``yaml_pieces``)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise _fail(Location(display), f"cannot read file: {exc}")
    if path.suffix == ".json":
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise _fail(Location(display, line=exc.lineno, column=exc.colno), f"invalid JSON: {exc.msg}")
    yaml, loader = _yaml()
    try:
        if cache is None or len(text) < PIECES_FROM:
            return yaml.load(text, Loader=loader)
        version = f"{yaml.__version__} {loader.__mro__[1].__name__} no-timestamps"
        return yaml_pieces.load(text, lambda piece: yaml.load(piece, Loader=loader), cache, version)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark else None
        column = mark.column + 1 if mark else None
        problem = getattr(exc, "problem", None) or str(exc)
        raise _fail(Location(display, line=line, column=column), f"invalid YAML: {problem}")


def _fail(location: Location, message: str) -> SchemaError:
    return SchemaError([Diagnostic(location, message)])
