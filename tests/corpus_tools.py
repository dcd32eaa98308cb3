"""Helpers for the large-corpus tests: which names a generated module defines, grouping problems by kind,
and the fields a union types."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from pathlib import Path

from conftest import bench_module
from schemagen import ir
from schemagen.diagnostics import Diagnostic

defined_names = bench_module("modules").defined_names
"""bench/modules.py: the classes and aliases a generated module defines."""

_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")
_BACKTICKED = re.compile(r"`[^`]*`")
_POINTER = re.compile(r"#/\S*")
_TYPE_LIST = re.compile(r"\b[A-Z]\w*(?: \| [A-Z]\w*)+")
_OFFENDING = re.compile(r"type `(?P<type>.*)` is not supported")


def warning_kind(diagnostic: Diagnostic, width: int = 60) -> str:
    """A warning's message without the names and pointers that differ from one occurrence to the next."""
    text = _TYPE_LIST.sub("A | B …", _POINTER.sub("#/…", _QUOTED.sub("'…'", diagnostic.message)))
    return text[:width]


def error_kind(message: str) -> str:
    """An exception message with its quoted or backticked parts (type names, field names) blanked."""
    return _BACKTICKED.sub("`…`", _QUOTED.sub("'…'", message.splitlines()[0] if message else ""))


def offending_type(message: str, module: str) -> str | None:
    """The type a msgspec ``TypeError`` names (``type `X` is not supported``), without ``module.`` prefixes."""
    match = _OFFENDING.search(message)
    return match["type"].replace(module + ".", "").replace("msgspec.", "") if match else None


def summarise_warnings(warnings: Iterable[Diagnostic]) -> str:
    counts = Counter(warning_kind(d) for d in warnings)
    examples: dict[str, str] = {}
    for d in warnings:
        examples.setdefault(warning_kind(d), str(d.location))
    total = sum(counts.values())
    lines = [f"{total} warnings, {len(counts)} kinds"]
    lines += [f"{n:6d}  {kind}   (e.g. {examples[kind]})" for kind, n in counts.most_common()]
    return "\n".join(lines)


def group(pairs: Iterable[tuple[str, str]], examples: int = 3) -> str:
    """``(kind, example)`` pairs as one line per kind, most frequent first, with a few examples each."""
    by_kind: dict[str, list[str]] = defaultdict(list)
    for kind, example in pairs:
        by_kind[kind].append(example)
    lines = []
    for kind, items in sorted(by_kind.items(), key=lambda kv: -len(kv[1])):
        shown = ", ".join(items[:examples]) + (", …" if len(items) > examples else "")
        lines.append(f"{len(items):6d}  {kind}\n        e.g. {shown}")
    return "\n".join(lines)


_MYPY_LINE = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):(?:\d+:)? (?P<severity>error|note): (?P<text>.*?)(?:  \[(?P<code>[\w-]+)\])?$")


def mypy_errors(stdout: str) -> list[tuple[str, int, str, str]]:
    """``(file, line, message, code)`` of each error line of mypy's output."""
    found = []
    for raw in stdout.splitlines():
        match = _MYPY_LINE.match(raw)
        if match and match["severity"] == "error":
            found.append((match["file"], int(match["line"]), match["text"], match["code"] or "?"))
    return found


def source_line(root: Path, file: str, line: int) -> str:
    try:
        return (root / file).read_text().splitlines()[line - 1].strip()
    except (OSError, IndexError):
        return "?"


def union_fields(module: ir.Module) -> list[tuple[ir.Model, ir.Field, ir.Union]]:
    """Each field whose type, or the type of the alias it names, is a union of two or more besides null."""
    declarations = {d.name: d for d in module.declarations}
    found: list[tuple[ir.Model, ir.Field, ir.Union]] = []
    for model in (d for d in module.declarations if isinstance(d, ir.Model)):
        for f in model.fields:
            t = f.type
            while isinstance(t, ir.Ref) and isinstance(alias := declarations.get(t.name), ir.Alias):
                t = alias.type
            if isinstance(t, ir.Union) and sum(not isinstance(m, ir.Null) for m in t.members) > 1:
                found.append((model, f, t))
    return found
