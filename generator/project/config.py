"""``[tool.schemagen]`` in ``pyproject.toml``: where the inputs are and what to write."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..diagnostics import Diagnostic, Location, SchemaError
from ..render.options import RenderOptions
from . import refmap

if TYPE_CHECKING:
    from ..frontend.dialects import Dialect
    from ..passes.required_defaults import Setting

DIALECTS = ("auto", "jsonschema", "openapi")
REQUIRED_DEFAULTS = ("required", "optional")
ALL_VARIANTS = ("dataclass", "typeddict", "msgspec")


@dataclass(frozen=True, slots=True)
class InputSpec:
    path: str
    """Relative to the project root: a schema file or a folder of component files."""
    name: str | None = None
    """The output package; by default the file or folder name in snake_case."""
    dialect: Dialect = "auto"
    overlays: tuple[str, ...] = ()
    """Overlay files (relative to the project root) applied to it before those found beside it."""
    required_defaults: Setting | None = None
    """How a property that is required and has a default is read; ``None``: not set here."""


@dataclass(frozen=True, slots=True)
class Config:
    root: Path
    schemas: Path
    output: Path
    templates: Path | None = None
    variants: tuple[str, ...] = ALL_VARIANTS
    inputs: tuple[InputSpec, ...] | None = None
    """``None``: every schema file or folder directly under ``schemas``."""
    options: RenderOptions = RenderOptions()
    required_defaults: Setting | None = None
    """For every input that does not set it; ``None``: not set (read as required, with a warning)."""
    refs: tuple[tuple[str, Path], ...] = ()
    """``[tool.schemagen.refs]``: (URL prefix, folder inside ``schemas`` its documents are read from)."""


def load(root: Path) -> Config:
    """The configuration of the project at ``root`` (defaults when there is no table)."""
    pyproject = root / "pyproject.toml"
    table: dict[str, Any] = {}
    if pyproject.is_file():
        try:
            table = tomllib.loads(pyproject.read_text(encoding="utf-8")).get("tool", {}).get("schemagen", {})
        except tomllib.TOMLDecodeError as exc:
            raise SchemaError([Diagnostic(Location("pyproject.toml"), f"invalid TOML: {exc}")])
    try:
        return from_table(root, table, "pyproject.toml")
    except SchemaError as exc:  # a setting's line, for the messages
        text = pyproject.read_text(encoding="utf-8")
        raise SchemaError([_with_line(d, text) for d in exc.diagnostics]) from None


def schema_folder(root: Path) -> Path:
    """The schema folder the ``pyproject.toml`` at ``root`` names, read before anything is checked
    (``load`` reports what is wrong with the file)."""
    try:
        table = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        table = {}
    return _schemas(root, table.get("tool", {}).get("schemagen", {}))


def _schemas(root: Path, table: dict[str, Any]) -> Path:
    """The schema folder ``[tool.schemagen]`` names (``from_table`` reports a value that is no string)."""
    folder = table.get("schemas", "schemas")
    return root / (folder if isinstance(folder, str) else "schemas")


def find_root(path: Path) -> Path:
    """The project an input belongs to: the nearest folder above ``path`` whose ``pyproject.toml``
    holds ``[tool.schemagen]`` (or does not parse, so that ``load`` reports it); with none, the
    folder that holds the input. Paths in the IR and in messages are relative to it, so they do not
    depend on the working directory."""
    path = path.resolve()
    for folder in path.parents:
        pyproject = folder / "pyproject.toml"
        if pyproject.is_file():
            try:
                if "schemagen" in tomllib.loads(pyproject.read_text(encoding="utf-8")).get("tool", {}):
                    return folder
            except (tomllib.TOMLDecodeError, OSError, UnicodeDecodeError):
                return folder
    return path.parent


def from_table(root: Path, table: dict[str, Any], display: str) -> Config:
    where = Location(display, "/tool/schemagen")
    problems: list[Diagnostic] = []

    def fail(key: str, message: str, hint: str | None = None) -> None:
        problems.append(Diagnostic(where.child(*key.split("/")), message, hint))

    known = {"schemas", "output", "templates", "variants", "inputs", "enums", "required_defaults", "refs"}
    for key in sorted(set(table) - known):
        fail(key, f"unknown setting {key!r}; expected one of: {', '.join(sorted(known))}")
    for key in ("schemas", "output", "templates"):
        if key in table and not isinstance(table[key], str):
            fail(key, "must be a path (a string)")
    variants = table.get("variants", list(ALL_VARIANTS))
    if not isinstance(variants, list) or not variants or any(v not in ALL_VARIANTS for v in variants):
        fail("variants", f"must be a non-empty list of: {', '.join(ALL_VARIANTS)}")
        variants = list(ALL_VARIANTS)
    enums = table.get("enums", "literal")
    if enums not in ("literal", "class"):
        fail("enums", 'must be "literal" (Literal aliases) or "class" (StrEnum/IntEnum classes)')
    required_defaults = _required_defaults(table, "required_defaults", fail)
    inputs = None
    if "inputs" in table:
        inputs = tuple(_input(entry, i, fail) for i, entry in enumerate(table["inputs"] or []))
    templates = table.get("templates")
    if isinstance(templates, str) and not (root / templates).is_dir():
        fail("templates", f"no folder {templates!r} of templates (relative to the project root)",
             "create it, or remove the setting to use the built-in templates")
    schemas = _schemas(root, table)
    refs, found = refmap.read(table.get("refs"), root, schemas, where)
    problems += found
    if problems:
        raise SchemaError(problems)
    return Config(
        root=root,
        schemas=schemas,
        output=root / table.get("output", "generated"),
        templates=root / templates if isinstance(templates, str) else None,
        variants=tuple(v for v in ALL_VARIANTS if v in variants),
        inputs=inputs,
        options=RenderOptions(enums=enums if enums == "class" else "literal"),
        required_defaults=required_defaults,
        refs=refs,
    )


def _input(entry: Any, index: int, fail: Any) -> InputSpec:
    key = f"inputs/{index}"
    if not isinstance(entry, dict) or not isinstance(entry.get("path"), str):
        fail(key, "each input needs a `path`")
        return InputSpec("")
    dialect = entry.get("dialect", "auto")
    if dialect not in DIALECTS:
        fail(key + "/dialect", f"dialect must be one of: {', '.join(DIALECTS)}")
        dialect = "auto"
    overlays = entry.get("overlays", [])
    if not isinstance(overlays, list) or not all(isinstance(o, str) for o in overlays):
        fail(key + "/overlays", "overlays must be a list of paths to overlay files (relative to the project root)")
        overlays = []
    unknown = set(entry) - {"path", "name", "dialect", "overlays", "required_defaults"}
    if unknown:
        fail(key, f"unknown input setting(s): {', '.join(sorted(unknown))}")
    name = entry.get("name")
    return InputSpec(entry["path"], name if isinstance(name, str) else None, dialect, tuple(overlays),
                     _required_defaults(entry, key + "/required_defaults", fail))


def _required_defaults(table: dict[str, Any], key: str, fail: Any) -> Setting | None:
    value = table.get("required_defaults")
    if value is None or value in REQUIRED_DEFAULTS:
        return value  # type: ignore[no-any-return]
    fail(key, 'must be "required" (a required property with a default is required) or "optional" (it is not '
              f"required, and takes its default when absent), not {value!r}")
    return None


def display_path(path: Path, root: Path) -> str:
    """How messages name ``path``: relative to the project root when it is inside, ``/`` after a folder."""
    try:
        text = path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        text = path.as_posix()
    return text + "/" if path.is_dir() else text


def _with_line(problem: Diagnostic, text: str) -> Diagnostic:
    """``problem`` at the line and column of the setting its pointer names, when that setting is
    written as ``key = …`` in its own section: ``[tool.schemagen]``; for ``inputs/<n>/key``, the n-th
    ``[[tool.schemagen.inputs]]``; for a key of one of its tables (``refs/<key>``),
    ``[tool.schemagen.refs]`` (else the table's own line)."""
    parts = problem.location.pointer.split("/")
    tokens = [t.replace("~1", "/").replace("~0", "~") for t in parts[3:]]
    if parts[:3] != ["", "tool", "schemagen"]:
        return problem
    if len(tokens) == 3 and tokens[0] == "inputs" and tokens[1].isdigit():
        found = _line(text, "[[tool.schemagen.inputs]]", tokens[2], int(tokens[1]))
    elif len(tokens) == 2:
        found = _line(text, f"[tool.schemagen.{tokens[0]}]", tokens[1]) or _line(text, "[tool.schemagen]", tokens[0])
    elif len(tokens) == 1:
        found = _line(text, "[tool.schemagen]", tokens[0])
    else:
        return problem
    if found is None:
        return problem
    return replace(problem, location=replace(problem.location, line=found[0], column=found[1]))


def _line(text: str, section: str, key: str, index: int | None = None) -> tuple[int, int] | None:
    """(line, column) of ``key = …`` (bare or quoted) in the section headed ``section`` (its
    ``index``-th occurrence, for an array of tables)."""
    inside, met = False, -1
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith("["):
            inside = stripped.replace(" ", "") == section
            if inside and index is not None:
                met += 1
                inside = met == index
        elif inside:
            if re.match(rf"""\s*(?:{re.escape(key)}|"{re.escape(key)}"|'{re.escape(key)}')\s*=""", line):
                return number, len(line) - len(line.lstrip()) + 1
    return None
