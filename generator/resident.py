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

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

T = TypeVar("T")

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


def derived(name: str, source: object, key: Hashable, make: Callable[[], T]) -> T:
    """``make()``; in a resident process, what it gave in the last run for the same ``source`` object
    and ``key``, if that run made it (``make`` must read nothing but ``source`` and ``key``)."""
    kept = table(name)
    if kept is None:
        return make()
    found = kept.get((id(source), key))
    if found is not None and found[0] is source:  # kept alive in the table: its id is its own
        return found[1]  # type: ignore[no-any-return]
    value = make()
    kept.put((id(source), key), (source, value))
    return value


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
