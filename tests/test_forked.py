"""Work shared out among forked processes (generator/cache/forked.py): each item's result, in order,
whatever the processes do; ``None`` where the work raised or a process sent nothing back."""

from __future__ import annotations

import os
from typing import Any

import pytest

from schemagen.cache.forked import ahead, shared_out
from schemagen.diagnostics import Location, Reporter

ITEMS = list(range(23))


def square(item: int) -> tuple[int, int]:
    return item * item, os.getpid()


@pytest.mark.parametrize("processes", [1, 2, 3, 5])
def test_each_item_is_worked_once_in_order_by_as_many_processes_as_allowed(processes: int) -> None:
    made = shared_out(ITEMS, lambda item: 1 + item % 3, square, processes, least=0)
    assert [m[0] if m else None for m in made] == [i * i for i in ITEMS]
    pids = list(dict.fromkeys(m[1] for m in made if m))
    assert len(pids) == processes and pids[0] == os.getpid()  # (the first run is this process's)


def test_below_the_least_weight_nothing_is_forked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "fork", lambda: pytest.fail("forked"))
    made = shared_out(ITEMS, lambda item: 1, square, 4, least=len(ITEMS) + 1)
    assert [m[0] if m else None for m in made] == [i * i for i in ITEMS]


@pytest.mark.parametrize("failure", ["raises", "ends", "no fork"])
def test_what_a_process_does_not_send_back_is_none(failure: str, monkeypatch: pytest.MonkeyPatch) -> None:
    here = os.getpid()

    def fragile(item: int) -> Any:
        if item % 7 == 3:
            raise ValueError("this item, wherever it is worked")
        if os.getpid() != here and failure == "ends":
            os._exit(3)
        if os.getpid() != here and failure == "raises":
            raise ValueError("not in this process")
        return item

    if failure == "no fork":
        monkeypatch.setattr(os, "fork", lambda: (_ for _ in ()).throw(OSError("no more processes")))
    made = shared_out(ITEMS, lambda item: 1, fragile, 3, least=0)
    assert made[:8] == [0, 1, 2, None, 4, 5, 6, 7]  # (the first run, this process's)
    if failure == "no fork":  # all worked here
        assert made == [None if i % 7 == 3 else i for i in ITEMS]
    else:
        assert made[8:] == [None] * (len(ITEMS) - 8)


def _checks(reporter: Reporter) -> None:
    """Work that says where it ran, warns, then fails with an error (as a check of a bad set does)."""
    reporter.warn(Location("here.json", f"/{os.getpid()}"), "where it ran", kind="test")
    reporter.error(Location("here.json", "/x"), "a problem")
    reporter.raise_errors()


def test_work_ahead_says_what_it_says_here_and_is_done_in_another_process() -> None:
    told = ahead(_checks, size=1, least=0)
    assert told is not None
    said = told()
    assert [d.message for d in said.errors] == ["a problem"]
    [where] = said.warnings
    assert where.location.pointer != f"/{os.getpid()}"  # (it ran in another process)


@pytest.mark.parametrize("failure", ["ends", "raises"])
def test_work_ahead_that_its_process_did_not_send_back_is_done_here(failure: str) -> None:
    here = os.getpid()

    def fragile(reporter: Reporter) -> None:
        if os.getpid() != here and failure == "ends":
            os._exit(3)
        if os.getpid() != here and failure == "raises":
            raise ValueError("not in this process")
        _checks(reporter)

    told = ahead(fragile, size=5, least=0)
    assert told is not None
    said = told()
    assert [d.message for d in said.errors] == ["a problem"]
    assert [d.location.pointer for d in said.warnings] == [f"/{here}"]


@pytest.mark.parametrize("failure", ["small", "no fork"])
def test_work_no_process_can_do_ahead_is_left_to_the_caller(failure: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if failure == "no fork":
        monkeypatch.setattr(os, "fork", lambda: (_ for _ in ()).throw(OSError("no more processes")))
    else:
        monkeypatch.setattr(os, "fork", lambda: pytest.fail("forked"))
    assert ahead(_checks, size=5, least=0 if failure != "small" else 6) is None
