"""The pydantic variant against the msgspec variant, the reference: every payload msgspec reads, pydantic
reads, to the same JSON; every payload msgspec refuses, pydantic refuses; except where a row of the table
in docs/semantics.md, "pydantic's lax mode", differs in the same kind (tests/lax_table.py). What "the
same JSON" means: tests/pydantic_reading.py. Where the msgspec variant reads what a class holds otherwise
by design (``msgspec_reads_otherwise``: a widened union, say) only that neither crashes is checked.

On the recorded-style payloads (tests/fixtures/payloads, through this project's inputs), the recorded
stream (tests/fixtures/streams), and random payloads of every golden case's classes, broken or not
(tests/payload_strategies.py) and of random schemas (tests/fuzz_strategies.py). OpenAI's description:
tests/test_pydantic_openai.py.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import bench_module, examples
from fuzz_strategies import documents, model_documents
from golden import ROOT, Case, cases
from lax_table import disagreement
from payload_strategies import class_payloads, lowered_classes
from pydantic_reading import msgspec_reads, msgspec_reads_otherwise
from schemagen import ir
from schemagen.diagnostics import Reporter
from schemagen.project.config import load
from schemagen.project.inputs import Input, discover
from schemagen.project.pipeline import Renderer, to_ir
from schemagen.render.options import RenderOptions

modules = bench_module("modules")
PAYLOADS = ROOT / "tests" / "fixtures" / "payloads"
STREAMS = ROOT / "tests" / "fixtures" / "streams"
RENDERER = Renderer(None, RenderOptions())


def _generated(item: Input, root: Path) -> tuple[ModuleType, ModuleType]:
    module = to_ir(item, root, Reporter())
    ms, py = (modules.exec_module(RENDERER.render(module, v, item.display), item.name) for v in ("msgspec", "pydantic"))
    return ms, py


@cache
def _package(name: str) -> tuple[ModuleType, ModuleType]:
    """The msgspec and pydantic modules of this project's input ``name`` (generated/ has no pydantic ones)."""
    item = next(i for i in discover(load(ROOT)) if i.name == name)
    return _generated(item, ROOT)


def _fixtures() -> list[Path]:
    found = sorted(PAYLOADS.glob("*/*/*/*.json"))
    assert found
    return found


@pytest.mark.parametrize("fixture", _fixtures(), ids=lambda p: p.relative_to(PAYLOADS).as_posix())
def test_every_payload_fixture_reads_as_msgspec_reads_it(fixture: Path) -> None:
    package, root = fixture.parent.parent.parent.name, fixture.parent.parent.name
    ms, py = _package(package)
    payload = json.loads(fixture.read_bytes())
    assert msgspec_reads(getattr(ms, root), fixture.read_bytes()).read == (fixture.parent.name == "valid")
    assert disagreement(getattr(ms, root), getattr(py, root), payload) is None


@pytest.fixture(scope="module")
def stream() -> Iterator[tuple[ModuleType, ModuleType]]:
    ms, py = _generated(Input("stream", STREAMS / "message_stream.json", "message_stream.json"), STREAMS)
    yield ms, py
    modules.forget_module(ms)
    modules.forget_module(py)


LINES = (STREAMS / "message_stream.jsonl").read_text().splitlines()


@pytest.mark.parametrize("line", LINES, ids=[f"line {i}" for i in range(1, len(LINES) + 1)])
def test_every_recorded_event_reads_as_msgspec_reads_it(stream: tuple[ModuleType, ModuleType], line: str) -> None:
    """The stream's root is a union of events (an alias): pydantic reads it with a ``TypeAdapter``."""
    ms, py = stream
    assert disagreement(ms.MessageStreamEvent, py.MessageStreamEvent, json.loads(line)) is None


GOLDEN_CASES = [c for c in cases() if (c.folder / "expected" / "pydantic_models.py").exists()]


@pytest.mark.parametrize("case", GOLDEN_CASES, ids=lambda c: c.name)
def test_the_golden_cases_classes_read_random_payloads_alike(case: Case) -> None:
    """Every class of every golden case (its expected modules), with payloads of its IR, broken or not."""
    source = case.inputs[0]
    module = to_ir(Input("case", source, source.relative_to(ROOT).as_posix(), case.dialect), ROOT, Reporter())
    declarations = {d.name: d for d in module.declarations}
    models = [d for d in module.declarations if isinstance(d, ir.Model)]
    if not models:
        pytest.skip("no class")
    ms, py = (modules.exec_module((case.folder / "expected" / f"{v}_models.py").read_text(), case.name)
              for v in ("msgspec", "pydantic"))
    otherwise = {m.name: msgspec_reads_otherwise(m, declarations) for m in models}
    checked = Counter[str]()

    @settings(max_examples=examples(40), suppress_health_check=list(HealthCheck))
    @given(st.data())
    def check(data: st.DataObject) -> None:
        [(model, payload)] = class_payloads(data, module, rounds=1)
        problem = disagreement(getattr(ms, model.name), getattr(py, model.name), payload)  # always: no crash
        assert problem is None or otherwise[model.name], f"{model.name} {json.dumps(payload)}: {problem}"
        checked[model.name] += not otherwise[model.name]

    try:
        check()
        assert checked or all(otherwise.values()), "no payload was held to agree"
    finally:
        modules.forget_module(ms)
        modules.forget_module(py)


def test_random_schemas_and_payloads_read_alike() -> None:
    """Random documents, mostly of objects (tests/fuzz_strategies.py); payloads of their classes' IR, broken
    or not."""
    checked: Counter[str] = Counter()

    @settings(max_examples=examples(100), suppress_health_check=list(HealthCheck))
    @given(st.data())
    def check(data: st.DataObject) -> None:
        drawn = lowered_classes(data, st.one_of(model_documents(), model_documents(), documents()))
        if drawn is None:
            return
        case, module = drawn
        ms, py = (modules.exec_module(RENDERER.render(module, v, case.input_name), "random") for v in ("msgspec", "pydantic"))
        try:
            declarations = {d.name: d for d in module.declarations}
            for model, payload in class_payloads(data, module):
                problem = disagreement(getattr(ms, model.name), getattr(py, model.name), payload)  # always: no crash
                if not msgspec_reads_otherwise(model, declarations):
                    assert problem is None, f"{model.name} {json.dumps(payload)}: {problem}\n{case.describe()}"
                    checked["read" if msgspec_reads(getattr(ms, model.name), json.dumps(payload)).read else "refused"] += 1
        finally:
            modules.forget_module(ms)
            modules.forget_module(py)

    check()
    assert checked["read"] >= 10 and checked["refused"] >= 1, checked  # (the draws vary with what the process imported)
