"""Lowering in a resident process: a definition whose lowering read nothing that changed since the
last run gets that run's declarations back, without being lowered again.

Lowering a definition (``lower._Lowering.unit``) depends on the definition and on what it reads of
the lowering's shared state. Each of those reads is recorded while it is lowered:

- the definitions and names it looks up (``definitions``, ``names``), and whether a schema object is
  a definition's (``defined``), noted by ``reads.Reads``: compared by identity (a definition) or value
  (a name, a key);
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
from .reads import Reads

if TYPE_CHECKING:
    from .lower import _Lowering
    from .schema import Definition



@dataclass
class Log:
    """What lowering one definition read and left (see the module's docstring)."""

    definitions: dict[str, Definition | None] = field(default_factory=dict)
    names: dict[str, str | None] = field(default_factory=dict)
    defined: dict[int, str | None] = field(default_factory=dict)
    """Each key read, and what was there (``None``: nothing)."""
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
        self.definitions = lowering.definitions
        self.names = lowering.names
        self.defined = lowering.defined

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
        definitions = Reads(self.definitions, self.definitions.__getitem__)
        names = Reads(self.names, self.names.__getitem__)
        defined = Reads(self.defined, self.defined.__getitem__)
        lowering.definitions, lowering.names, lowering.defined = definitions, names, defined
        lowering.reporter = _Recorder(reporter, log.diagnostics)
        lowering.log = log
        try:
            lowering.unit(key)
        finally:
            lowering.definitions, lowering.names, lowering.defined = self.definitions, self.names, self.defined
            lowering.reporter = reporter
            lowering.log = None
        log.definitions, log.names, log.defined = definitions.read, names.read, defined.read
        own = {id(entry) for entry in log.created}
        log.hits = [entry for entry in log.hits if id(entry) not in own]
        if not log.external:
            self.kept.put(id(definition), Record(definition, log, lowering.declarations[start:]))

    def _holds(self, log: Log) -> bool:
        expanded = self.lowering.expanded
        if not (all(self.definitions.get(k) is v for k, v in log.definitions.items())
                and all(self.names.get(k) == v for k, v in log.names.items())
                and all(self.defined.get(k) == v for k, v in log.defined.items())
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
