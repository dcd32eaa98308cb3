"""Lowering in a resident process: a definition whose lowering read nothing that changed since the
last run gets that run's declarations back, without being lowered again.

Lowering a definition (``lower._Lowering.unit``) depends on the definition and on what it reads of
the lowering's shared state. Each of those reads is recorded while it is lowered:

- the definitions and names it looks up (``definitions``, ``names``), and whether a schema object is
  a definition's (``defined``): compared by identity (a definition) or value (a name, a key);
- the folded schemas it takes from ``expanded``, where another definition left them: by identity;
- the class names it takes (``take``): each must still be the first free one.

What it leaves behind is recorded too: the declarations, the folded schemas it added to
``expanded``, the names it took, every diagnostic it reported (in order: the reporter drops
repeats). A later run in the same process replays all of that, in the definitions' order, when the
definition is the same object (``resident``: an unchanged YAML piece gives the same objects) and every
read gives what it gave; otherwise the definition is lowered and recorded afresh. So the module is
exactly what lowering everything would make (``tests/test_resident.py`` checks it against fresh runs).
A definition that referred to another input is always lowered again (that input may have changed).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from . import resident
from .errors import Diagnostic, Location
from .names import free

if TYPE_CHECKING:
    from .lower import _Lowering
    from .schema import Definition

_MISSING = object()


class Reads(dict[Any, Any]):
    """A dict that notes every key looked up, and what was found, while ``log`` is set."""

    def __init__(self, data: dict[Any, Any]) -> None:
        super().__init__(data)
        self.log: list[tuple[Any, Any]] | None = None

    def __getitem__(self, key: Any) -> Any:
        value = dict.__getitem__(self, key)
        if self.log is not None:
            self.log.append((key, value))
        return value

    def __contains__(self, key: object) -> bool:
        found = dict.get(self, key, _MISSING)
        if self.log is not None:
            self.log.append((key, found))
        return found is not _MISSING

    def get(self, key: Any, default: Any = None) -> Any:
        found = dict.get(self, key, _MISSING)
        if self.log is not None:
            self.log.append((key, found))
        return default if found is _MISSING else found


@dataclass
class Log:
    """What lowering one definition read and left (see the module's docstring)."""

    definitions: list[tuple[Any, Any]] = field(default_factory=list)
    names: list[tuple[Any, Any]] = field(default_factory=list)
    defined: list[tuple[Any, Any]] = field(default_factory=list)
    hits: list[tuple[Any, Any]] = field(default_factory=list)
    created: list[tuple[Any, Any]] = field(default_factory=list)
    taken: list[tuple[str, str]] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    external: bool = False


@dataclass(frozen=True, slots=True)
class Record:
    definition: Definition
    log: Log
    declarations: list[Any]


class _Recorder:
    """The reporter while a definition is lowered: passes everything on, and notes it."""

    def __init__(self, reporter: Any, into: list[Diagnostic]) -> None:
        self.reporter = reporter
        self.into = into

    def error(self, location: Location, message: str, hint: str | None = None) -> None:
        self.add(Diagnostic(location, message, hint))

    def warn(self, location: Location, message: str, hint: str | None = None) -> None:
        self.add(Diagnostic(location, message, hint, "warning"))

    def add(self, diagnostic: Diagnostic) -> None:
        self.into.append(diagnostic)
        self.reporter.add(diagnostic)


class Replay:
    def __init__(self, lowering: _Lowering, kept: resident.Table) -> None:
        self.lowering = lowering
        self.kept = kept
        self.definitions = lowering.definitions = Reads(lowering.definitions)
        self.names = lowering.names = Reads(lowering.names)
        self.defined = lowering.defined = Reads(lowering.defined)

    @classmethod
    def start(cls, lowering: _Lowering) -> Replay | None:
        """``None`` in a one-off run (nothing is kept for a next one)."""
        kept = resident.table("lower")
        return None if kept is None else cls(lowering, kept)

    def unit(self, key: str, definition: Definition, lower: Callable[[str], None]) -> None:
        """``lower(key)``, or what it did in the last run when nothing it read has changed."""
        record = self.kept.get(id(definition))
        if record is not None and record.definition is definition and self._holds(record.log):
            self._apply(record)
            return
        lowering = self.lowering
        log = Log()
        start = len(lowering.declarations)
        reporter = lowering.reporter
        self._logging(log)
        lowering.reporter = _Recorder(reporter, log.diagnostics)  # type: ignore[assignment]
        try:
            lower(key)
        finally:
            lowering.reporter = reporter
            self._logging(None)
        own = {id(entry) for entry in log.created}
        log.hits = [entry for entry in log.hits if id(entry) not in own]
        if not log.external:
            self.kept.put(id(definition), Record(definition, log, lowering.declarations[start:]))

    def _logging(self, log: Log | None) -> None:
        self.lowering.log = log
        self.definitions.log = log.definitions if log else None
        self.names.log = log.names if log else None
        self.defined.log = log.defined if log else None

    def _holds(self, log: Log) -> bool:
        definitions, names, defined = (dict.get, self.definitions), (dict.get, self.names), (dict.get, self.defined)
        expanded = self.lowering.expanded
        taken = self.lowering.taken
        if not all(definitions[0](definitions[1], k, _MISSING) is v for k, v in log.definitions):
            return False
        if not all(names[0](names[1], k, _MISSING) == v for k, v in log.names):
            return False
        if not all(defined[0](defined[1], k, _MISSING) == v for k, v in log.defined):
            return False
        if not all(expanded.get(id(entry[0])) is entry for entry in log.hits):
            return False
        if any(id(entry[0]) in expanded for entry in log.created):
            return False
        mine: set[str] = set()
        either = _Either(taken, mine)
        for hint, name in log.taken:
            if free(hint, either) != name:
                return False
            mine.add(name)
        return True

    def _apply(self, record: Record) -> None:
        lowering, log = self.lowering, record.log
        for entry in log.created:
            lowering.expanded[id(entry[0])] = entry
        lowering.taken.update(name for _, name in log.taken)
        for diagnostic in log.diagnostics:
            lowering.reporter.add(diagnostic)
        lowering.declarations.extend(record.declarations)


class _Either:
    def __init__(self, first: set[str], second: set[str]) -> None:
        self.first = first
        self.second = second

    def __contains__(self, name: object) -> bool:
        return name in self.first or name in self.second
