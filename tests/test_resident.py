"""A resident process (``schemagen serve``) keeps results from one run for the next (``resident``,
``replay``): each run must give exactly what a fresh process gives, and reuse what did not change."""

from __future__ import annotations

import copy
import json
import os
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fuzz_strategies import SEED_FOLDER, Dialect, definition_names, edit, schemas
from generator import cache as caching, load, lower, resident, yaml_pieces
from generator.cache import Cache
from generator.errors import Reporter, SchemaError
from generator.inputs import Input, to_ir
from generator.ir_json import dumps

COMPONENTS = {json.loads(p.read_text())["$id"].rsplit("/", 1)[-1]:
              {k: v for k, v in json.loads(p.read_text()).items() if k not in ("$id", "$schema")}
              for p in sorted(SEED_FOLDER.glob("*.json"))}


@pytest.fixture
def resident_process(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """This process as a server runs it; every YAML document read piece by piece, however small."""
    monkeypatch.setattr(resident, "_tables", {})
    monkeypatch.setattr(caching, "_resident", {})
    monkeypatch.setattr(load, "PIECES_FROM", 0)
    monkeypatch.setattr(yaml_pieces, "SPLIT", 0)
    yield


def document(components: dict[str, Any]) -> str:
    api = {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {},
           "components": {"schemas": components}}
    return yaml.safe_dump(api, sort_keys=False, allow_unicode=True)


def outcome(folder: Path, text: str, store: Cache | None) -> tuple[str, list[str], list[str]]:
    """The IR (or the errors) and the warnings of ``text`` as an input, read with ``store``."""
    path = folder / "api.yaml"
    path.write_text(text, encoding="utf-8")
    reporter = Reporter()
    try:
        module = dumps(to_ir(Input("api", path, "api.yaml"), folder, reporter, cache=store))
    except SchemaError as exc:
        module = "\n".join(map(str, exc.diagnostics))
    return module, [str(d) for d in reporter.warnings], [str(d) for d in reporter.errors]


def fresh(folder: Path, text: str, monkeypatch: pytest.MonkeyPatch) -> tuple[str, list[str], list[str]]:
    """What a one-off process gives: nothing kept, no cache."""
    with monkeypatch.context() as m:
        m.setattr(resident, "_tables", None)
        return outcome(folder, text, None)


def runs(texts: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Each text through the resident process in turn, each checked against a fresh process."""
    with tempfile.TemporaryDirectory() as tmp:
        store = Cache(Path(tmp) / "cache")
        for i, text in enumerate(texts):
            got = outcome(Path(tmp), text, store)
            resident.next_run()
            assert got == fresh(Path(tmp), text, monkeypatch), f"run {i}"


EDITS: list[tuple[str, Any]] = [
    ("a description", lambda c: c["TokenLogprob"].update(description="edited")),
    ("a new component taking an inline name", lambda c: c.update(
        ChatCompletionAssistantMessageFunctionCall={"type": "object", "properties": {"x": {"type": "string"}}})),
    ("a component removed that others refer to", lambda c: c.pop("TokenLogprob")),
    ("a referenced component made nullable", lambda c: c["TokenLogprob"].update(nullable=True)),
    ("a referenced component turned into an allOf", lambda c: c.update(
        TokenLogprob={"allOf": [copy.deepcopy(c["TokenLogprob"]),
                                              {"required": ["token"]}]})),
    ("components reordered", lambda c: [c.update({k: c.pop(k)}) for k in sorted(c)]),
]


@pytest.mark.parametrize("label, change", EDITS, ids=[e[0] for e in EDITS])
def test_an_edit_through_a_resident_process_gives_what_a_fresh_one_gives(
        label: str, change: Any, resident_process: None, monkeypatch: pytest.MonkeyPatch) -> None:
    edited = copy.deepcopy(COMPONENTS)
    change(edited)
    runs([document(COMPONENTS), document(edited), document(COMPONENTS)], monkeypatch)


def test_only_what_changed_is_lowered_again(resident_process: None, monkeypatch: pytest.MonkeyPatch,
                                            tmp_path: Path) -> None:
    lowered: list[str] = []
    unit = lower._Lowering.unit
    monkeypatch.setattr(lower._Lowering, "unit", lambda self, key: (lowered.append(key), unit(self, key))[1])
    store = Cache(tmp_path / "cache")
    edited = copy.deepcopy(COMPONENTS)
    edited["TokenLogprob"]["description"] = "edited"
    counts = []
    for text in (document(COMPONENTS), document(COMPONENTS), document(edited)):
        lowered.clear()
        outcome(tmp_path, text, store)
        resident.next_run()
        counts.append(len(lowered))
    assert counts[:2] == [len(COMPONENTS), 0]
    # the edited component, and the one that refers to it (it read the definition)
    assert sorted(lowered) == ["#/components/schemas/ChatCompletionChoice", "#/components/schemas/TokenLogprob"]


@st.composite
def edit_sequences(draw: st.DrawFn) -> list[str]:
    """An OpenAPI document made of the seed components, then 1-4 versions of it, each a random edit
    of the one before (a schema changed, a component added or removed)."""
    components = copy.deepcopy(COMPONENTS)
    texts = [document(components)]
    for _ in range(draw(st.integers(1, 4))):
        components = copy.deepcopy(components)
        names = sorted(components)
        action = draw(st.sampled_from(["edit", "edit", "add", "remove"]))
        if action == "add":
            name = draw(definition_names.filter(lambda n: n.strip() and n not in components))
            sub = draw(schemas(Dialect("/components/schemas", "3.1"), names, max_leaves=6))
            components[name] = sub if isinstance(sub, dict) else {"allOf": [sub]}
        elif action == "remove" and len(components) > 1:
            del components[draw(st.sampled_from(names))]
        else:
            edit(draw, components, names, "/components/schemas", Dialect("/components/schemas", "3.1"),
                 draw(st.integers(1, 2)))
        texts.append(document(components))
    return texts


@settings(max_examples=int(os.environ.get("SCHEMAGEN_FUZZ_EXAMPLES", "40")), deadline=None, derandomize=True,
          database=None, suppress_health_check=list(HealthCheck))
@given(edit_sequences())
def test_random_edits_through_a_resident_process_give_what_a_fresh_one_gives(texts: list[str]) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(resident, "_tables", {})
        monkeypatch.setattr(load, "PIECES_FROM", 0)
        monkeypatch.setattr(yaml_pieces, "SPLIT", 0)
        runs(texts, monkeypatch)


def test_a_resident_cache_is_used_from_one_thread_after_another(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A server runs each request in a thread of its own; the cache's database outlives them. (Each
    thread stays alive until the end: a finished thread's identity can go to the next one, and sqlite's
    same-thread check would then pass where the server's threads fail it.)"""
    monkeypatch.setenv(caching.ENV, str(tmp_path))
    monkeypatch.setattr(caching, "_resident", {})

    finished = threading.Event()
    failures: list[BaseException] = []

    def run(i: int, ran: threading.Event) -> None:
        try:
            store = Cache.from_environment()
            assert store is not None
            store.get_many("test", [f"missing {i}"])
            store.put("test", f"key {i}", b"value")
            caching.flush()  # as the server does after each run
        except BaseException as exc:  # noqa: BLE001 (reported below, in the test's thread)
            failures.append(exc)
        ran.set()
        finished.wait()  # alive until the end: the next run's thread cannot reuse this one's identity

    workers = []
    for i in range(3):
        ran = threading.Event()
        workers.append(threading.Thread(target=run, args=(i, ran)))
        workers[-1].start()
        ran.wait()  # one run at a time, as in the server
    finished.set()
    for worker in workers:
        worker.join()
    assert not failures, failures
    assert Cache(tmp_path).get_many("test", [f"key {i}" for i in range(3)]) == {f"key {i}": b"value" for i in range(3)}
