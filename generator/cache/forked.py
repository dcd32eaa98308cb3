"""Work on many items shared out among forked processes, for the speed-ups of a first run (parsing a
long document's pieces, checking its definitions against the meta-schema).

The items are cut into runs of about equal weight, in order, one per process; forked processes do
all runs but the first and send back what they made, pickled, through a pipe; this process does the
first meanwhile. The result is each item's, in order, or ``None`` where its work raised or its
process sent nothing back: the caller does that item again itself, as it would alone, so the result
of a stage never depends on the processes. Forked processes touch no open connection and run no
clean-up of this process's state: they end with ``os._exit``.

``ahead`` does one piece of work (the checks of a large set) in a forked process while this one goes
on (lowers the set), and gives what it said when asked.
"""

from __future__ import annotations

import os
import pickle
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from ..diagnostics import Reporter, collected

if TYPE_CHECKING:
    from .store import Cache

AHEAD_FROM = 200
"""Definitions from which a set's checks are done in another process while this one lowers it. Lowering
and the passes take about 0.17 ms a definition (OpenAI's description: 0.25 s for 1,435), and starting
the process 3-4 ms there: below, there is little to do meanwhile."""

T = TypeVar("T")
R = TypeVar("R")


def shared_out(items: Sequence[T], weight: Callable[[T], int], work: Callable[[T], R], processes: int,
               least: int) -> list[R | None]:
    """``work(item)`` of each item, by up to ``processes`` processes when their weights add up to
    ``least`` or more (on Linux, where processes start by ``fork``); else by this one alone. The first
    item is worked here before any fork, so what its work imports or warms up is shared."""
    weights = [weight(item) for item in items]
    total = sum(weights)
    if processes < 2 or total < least or len(items) < 2 or sys.platform != "linux":
        return [_tried(work, item) for item in items]
    runs: list[list[int]] = [[]]
    done = 0
    for index, size in enumerate(weights):
        if done >= total * len(runs) / processes and len(runs) < processes:
            runs.append([])
        runs[-1].append(index)
        done += size
    results: list[R | None] = [None] * len(items)
    first, *others = runs
    results[first[0]] = _tried(work, items[first[0]])
    children: list[tuple[list[int], int, int]] = []
    try:
        for run in others:
            try:
                children.append((run, *_fork(work, [items[i] for i in run])))
            except OSError:  # (no process to start: this one does the rest)
                first += [i for r in others[len(children):] for i in r]
                break
        for index in first[1:]:
            results[index] = _tried(work, items[index])
    finally:  # (each process is waited for, whatever happens here)
        for run, pid, read_end in children:
            for index, made in zip(run, _collect(pid, read_end, len(run))):
                results[index] = made
    return results


def ahead(work: Callable[[Reporter], None], size: int, store: Cache | None = None,
          least: int = AHEAD_FROM) -> Callable[[], Reporter] | None:
    """``work`` (the checks of a set of ``size`` definitions) done in a forked process while this one goes
    on, when ``size`` is ``least`` or more (on Linux); what it said, when asked (waiting for it then). If
    the process fails or sends nothing back, the work is done here then: what is said never depends on it.
    ``None``: no process was started (the caller does the work). ``store``'s connection is closed first:
    the forked process opens its own (``Cache``)."""
    if size < least or sys.platform != "linux":
        return None
    if store is not None:
        store.close()
    try:
        pid, read_end = _fork(collected, [work])
    except OSError:  # (no process to start)
        return None

    def told() -> Reporter:
        [sent] = _collect(pid, read_end, 1)
        return sent if isinstance(sent, Reporter) else collected(work)

    return told


def _tried(work: Callable[[T], R], item: T) -> R | None:
    try:
        return work(item)
    except Exception:
        return None


def _fork(work: Callable[[T], Any], run: list[T]) -> tuple[int, int]:
    """A forked process that works ``run`` and writes the list of what it made (``None`` for an item
    whose work raised) to a pipe, then ends; (its pid, the pipe's end to read)."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid:
        os.close(write_end)
        return pid, read_end
    code = 1
    try:
        os.close(read_end)
        made = pickle.dumps([_tried(work, item) for item in run], protocol=pickle.HIGHEST_PROTOCOL)
        with os.fdopen(write_end, "wb") as pipe:
            pipe.write(made)
        code = 0
    finally:
        os._exit(code)


def _collect(pid: int, read_end: int, count: int) -> list[Any]:
    """What process ``pid`` sent for its ``count`` items (all ``None`` if it failed)."""
    try:
        with os.fdopen(read_end, "rb") as pipe:
            data = pipe.read()
    finally:
        _, status = os.waitpid(pid, 0)
    sent: Any = None
    if status == 0:
        try:
            sent = pickle.loads(data)
        except Exception:
            pass
    return sent if isinstance(sent, list) and len(sent) == count else [None] * count
