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

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from . import resident
from .errors import Diagnostic, Reporter
from .names import Both, free

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

    def now(self, key: Any) -> Any:
        """What a read of ``key`` finds now (not noted)."""
        return dict.get(self, key, _MISSING)


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


class _Recorder(Reporter):
    """The reporter while a definition is lowered: passes everything on, and notes it."""

    def __init__(self, reporter: Reporter, into: list[Diagnostic]) -> None:
        super().__init__()
        self.reporter = reporter
        self.into = into

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

    def unit(self, key: str, definition: Definition) -> None:
        """Lower the definition ``key``, or replay what that did in the last run when nothing it read
        has changed."""
        record = self.kept.get(id(definition))
        if record is not None and record.definition is definition and self._holds(record.log):
            self._apply(record)
            return
        lowering = self.lowering
        log = Log()
        start = len(lowering.declarations)
        reporter = lowering.reporter
        self._logging(log)
        lowering.reporter = _Recorder(reporter, log.diagnostics)
        try:
            lowering.unit(key)
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
        expanded = self.lowering.expanded
        if not (all(self.definitions.now(k) is v for k, v in log.definitions)
                and all(self.names.now(k) == v for k, v in log.names)
                and all(self.defined.now(k) == v for k, v in log.defined)
                and all(expanded.get(id(entry[0])) is entry for entry in log.hits)
                and not any(id(entry[0]) in expanded for entry in log.created)):
            return False
        mine: set[str] = set()  # each name it took must still be the first free one
        for hint, name in log.taken:
            if free(hint, Both(self.lowering.taken, mine)) != name:
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
