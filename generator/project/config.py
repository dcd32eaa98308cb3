"""``[tool.schemagen]`` in ``pyproject.toml``: where the inputs are and what to write."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from ..diagnostics import Diagnostic, Location, SchemaError, pointer
from ..names import NAMINGS, Naming
from ..render.options import RenderOptions
from . import command, ignores, refmap

if TYPE_CHECKING:
    from ..frontend.dialects import Dialect
    from ..frontend.dialects.openapi import Part
    from ..passes.required_defaults import Setting

DIALECTS = ("auto", "jsonschema", "openapi")
REQUIRED_DEFAULTS: tuple[Setting, ...] = ("required", "optional")
T = TypeVar("T", bound=str)
ALL_VARIANTS = ("dataclass", "typeddict", "msgspec", "pydantic")
#: What ``variants`` is when unset: pydantic is opt-in (its models need ``pydantic>=2.11`` installed).
DEFAULT_VARIANTS = ("dataclass", "typeddict", "msgspec")
OPENAPI_PARTS: tuple[Part, ...] = ("schemas", "operations")
"""``frontend.dialects.openapi.PARTS`` (not imported: reading the configuration reads no dialect)."""


@dataclass(frozen=True, slots=True)
class InputSpec:
    path: str
    """Relative to the project root: a schema file, a folder of component files, or a split OpenAPI
    project's folder (its root ``openapi.yaml`` is the input: ``inputs.ROOT_DOCUMENTS``)."""
    name: str | None = None
    """The output package; by default the file or folder name in snake_case."""
    dialect: Dialect = "auto"
    overlays: tuple[str, ...] = ()
    """Overlay files (relative to the project root) applied to it before those found beside it."""
    required_defaults: Setting | None = None
    """How a property that is required and has a default is read; ``None``: not set here."""
    ignore: tuple[ignores.Ignore, ...] = ()
    """The warnings of this input it acknowledges (besides the table's)."""
    openapi_scope: tuple[Part, ...] | None = None
    """What of a whole OpenAPI 3 document is generated; ``None``: not set here."""
    names: Naming | None = None
    """How its classes are named (``"schema"``, ``"sdk"``); ``None``: not set here."""


@dataclass(frozen=True, slots=True)
class Config:
    root: Path
    schemas: Path
    output: Path
    templates: Path | None = None
    variants: tuple[str, ...] = DEFAULT_VARIANTS
    inputs: tuple[InputSpec, ...] | None = None
    """``None``: every schema file or folder directly under ``schemas``."""
    options: RenderOptions = RenderOptions()
    required_defaults: Setting | None = None
    """For every input that does not set it; ``None``: not set (read as required, with a warning)."""
    refs: tuple[tuple[str, Path], ...] = ()
    """``[tool.schemagen.refs]``: (URL prefix, folder inside ``schemas`` its documents are read from)."""
    ignore: tuple[ignores.Ignore, ...] = ()
    """The warnings every input acknowledges: not printed, not errors with ``--strict``."""
    openapi_scope: tuple[Part, ...] | None = None
    """For every input that does not set it; ``None``: not set (both parts)."""
    names: Naming | None = None
    """For every input that does not set it; ``None``: not set (the schema's names)."""
    jobs: int | None = field(default=None, repr=False, compare=False)
    """At most this many processes render at once; ``None``: one per core. (Left out of ``repr``, and so
    of the no-op run's fingerprint: it changes how fast, never what is written.)"""


def load(root: Path) -> Config:
    """The configuration of the project at ``root`` (defaults when there is no table)."""
    pyproject = root / "pyproject.toml"
    table: dict[str, Any] = {}
    text = ""
    problems: list[Diagnostic] = []
    if pyproject.is_file():
        text = pyproject.read_text(encoding="utf-8")
        try:
            tools = tomllib.loads(text).get("tool", {})
        except tomllib.TOMLDecodeError as exc:
            raise SchemaError([_syntax_error(exc, text)]) from None
        table = tools.get("schemagen", {}) if isinstance(tools, dict) else {}
        if not isinstance(table, dict):
            problems.append(Diagnostic(Location("pyproject.toml", "/tool/schemagen"),
                                       f"must be a table of settings, not {table!r}"))
            table = {}
        problems += [_misspelt(name) for name in (tools if isinstance(tools, dict) else ()) if _near(name)]
    try:
        config = from_table(root, table, "pyproject.toml")
    except SchemaError as exc:
        problems += exc.diagnostics
    if problems:  # each at the line and column of its setting
        raise SchemaError([_located(d, text) for d in problems]) from None
    return config


def _near(name: str) -> bool:
    """``[tool.<name>]`` is a misspelt ``[tool.schemagen]`` (at most two edits away), not another tool's table."""
    return name != "schemagen" and _distance(name.lower(), "schemagen") <= 2


def _distance(a: str, b: str) -> int:
    """The edit distance (Levenshtein) of ``a`` and ``b``."""
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        previous, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (x != y))
    return row[-1]


def _misspelt(name: str) -> Diagnostic:
    return Diagnostic(Location("pyproject.toml", pointer("tool", name)),
                      f"schemagen reads no table `[tool.{name}]`: its settings are not used",
                      "did you mean `[tool.schemagen]`?")


def _syntax_error(exc: tomllib.TOMLDecodeError, text: str) -> Diagnostic:
    """``pyproject.toml:5:16: #: invalid TOML: …``, the position taken out of tomllib's message."""
    message = str(exc)
    found = re.search(r" \(at line (\d+), column (\d+)\)$", message)
    if found:
        return Diagnostic(Location("pyproject.toml", line=int(found[1]), column=int(found[2])),
                          f"invalid TOML: {message[:found.start()]}")
    if message.endswith(" (at end of document)"):
        lines = text.splitlines() or [""]
        return Diagnostic(Location("pyproject.toml", line=len(lines), column=len(lines[-1]) + 1),
                          f"invalid TOML: {message.removesuffix(' (at end of document)')}")
    return Diagnostic(Location("pyproject.toml", line=1, column=1), f"invalid TOML: {message}")


def _located(problem: Diagnostic, text: str) -> Diagnostic:
    """``problem`` at the line and column of the setting its pointer names (``toml_positions``),
    else of the nearest table written; the first line when there is none."""
    if problem.location.path != "pyproject.toml" or problem.location.line is not None:
        return problem
    from ..diagnostics.toml_positions import locate_toml  # (only where there is a problem)

    line, column = locate_toml(text, problem.location.pointer) or (1, 1)
    return replace(problem, location=replace(problem.location, line=line, column=column))


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
    holds ``[tool.schemagen]`` (or a misspelt one, or does not parse, so that ``load`` reports it); with none, the
    folder that holds the input. Paths in the IR and in messages are relative to it, so they do not
    depend on the working directory."""
    path = path.resolve()
    for folder in path.parents:
        pyproject = folder / "pyproject.toml"
        if pyproject.is_file():
            try:
                tools = tomllib.loads(pyproject.read_text(encoding="utf-8")).get("tool", {})
                if isinstance(tools, dict) and ("schemagen" in tools or any(_near(name) for name in tools)):
                    return folder  # (a misspelt one is reported)
            except (tomllib.TOMLDecodeError, OSError, UnicodeDecodeError):
                return folder
    return path.parent


def from_table(root: Path, table: dict[str, Any], display: str) -> Config:
    where = Location(display, "/tool/schemagen")
    problems: list[Diagnostic] = []

    def fail(key: str, message: str, hint: str | None = None) -> None:
        problems.append(Diagnostic(where.child(*key.split("/")), message, hint))

    known = {"schemas", "output", "templates", "variants", "inputs", "enums", "required_defaults", "refs", "ignore",
             "openapi_scope", "names", "jobs"}
    for key in sorted(set(table) - known):
        fail(key, f"unknown setting {key!r}; expected one of: {', '.join(sorted(known))}", _closest(key, known))
    for key in ("schemas", "output", "templates"):
        if key in table and not isinstance(table[key], str):
            fail(key, f"must be a path (a string), not {table[key]!r}")
    variants = table.get("variants", list(DEFAULT_VARIANTS))
    if not isinstance(variants, list) or not variants:
        fail("variants", f"must be a non-empty list of: {', '.join(ALL_VARIANTS)}, not {variants!r}")
        variants = list(DEFAULT_VARIANTS)
    for i, variant in enumerate(variants):
        if variant not in ALL_VARIANTS:
            fail(f"variants/{i}", f"{variant!r} is not a variant; expected one of: {', '.join(ALL_VARIANTS)}",
                 _closest(variant, ALL_VARIANTS))
    enums = table.get("enums", "literal")
    if enums not in ("literal", "class"):
        fail("enums", f'must be "literal" (Literal aliases) or "class" (StrEnum/IntEnum classes), not {enums!r}',
             _closest(enums, ("literal", "class")))
    required_defaults = _required_defaults(table, "required_defaults", fail)
    names = _names(table, "names", fail)
    ignore = ignores.read(table.get("ignore"), "ignore", fail)
    openapi_scope = _openapi_scope(table, "openapi_scope", fail)
    jobs = table.get("jobs")
    if jobs is not None and (type(jobs) is not int or jobs < 1):
        fail("jobs", f"must be a whole number of processes, 1 or more, not {jobs!r}", "1 renders in this process alone")
        jobs = None
    inputs = None
    if "inputs" in table and not isinstance(table["inputs"], list):
        fail("inputs", f"must be an array of tables ([[tool.schemagen.inputs]]), not {table['inputs']!r}")
    elif "inputs" in table:
        inputs = tuple(_input(entry, i, fail) for i, entry in enumerate(table["inputs"]))
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
        options=RenderOptions(enums=enums if enums == "class" else "literal", command=command.regenerate(root)),
        required_defaults=required_defaults,
        refs=refs,
        ignore=ignore,
        openapi_scope=openapi_scope,
        names=names,
        jobs=jobs,
    )


def _input(entry: Any, index: int, fail: Any) -> InputSpec:
    key = f"inputs/{index}"
    if not isinstance(entry, dict):
        fail(key, f"each input must be a table with a `path`, not {entry!r}")
        return InputSpec("")
    known = ("dialect", "ignore", "name", "names", "openapi_scope", "overlays", "path", "required_defaults")
    for unknown in sorted(set(entry) - set(known)):
        fail(f"{key}/{unknown}", f"unknown input setting {unknown!r}; expected one of: {', '.join(known)}",
             _closest(unknown, known))
    if not isinstance(entry.get("path"), str):
        fail(key + "/path" if "path" in entry else key, "each input needs a `path` (a string)"
             + (f", not {entry['path']!r}" if "path" in entry else ""))
        return InputSpec("")
    dialect = entry.get("dialect", "auto")
    if dialect not in DIALECTS:
        fail(key + "/dialect", f"dialect must be one of: {', '.join(DIALECTS)}, not {dialect!r}",
             _closest(dialect, DIALECTS))
        dialect = "auto"
    overlays = entry.get("overlays", [])
    if not isinstance(overlays, list) or not all(isinstance(o, str) for o in overlays):
        fail(key + "/overlays", "overlays must be a list of paths to overlay files (relative to the project root), "
                                f"not {overlays!r}")
        overlays = []
    name = entry.get("name")
    if name is not None and not isinstance(name, str):
        fail(key + "/name", f"`name` must be a string (the output package), not {name!r}")
    return InputSpec(entry["path"], name if isinstance(name, str) else None, dialect, tuple(overlays),
                     _required_defaults(entry, key + "/required_defaults", fail),
                     ignores.read(entry.get("ignore"), key + "/ignore", fail),
                     _openapi_scope(entry, key + "/openapi_scope", fail), _names(entry, key + "/names", fail))


def _required_defaults(table: dict[str, Any], key: str, fail: Any) -> Setting | None:
    return _choice(table, key, REQUIRED_DEFAULTS, fail, 'must be "required" (a required property with a default '
                   'is required) or "optional" (it is not required, and takes its default when absent)')


def _names(table: dict[str, Any], key: str, fail: Any) -> Naming | None:
    return _choice(table, key, NAMINGS, fail, 'must be "schema" (classes named as the schema names them) or "sdk" '
                   "(as the official SDKs name them)")


def _choice(table: dict[str, Any], key: str, choices: tuple[T, ...], fail: Any, must: str) -> T | None:
    """The setting ``key`` (a path: its last part is the key in ``table``): one of ``choices``, or ``None``."""
    value = table.get(key.rsplit("/", 1)[-1])
    if value is None:
        return None
    for choice in choices:
        if value == choice:
            return choice
    fail(key, f"{must}, not {value!r}", _closest(value, choices))
    return None


def _openapi_scope(table: dict[str, Any], key: str, fail: Any) -> tuple[Part, ...] | None:
    value = table.get("openapi_scope")
    if value is None:
        return None
    if not isinstance(value, list) or not value:
        fail(key, f"must be a non-empty list of: {', '.join(OPENAPI_PARTS)}, not {value!r}",
             _closest(value, OPENAPI_PARTS))
        return None
    for i, part in enumerate(value):
        if part not in OPENAPI_PARTS:
            fail(f"{key}/{i}", f"{part!r} is not a part of an OpenAPI document; expected one of: "
                 f"{', '.join(OPENAPI_PARTS)}", _closest(part, OPENAPI_PARTS))
    return tuple(p for p in OPENAPI_PARTS if p in value)


def _closest(value: Any, choices: Iterable[str]) -> str | None:
    """``did you mean 'msgspec'?`` for a string close to one of ``choices``."""
    import difflib  # (here: only a mistake needs it)

    found = difflib.get_close_matches(value, list(choices), n=1, cutoff=0.6) if isinstance(value, str) else []
    return f"did you mean {found[0]!r}?" if found else None


def display_path(path: Path, root: Path) -> str:
    """How messages name ``path``: relative to the project root when it is inside, ``/`` after a folder."""
    try:
        text = path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        text = path.as_posix()
    return text + "/" if path.is_dir() else text
