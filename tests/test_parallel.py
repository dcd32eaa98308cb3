"""Rendering in several processes (generator/project/parallel.py) writes what rendering here writes:
the same files, bytes and order, the same problems; and ``jobs`` / ``-j`` cap it."""

from __future__ import annotations

import concurrent.futures
import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from schemagen import render
from schemagen.cache.format import Session
from schemagen.diagnostics import SchemaError
from schemagen.project import config as configuration, parallel
from schemagen.project.plan import plan

from golden import ROOT
from test_cli import run


@pytest.fixture
def project(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "schemas", tmp_path / "schemas")
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many pools were started (of how many processes)."""
    counted: list[int] = []

    class Counted(concurrent.futures.ProcessPoolExecutor):
        def __init__(self, workers: int, **kwargs: Any) -> None:
            counted.append(workers)
            super().__init__(workers, **kwargs)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", Counted)
    return counted


@pytest.fixture
def pools(started: list[int], monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """``started``, with the threshold down to nothing."""
    monkeypatch.setattr(parallel, "WORTH", 0)
    return started


@pytest.mark.parametrize("cache", ["off", "fresh", "warm"])
def test_processes_write_what_one_process_writes(project: Path, pools: list[int], cache: str,
                                                 monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("SCHEMAGEN_CACHE_DIR", "off" if cache == "off" else str(tmp_path / "cache"))
    config = configuration.load(project)
    alone = plan(replace(config, jobs=1))
    assert pools == []
    if cache == "fresh":
        shutil.rmtree(tmp_path / "cache")
    # (a no-op run takes the last result: another option of the templates' makes it a run that renders)
    pooled = plan(replace(config, jobs=2, options=replace(config.options, command="make again")))
    assert pools == [2]
    expected = plan(replace(config, jobs=1, options=replace(config.options, command="make again")))
    assert list(pooled.files) == list(expected.files) and pooled.files == expected.files
    assert pooled.warnings == expected.warnings == alone.warnings


def test_a_template_that_fails_in_a_process_is_the_same_error(project: Path, pools: list[int],
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCHEMAGEN_CACHE_DIR", "off")
    (project / "mine").mkdir()
    (project / "mine" / "msgspec.py.jinja").write_text('{% extends "_module.py.jinja" %}\n{% block class %}\n'
                                                      '{{ d.no_such_thing }}\n{% endblock %}\n')
    config = replace(configuration.load(project), templates=project / "mine")
    problems = []
    for jobs in (1, 2):
        with pytest.raises(SchemaError) as caught:
            plan(replace(config, jobs=jobs))
        problems.append([str(d) for d in caught.value.diagnostics])
    assert pools == [2]
    assert problems[0] == problems[1] and "no_such_thing" in problems[0][0]


def test_the_pool_waits_for_work_worth_it(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The seeds are a few dozen declarations: starting processes would cost more than it saves."""
    monkeypatch.setenv("SCHEMAGEN_CACHE_DIR", "off")
    started: list[int] = []
    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", lambda *a, **k: started.append(1))
    plan(replace(configuration.load(project), jobs=2))
    assert started == []


def test_jobs_is_a_number_of_processes(project: Path) -> None:
    text = (project / "pyproject.toml").read_text()
    (project / "pyproject.toml").write_text(text.replace('output = "generated"', 'output = "generated"\njobs = 0'))
    result = run(project, "generate")
    assert result.returncode == 1
    assert "#/tool/schemagen/jobs: must be a whole number of processes, 1 or more, not 0" in result.stderr
    (project / "pyproject.toml").write_text(text.replace('output = "generated"', 'output = "generated"\njobs = 1'))
    assert run(project, "generate").returncode == 0
    assert run(project, "generate", "-j", "0").returncode == 2
    assert run(project, "generate", "--check", "-j", "2").returncode == 0


def test_jobs_is_not_part_of_the_fingerprint(project: Path) -> None:
    """A run with another cap is the same run: its no-op stays a no-op."""
    one = configuration.load(project)
    assert repr(replace(one, jobs=1)) == repr(replace(one, jobs=8)) == repr(one)


def test_fragments_the_memo_holds_start_no_pool(project: Path, started: list[int], monkeypatch: pytest.MonkeyPatch,
                                                 tmp_path: Path) -> None:
    """After an edit of one description, only its declaration's fragments are made: too few to fork for."""
    monkeypatch.setenv("SCHEMAGEN_CACHE_DIR", str(tmp_path / "cache"))
    config = replace(configuration.load(project), jobs=2)
    source = project / "schemas" / "chat_completion_out.json"
    plan(config)  # cold: every fragment is made (the seeds are fewer than WORTH: here)
    monkeypatch.setattr(parallel, "WORTH", 3 * len(config.variants))  # above the 2 a variant makes again
    source.write_text(source.read_text().replace('"description": "', '"description": "Edited. ', 1))
    edited = plan(config)
    assert started == [], "a pool was started for an edit"
    assert "Edited. " in edited.files[Path("chat_completion_out/msgspec_models.py")]
    monkeypatch.setattr(parallel, "WORTH", 0)
    source.write_text(source.read_text().replace("Edited. ", "Edited again. ", 1))
    assert plan(config).files == plan(replace(config, jobs=1)).files and started == [2]


def test_one_module_is_written_in_parts_by_several_processes(project: Path, pools: list[int], tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """With the memo, a module's declarations are cut into parts that the processes write apart, and
    this process puts the module together: one variant alone is enough to use them all, and the text is
    the one written here."""
    monkeypatch.setenv("SCHEMAGEN_CACHE_DIR", str(tmp_path / "cache"))
    config = replace(configuration.load(project), variants=("msgspec",))
    expected = plan(replace(config, jobs=1)).files
    assert pools == []
    shutil.rmtree(tmp_path / "cache")
    parts: list[parallel.Part] = []
    original = parallel._parts
    monkeypatch.setattr(parallel, "_parts", lambda *a: parts.extend(original(*a)) or parts)
    here: list[str] = []  # (what forked processes build goes to their own copy of the list)
    fragment = render.fragment
    monkeypatch.setattr(render, "fragment", lambda d, context, env: here.append(d.name) or fragment(d, context, env))
    pooled = plan(replace(config, jobs=2))
    assert pools == [2] and pooled.files == expected
    assert here == [], "this process only puts the modules together"
    sizes = [len(indexes) for _, indexes in parts]
    total = sum(sizes)
    assert len(parts) > 2 and max(sizes) == -(-total // (2 * parallel.PARTS)), sizes  # (PARTS per process, rounded up)
    assert [job for job, _ in parts] == sorted(job for job, _ in parts)  # each module's parts one after another
    written: dict[int, list[int]] = {}
    for job, indexes in parts:  # (each declaration once, in order)
        written.setdefault(job, []).extend(indexes)
    assert all(indexes == list(range(len(indexes))) for indexes in written.values())


def test_what_the_processes_made_is_kept(project: Path, pools: list[int], tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The fragments made in other processes, with their formatting, are kept in the memo by this one:
    after an edit of one description, only that declaration's fragments are made again (here)."""
    monkeypatch.setenv("SCHEMAGEN_CACHE_DIR", str(tmp_path / "cache"))
    config = replace(configuration.load(project), jobs=2)
    source = project / "schemas" / "chat_completion_out.json"
    cold = plan(config)
    assert pools == [2]
    monkeypatch.setattr(parallel, "WORTH", 3 * len(config.variants))
    built: list[str] = []
    original = render.fragment
    monkeypatch.setattr(render, "fragment", lambda d, context, env: built.append(d.name) or original(d, context, env))
    formatted: list[int] = []
    stretches = Session.stretches
    monkeypatch.setattr(Session, "stretches", lambda self, texts, **k: formatted.append(len(texts)) or
                        stretches(self, texts, **k))
    source.write_text(source.read_text().replace('"description": "', '"description": "Edited. ', 1))
    edited = plan(config)
    assert pools == [2], "no pool for an edit"
    assert 0 < len(built) <= 2 * len(config.variants), built
    assert sum(formatted) == len(built) + len(config.variants), "the fragments made, and each module's head"
    assert edited.files != cold.files
    monkeypatch.setenv("SCHEMAGEN_CACHE_DIR", "off")
    assert edited.files == plan(replace(config, jobs=1)).files


def test_one_module_written_whole_starts_no_pool(project: Path, pools: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the memo a module is one process's work: one module alone is written here."""
    monkeypatch.setenv("SCHEMAGEN_CACHE_DIR", "off")
    shutil.rmtree(project / "schemas" / "openai")
    plan(replace(configuration.load(project), variants=("msgspec",), jobs=2))
    assert pools == []
