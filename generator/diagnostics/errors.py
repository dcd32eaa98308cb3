"""Diagnostics: errors and warnings as values with a location, reported together."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal


def pointer(*tokens: str | int) -> str:
    """An RFC 6901 JSON pointer for ``tokens``."""
    if len(tokens) == 1:  # (most often: one step down, for every subschema read)
        return "/" + str(tokens[0]).replace("~", "~0").replace("/", "~1")
    return "".join(["/" + str(t).replace("~", "~0").replace("/", "~1") for t in tokens])


def tokens(json_pointer: str) -> list[str]:
    """The tokens of an RFC 6901 JSON pointer, unescaped (``pointer``'s inverse)."""
    return [t.replace("~1", "/").replace("~0", "~") for t in json_pointer.split("/")[1:]] if json_pointer else []


@dataclass(frozen=True, slots=True)
class Location:
    path: str
    """The file, relative to the project root."""
    pointer: str = ""
    line: int | None = None
    column: int | None = None
    in_document: bool = True
    """False for a file that is no JSON or YAML document (a template): it has lines, no pointers."""

    def child(self, *tokens: str | int) -> Location:
        return Location(self.path, self.pointer + pointer(*tokens))

    def __str__(self) -> str:
        where = self.path
        if not self.in_document:
            return where + "".join(f":{n}" for n in (self.line, self.column) if n is not None)
        if self.line is not None:
            where += f":{self.line}:{self.column or 1}"
        return f"{where}: #{_printable(self.pointer)}"


@dataclass(frozen=True, slots=True)
class Diagnostic:
    location: Location
    message: str
    hint: str | None = None
    severity: Literal["error", "warning"] = "error"
    kind: str = ""
    """What sort of warning it is, in a few words (``untagged union``): the summary counts them by it."""

    def __str__(self) -> str:
        text = f"{self.location}: {self.message}"
        if self.hint:
            text += f" - {self.hint}"
        return text if self.severity == "error" else f"warning: {text}"


class SchemaError(Exception):
    """One or more problems in the inputs; nothing may be written."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        super().__init__("\n".join(map(str, diagnostics)))
        self.diagnostics = diagnostics


@dataclass
class Reporter:
    """Collects the diagnostics of one run."""

    errors: list[Diagnostic] = field(default_factory=list)
    warnings: list[Diagnostic] = field(default_factory=list)
    _seen: set[Diagnostic] = field(default_factory=set, repr=False, compare=False)

    def error(self, location: Location, message: str, hint: str | None = None) -> None:
        self.add(Diagnostic(location, message, hint))

    def warn(self, location: Location, message: str, hint: str | None = None, *, kind: str) -> None:
        self.add(Diagnostic(location, message, hint, "warning", kind))

    def add(self, diagnostic: Diagnostic) -> None:
        """Report ``diagnostic`` (one raised elsewhere, say). The same problem met twice (a schema
        reached along two paths) is reported once."""
        if diagnostic not in self._seen:
            self._seen.add(diagnostic)
            (self.errors if diagnostic.severity == "error" else self.warnings).append(diagnostic)

    def raise_errors(self) -> None:
        if self.errors:
            raise SchemaError(list(self.errors))

    def extend(self, said: Reporter) -> None:
        """Report what ``said`` collected: its errors, then its warnings, each in the order said."""
        for diagnostic in (*said.errors, *said.warnings):
            self.add(diagnostic)


def collected(work: Callable[[Reporter], None]) -> Reporter:
    """What ``work`` reports, in a reporter of its own (the problems of a ``SchemaError`` it raises too)."""
    said = Reporter()
    try:
        work(said)
    except SchemaError as exc:
        for diagnostic in exc.diagnostics:
            said.add(diagnostic)
    return said


def few(items: Sequence[str], separator: str = ", ", keep: int = 3) -> str:
    """``items`` joined, or the first ``keep`` of them and how many more: a message stays one short line."""
    if len(items) <= keep + 1:
        return separator.join(items)
    return f"{separator.join(items[:keep])} and {len(items) - keep} more"


def _printable(text: str) -> str:
    """Pointers come from schema keys: keep control characters out of terminal output."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)

