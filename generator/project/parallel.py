"""Rendering a run's modules on several cores: forked processes, each with a renderer of its own.

A job is one input's module in one variant, and each job's text is what ``Renderer.render`` gives in
this process, so the output is the same bytes in the same order whatever the number of processes.
The modules are lowered before the pool starts; the processes are forked, so they read them (and
the renderer, with what it already looked up) where they are (no copy, no pickling) and send back
only text. Each opens its own connection to the cache (SQLite serialises their writes); this process
closes its own before it forks.

The pool is used only when it pays: more than one job, more than one process allowed, at least
``WORTH`` declarations to write in all (those the memo holds cost little; below that, starting
processes costs more than it saves), and a platform whose processes start by ``fork`` (Linux).
Elsewhere the jobs run here, one by one.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .. import ir
from ..diagnostics import Diagnostic, SchemaError

if TYPE_CHECKING:
    from concurrent.futures import Future

    from ..cache.memo import Entry
    from .pipeline import Renderer

Job = tuple[ir.Module, str, str]
"""(module, variant, the input's label for the header)."""
Outcome = str | list[Diagnostic]
"""The module's text, or the problems of the user's templates with it."""

WORTH = 1500
"""Declarations to write (summed over the jobs) from which a pool is started."""
PARTS = 8
"""Parts per process that the declarations to write are cut into: enough that the processes finish
close together, few enough that what each part costs besides its declarations does not count."""
Task = tuple[int, list[int] | None]
"""A job, by index, and the declarations of its module to write, by index (``None``: the whole module)."""

_work: tuple[Sequence[Job], Renderer] | None = None


def cores() -> int:
    """The cores this process may run on."""
    affinity = getattr(os, "sched_getaffinity", None)
    return len(affinity(0)) if affinity is not None else os.cpu_count() or 1


def render_all(jobs: Sequence[Job], renderer: Renderer, processes: int | None = None) -> list[Outcome]:
    """Each job's outcome, in order: by ``renderer`` here, or with up to ``processes`` forked processes
    (``None``: one per core), each with its copy of ``renderer``."""
    processes = processes or cores()
    tasks = _tasks(jobs, renderer, processes) if processes > 1 and sys.platform == "linux" and _worth_it(jobs, renderer) \
        else []
    if not tasks:
        return [_outcome(renderer, job) for job in jobs]
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    global _work
    renderer.close()  # no connection to the cache crosses the fork
    _work = (jobs, renderer)
    outcomes: list[Outcome | None] = [None] * len(jobs)
    try:
        with ProcessPoolExecutor(min(processes, len(tasks)), mp_context=multiprocessing.get_context("fork")) as pool:
            submitted: list[tuple[int, list[int] | None, Future[Any]]] = [
                (job, indexes, pool.submit(_render, job) if indexes is None else pool.submit(_part, job, indexes))
                for job, indexes in tasks]
            made: dict[int, Entry] = {}
            for n, (job, indexes, future) in enumerate(submitted):
                if indexes is None:
                    outcomes[job] = future.result()
                    continue
                made.update(zip(indexes, future.result()))
                if n + 1 == len(submitted) or submitted[n + 1][0] != job:  # its last part: put together here
                    outcomes[job], made = _outcome(renderer, jobs[job], made), {}
    finally:
        _work = None
    return [_outcome(renderer, jobs[j], {}) if outcome is None else outcome for j, outcome in enumerate(outcomes)]


def _tasks(jobs: Sequence[Job], renderer: Renderer, processes: int) -> list[Task]:
    """The work of ``jobs`` for the processes: where the renderer writes declarations apart
    (``Renderer.parts``), those to write in runs of about equal length, ``PARTS`` per process, each
    module's in order; else each module whole, the largest first."""
    missing = [renderer.parts(*job) for job in jobs]
    if any(m is None for m in missing):
        return sorted(((j, None) for j in range(len(jobs))), key=lambda task: -len(jobs[task[0]][0].declarations))
    size = max(1, -(-sum(len(m or ()) for m in missing) // (PARTS * processes)))
    return [(j, m[k:k + size]) for j, m in enumerate(missing) if m for k in range(0, len(m), size)]


def _worth_it(jobs: Sequence[Job], renderer: Renderer) -> bool:
    """At least ``WORTH`` declarations to write: counted job by job until there are that many."""
    total = 0
    for job in jobs:
        total += renderer.to_make(*job)
        if total >= WORTH:
            return True
    return False


def _render(job: int) -> Outcome:
    """One job, in a forked process."""
    assert _work is not None
    jobs, renderer = _work
    return _outcome(renderer, jobs[job])


def _part(job: int, indexes: list[int]) -> list[Entry]:
    """Some of a job's declarations, in a forked process (``Renderer.part``)."""
    assert _work is not None
    jobs, renderer = _work
    return renderer.part(*jobs[job], indexes)


def _outcome(renderer: Renderer, job: Job, made: Mapping[int, Entry] | None = None) -> Outcome:
    module, variant, label = job
    try:
        return renderer.render(module, variant, label, made)
    except SchemaError as exc:
        return list(exc.diagnostics)
