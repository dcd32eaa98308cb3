"""Recorded payloads as ``validate`` reads them: a JSON file is one body; a JSON Lines file, or a
server-sent events stream (``data:`` lines), is one body per line.

A file is JSON Lines when its text is not one JSON value and each non-blank line is; an event stream
when a line starts with ``data:`` (the other fields of an event, ``event:``, ``id:``, comments, are
left out, and ``data: [DONE]``, the end of an OpenAI-style stream, is no body).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ..diagnostics import Diagnostic, Location, SchemaError
from ..ir import JSON

DONE = "[DONE]"


@dataclass(frozen=True, slots=True)
class Payload:
    file: str
    """As the command line named it."""
    line: int | None
    """For a body of a JSON Lines file or an event stream: its line (1-based)."""
    value: JSON


def read_all(paths: list[Path], names: list[str]) -> list[Payload]:
    """The bodies of every file, in order; every unreadable file or line is reported, together."""
    found: list[Payload] = []
    problems: list[Diagnostic] = []
    for path, name in zip(paths, names):
        try:
            text = path.read_text(encoding="utf-8-sig")  # (a byte order mark is no part of a body)
        except (OSError, UnicodeDecodeError) as exc:
            problems.append(Diagnostic(Location(name, in_document=False), f"cannot read the payload file: {exc}"))
            continue
        found += _bodies(text, name, problems)
    if problems:
        raise SchemaError(problems)
    return found


def _bodies(text: str, name: str, problems: list[Diagnostic]) -> list[Payload]:
    lines = text.splitlines()
    if any(line.startswith("data:") for line in lines):
        return _lines(((i, 5 + len(line[5:]) - len(line[5:].lstrip()), line[5:].strip())
                       for i, line in enumerate(lines, 1) if line.startswith("data:")), name, problems)
    try:
        return [Payload(name, None, _loads(text))]
    except RecursionError:
        problems.append(Diagnostic(Location(name, in_document=False), "the payload nests too deeply to be read"))
        return []
    except _NotJSON as exc:
        problems.append(Diagnostic(Location(name, line=exc.lineno, column=exc.colno, in_document=False),
                                   f"invalid JSON: {exc.msg}"))
        return []
    except json.JSONDecodeError as whole:
        if sum(bool(line.strip()) for line in lines) < 2:
            problems.append(Diagnostic(Location(name, line=whole.lineno, column=whole.colno, in_document=False),
                                       f"invalid JSON: {whole.msg}"))
            return []
    return _lines(((i, len(line) - len(line.lstrip()), line.strip()) for i, line in enumerate(lines, 1) if line.strip()),
                  name, problems)


def _lines(numbered: Iterable[tuple[int, int, str]], name: str, problems: list[Diagnostic]) -> list[Payload]:
    """The bodies of ``(line, characters before the body, body)``."""
    found = []
    for number, before, body in numbered:
        if body == DONE:
            continue
        try:
            found.append(Payload(name, number, _loads(body)))
        except RecursionError:
            problems.append(Diagnostic(Location(name, line=number, in_document=False),
                                       "the payload nests too deeply to be read"))
        except (json.JSONDecodeError, _NotJSON) as exc:
            problems.append(Diagnostic(Location(name, line=number, column=before + exc.colno, in_document=False),
                                       f"invalid JSON: {exc.msg}"))
    return found


class _NotJSON(ValueError):
    """``NaN``, ``Infinity`` or ``-Infinity``: Python's reader takes them; JSON has no such numbers."""

    def __init__(self, constant: str) -> None:
        super().__init__(constant)
        self.msg = f"{constant} is no JSON number"
        self.lineno: int | None = None
        self.colno = 0


def _loads(text: str) -> JSON:
    def refuse(constant: str) -> JSON:
        raise _NotJSON(constant)

    return json.loads(text, parse_constant=refuse)  # type: ignore[no-any-return]
