"""Reading input files: JSON or YAML into plain Python values, with located errors."""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from ..diagnostics import Diagnostic, Location, SchemaError

SUFFIXES = (".json", ".yaml", ".yml")


def schema_files(folder: Path, *, nested: bool = False) -> list[Path]:
    """The schema files (``SUFFIXES``) directly in ``folder``, or with ``nested`` in its subfolders
    too, in path order."""
    return sorted(p for p in (folder.rglob("*") if nested else folder.iterdir()) if p.suffix in SUFFIXES and p.is_file())


def read_document(path: Path, display: str) -> Any:
    """Parse one file; a syntax error names the file, line and column."""
    return parse(read_text(path, display), path.suffix, display)


def read_text(path: Path, display: str) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise _fail(Location(display), f"cannot read file: {exc}")


def parse(text: str, suffix: str, display: str, yaml_parse: Callable[[str], Any] | None = None,
          levels: Callable[[], int | None] = lambda: None) -> Any:
    """The value of a file's text; ``yaml_parse``: what parses YAML (default ``load_yaml``), whose
    YAML errors are reported with their line and column. It may nest ``nesting.MAX_NESTING`` deep;
    ``levels``: how deep the value ``yaml_parse`` gave nests, where it knows (else it is measured)."""
    from . import nesting  # (here: a run with nothing to do lists files, and parses none)

    try:
        value = _parse(text, suffix, display, yaml_parse)
    except RecursionError:  # the parser gave up before the limit could be checked
        line, column = nesting.position(text) if suffix == ".json" else (None, None)
        if line is None and suffix == ".json":  # within the limit: this process recurses less deep
            raise _fail(Location(display), f"the document nests deeper than Python's recursion limit "
                                           f"({sys.getrecursionlimit()}) lets it be read here",
                        "run it through the schemagen command, which reads 1000 levels") from None
        raise _fail(Location(display, line=line, column=column), nesting.MESSAGE, nesting.HINT) from None
    known = levels() if suffix != ".json" else None
    if known is None or known > nesting.MAX_NESTING:
        nesting.check(value, text, suffix == ".json", display)
    return value


def _parse(text: str, suffix: str, display: str, yaml_parse: Callable[[str], Any] | None) -> Any:
    import json

    from .duplicates import DuplicateKeys, diagnostics, json_loads

    if suffix == ".json":
        try:
            return json_loads(text)
        except json.JSONDecodeError as exc:
            raise _fail(Location(display, line=exc.lineno, column=exc.colno), f"invalid JSON: {exc.msg}")
        except DuplicateKeys as exc:
            raise SchemaError(diagnostics(exc, display)) from None
    from .aliases import Overgrown

    yaml, _ = _yaml()
    try:
        return (yaml_parse or load_yaml)(text)
    except DuplicateKeys as exc:
        raise SchemaError(diagnostics(exc, display)) from None
    except Overgrown as exc:
        raise SchemaError([exc.diagnostic(display)]) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark else None
        column = mark.column + 1 if mark else None
        problem = getattr(exc, "problem", None) or str(exc)
        raise _fail(Location(display, line=line, column=column), f"invalid YAML: {problem}")


def load_yaml(text: str) -> Any:
    """PyYAML's safe loading, with plain scalars read by the YAML 1.2 core schema (``yaml_core``);
    raises ``DuplicateKeys`` when a mapping writes a key twice, ``aliases.Overgrown`` when aliases make the
    text stand for more values than ``aliases.RATIO`` per character."""
    from . import aliases

    _, loader_class = _yaml()
    loader = loader_class(text)
    try:
        value = loader.get_single_data()
        found = loader.duplicates()
        root = getattr(loader, "root", None) if aliases.anchored(text) else None
    finally:
        loader.dispose()
    if found:
        from .duplicates import DuplicateKeys

        raise DuplicateKeys(found)
    if root is not None:
        aliases.check(root, len(text))
    return value


def yaml_version() -> str:
    """What ``load_yaml`` is: the library's version, the loader it builds on and the schema it reads by."""
    from . import yaml_core

    yaml, loader = _yaml()
    return f"{yaml.__version__} {loader.__mro__[1].__name__} {yaml_core.VERSION}"


@cache
def _yaml() -> tuple[Any, type[Any]]:
    """PyYAML and its loader, imported when a run first reads YAML (a run with nothing to do never does)."""
    import yaml

    from . import yaml_core

    return yaml, yaml_core.loader()


def _fail(location: Location, message: str, hint: str | None = None) -> SchemaError:
    return SchemaError([Diagnostic(location, message, hint)])
