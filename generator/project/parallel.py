"""Rendering a run's modules on several cores: forked processes, each with a renderer of its own.

A job is one input's module in one variant. With the memo (``Renderer.parts``), the declarations to
write are shared out: each process writes parts of them (their fragments, formatted), and this process
puts each module together from them; else each job is written whole by one process. Either way each
job's text is what ``Renderer.render`` gives in this process alone, so the output is the same bytes in
the same order whatever the number of processes. The modules are lowered before the pool starts; the
processes are forked, so they read them (and the renderer, with what it already looked up) where they
are (no copy, no pickling) and send back only text. Each opens its own connection to the cache (SQLite
serialises their writes); this process closes its own before it forks.

The pool is used only when it pays: more than one process allowed, at least ``WORTH`` declarations to
write in all (those the memo holds cost little; below that, starting processes costs more than it
saves), and a platform whose processes start by ``fork`` (Linux). Elsewhere the jobs run here, one by one.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

from .. import ir
from ..diagnostics import Diagnostic, SchemaError

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

    from ..cache.entries import Entry
    from .pipeline import Renderer

Job = tuple[ir.Module, str, str]
"""(module, variant, the input's label for the header)."""
Outcome = str | list[Diagnostic]
"""The module's text, or the problems of the user's templates with it."""
Part = tuple[int, list[int]]
"""Declarations to write: a job (by index) and some of its module's (by index)."""

WORTH = 1500
"""Declarations to write (summed over the jobs) from which a pool is started."""
PARTS = 8
"""Parts per process that the declarations to write are cut into: enough that the processes finish
close together, few enough that what each part costs besides its declarations does not count."""

_work: tuple[Sequence[Job], Renderer] | None = None


def cores() -> int:
    """The cores this process may run on."""
    affinity = getattr(os, "sched_getaffinity", None)
    return len(affinity(0)) if affinity is not None else os.cpu_count() or 1


def render_all(jobs: Sequence[Job], renderer: Renderer, processes: int | None = None) -> list[Outcome]:
    """Each job's outcome, in order: by ``renderer`` here, or with up to ``processes`` forked processes
    (``None``: one per core), each with its copy of ``renderer``."""
    processes = processes or cores()
    if processes < 2 or sys.platform != "linux" or not _worth_it(jobs, renderer):
        return [_outcome(renderer, job) for job in jobs]
    missing = [renderer.parts(*job) for job in jobs]
    if any(m is None for m in missing):  # (each job whole: one process for each, at most)
        if len(jobs) < 2:
            return [_outcome(renderer, job) for job in jobs]
        with _pool(jobs, renderer, min(processes, len(jobs))) as pool:
            largest_first = sorted(range(len(jobs)), key=lambda job: -len(jobs[job][0].declarations))
            futures = {job: pool.submit(_render, job) for job in largest_first}
            return [futures[job].result() for job in range(len(jobs))]
    parts = _parts([m or [] for m in missing], PARTS * processes)
    if not parts:  # (nothing to write: put together here)
        return [_outcome(renderer, job, {}) for job in jobs]
    with _pool(jobs, renderer, min(processes, len(parts))) as pool:
        return _assembled(jobs, renderer, parts, [pool.submit(_part, part) for part in parts])


def _parts(missing: list[list[int]], count: int) -> list[Part]:
    """Each job's declarations to write (``missing``), in runs of about equal length (``count`` in all),
    each module's one after another, in order: a module is put together as soon as its last part is
    back, while the processes go on with the next module's."""
    size = max(1, -(-sum(map(len, missing)) // count))
    return [(job, m[k:k + size]) for job, m in enumerate(missing) for k in range(0, len(m), size)]


def _assembled(jobs: Sequence[Job], renderer: Renderer, parts: list[Part], futures: list[Future[list[Entry]]]
               ) -> list[Outcome]:
    """Each job's module, put together here from what the processes made of its parts (``futures``,
    in order), each as soon as its last part is back."""
    made: dict[int, Entry] = {}
    outcomes: list[Outcome | None] = [None] * len(jobs)
    for n, ((job, indexes), future) in enumerate(zip(parts, futures)):
        made.update(zip(indexes, future.result()))
        if n + 1 == len(parts) or parts[n + 1][0] != job:
            outcomes[job], made = _outcome(renderer, jobs[job], made), {}
    return [_outcome(renderer, jobs[job], {}) if outcome is None else outcome for job, outcome in enumerate(outcomes)]


@contextmanager
def _pool(jobs: Sequence[Job], renderer: Renderer, processes: int) -> Iterator[ProcessPoolExecutor]:
    """A pool of ``processes`` forked from this one, which find ``jobs`` and ``renderer`` in ``_work``."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    global _work
    renderer.close()  # no connection to the cache crosses the fork
    _work = (jobs, renderer)
    try:
        with ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("fork")) as pool:
            yield pool
    finally:
        _work = None


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


def _part(part: Part) -> list[Entry]:
    """Some declarations of a job, in a forked process (``Renderer.part``)."""
    assert _work is not None
    jobs, renderer = _work
    job, indexes = part
    return renderer.part(*jobs[job], indexes)


def _outcome(renderer: Renderer, job: Job, made: Mapping[int, Entry] | None = None) -> Outcome:
    module, variant, label = job
    try:
        return renderer.render(module, variant, label, made)
    except SchemaError as exc:
        return list(exc.diagnostics)
