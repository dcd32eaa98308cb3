"""What a resident process (``serve``) keeps from one run for the next, besides the cache's bytes:
results keyed by the very objects they were made from.

An unchanged piece of a YAML document is the same Python object in the next run (``yaml_pieces``),
so its normalised definition, its meta-schema check and its lowering can be taken as they are when
everything they read is, again, the same objects (``lower.Replay``). Identity is only a safe key
because nothing in the pipeline changes a value it was given (a test runs edits through one process
and compares every run with a fresh one). In a one-off run there is no next run: ``table`` is
``None`` and nothing is kept.

Each table keeps what the last run used: an entry no run asked for since is dropped (``next_run``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar, cast

T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., Any])

_tables: dict[str, Table] | None = None


class Table:
    """Entries kept from the previous run (``old``) and those this run has used or made (``new``)."""

    def __init__(self) -> None:
        self.old: dict[Any, Any] = {}
        self.new: dict[Any, Any] = {}

    def get(self, key: Any) -> Any:
        if key in self.new:
            return self.new[key]
        value = self.old.pop(key, None)
        if value is not None:
            self.new[key] = value
        return value

    def put(self, key: Any, value: Any) -> None:
        self.new[key] = value


def enable() -> None:
    """From now on, keep results from one run for the next (``serve`` calls it once)."""
    global _tables
    if _tables is None:
        _tables = {}


def table(name: str) -> Table | None:
    """The table ``name`` of a resident process; ``None`` in a one-off run."""
    if _tables is None:
        return None
    if name not in _tables:
        _tables[name] = Table()
    return _tables[name]


def next_run() -> None:
    """A run is over: forget what it did not use."""
    for kept in (_tables or {}).values():
        kept.old, kept.new = kept.new, {}


def per_object(make: F) -> F:
    """``make(source, *rest)``; in a resident process, what it returned in the last run for the very
    same ``source`` object and equal ``rest`` (hashable), when the last run called it so. For a
    function that reads nothing but its arguments, of a ``source`` nothing changes (a parsed piece, a
    definition, an IR declaration); its table is named after it."""
    name = f"{make.__module__}.{make.__qualname__}"

    @functools.wraps(make)
    def kept(source: Any, *rest: Any) -> Any:
        last = table(name)
        if last is None:
            return make(source, *rest)
        key = (id(source), rest)
        found = last.get(key)
        if found is not None and found[0] is source:  # kept alive in the table: its id is its own
            return found[1]
        value = make(source, *rest)
        last.put(key, (source, value))
        return value

    return cast(F, kept)


def same(name: str, value: T) -> T:
    """``value``, or the equal value the last run gave under ``name`` (so that identity says equal)."""
    kept = table(name)
    if kept is None:
        return value
    last = kept.get(name)
    if last is not None and last == value:
        value = last
    kept.put(name, value)
    return value
