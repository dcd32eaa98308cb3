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
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .. import ir
from ..diagnostics import Diagnostic, SchemaError

if TYPE_CHECKING:
    from .pipeline import Renderer

Job = tuple[ir.Module, str, str]
"""(module, variant, the input's label for the header)."""
Outcome = str | list[Diagnostic]
"""The module's text, or the problems of the user's templates with it."""

WORTH = 1500
"""Declarations to write (summed over the jobs) from which a pool is started."""

_work: tuple[Sequence[Job], Renderer] | None = None


def cores() -> int:
    """The cores this process may run on."""
    affinity = getattr(os, "sched_getaffinity", None)
    return len(affinity(0)) if affinity is not None else os.cpu_count() or 1


def render_all(jobs: Sequence[Job], renderer: Renderer, processes: int | None = None) -> list[Outcome]:
    """Each job's outcome, in order: by ``renderer`` here, or by up to ``processes`` forked processes
    (``None``: one per core), each with its copy of ``renderer``."""
    processes = min(processes or cores(), len(jobs))
    if processes < 2 or sys.platform != "linux" or not _worth_it(jobs, renderer):
        return [_outcome(renderer, job) for job in jobs]
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    global _work
    renderer.close()  # no connection to the cache crosses the fork
    _work = (jobs, renderer)
    try:
        with ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("fork")) as pool:
            largest_first = sorted(range(len(jobs)), key=lambda i: -len(jobs[i][0].declarations))
            futures = {i: pool.submit(_render, i) for i in largest_first}
            return [futures[i].result() for i in range(len(jobs))]
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


def _render(index: int) -> Outcome:
    """One job, in a forked process."""
    assert _work is not None
    jobs, renderer = _work
    return _outcome(renderer, jobs[index])


def _outcome(renderer: Renderer, job: Job) -> Outcome:
    module, variant, label = job
    try:
        return renderer.render(module, variant, label)
    except SchemaError as exc:
        return list(exc.diagnostics)
