"""The pydantic variant against the msgspec variant on OpenAI's full API description
(../shared/corpora/openai/openapi.yaml; skipped where it is missing), as tests/test_pydantic_agreement.py
holds them on the fixtures: every example object the description holds, and random payloads of its
classes and of the unions its fields hold (tests/payload_strategies.py), broken or not. Where the msgspec
variant reads what a class holds otherwise by design (``msgspec_reads_otherwise``) only that neither
crashes is checked."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from conftest import bench_module, examples, shared
from corpus_tools import union_fields
from lax_table import disagreement
from payload_strategies import mutated, payloads
from pydantic_reading import msgspec_reads, msgspec_reads_otherwise
from schemagen import ir
from schemagen.diagnostics import Reporter
from schemagen.frontend.read import read_document
from schemagen.project.inputs import Input
from schemagen import render
from schemagen.project.pipeline import to_ir

modules = bench_module("modules")
openai_examples = bench_module("openai_examples")
DESCRIPTION = "corpora/openai/openapi.yaml"


@dataclass
class Corpus:
    ir: ir.Module
    msgspec: ModuleType
    pydantic: ModuleType
    otherwise: dict[str, bool]
    """Class → whether the msgspec variant reads what it holds otherwise by design (filled as asked)."""

    @property
    def declarations(self) -> dict[str, ir.Declaration]:
        return {d.name: d for d in self.ir.declarations}

    def differs(self, model: ir.Model) -> bool:
        if model.name not in self.otherwise:
            self.otherwise[model.name] = msgspec_reads_otherwise(model, self.declarations)
        return self.otherwise[model.name]

    def disagreement(self, name: str, payload: Any) -> str | None:
        return disagreement(getattr(self.msgspec, name), getattr(self.pydantic, name), payload)


@pytest.fixture(scope="module")
def corpus() -> Iterator[Corpus]:
    path = shared(DESCRIPTION)
    module = to_ir(Input("openai_full", path, "openapi.yaml"), path.parent, Reporter())
    env = render.environment()  # the modules as laid out, before black: they do the same, and black is most of the cost
    ms, py = (modules.exec_module(render.layout(module, v, "openapi.yaml", env), "openai") for v in ("msgspec", "pydantic"))
    yield Corpus(module, ms, py, {})
    modules.forget_module(ms)
    modules.forget_module(py)


def test_every_example_reads_as_msgspec_reads_it(corpus: Corpus) -> None:
    """Each example object of a component that is a class (bench/openai_examples.py)."""
    classes = openai_examples.component_classes(corpus.ir)
    declarations = corpus.declarations
    outcomes: Counter[str] = Counter()
    problems = []
    for where, component, value in openai_examples.examples(read_document(shared(DESCRIPTION), "openapi.yaml")):
        name = classes.get(component)
        if name is None:
            continue
        problem = corpus.disagreement(name, value)
        model = declarations[name]
        assert isinstance(model, ir.Model)
        if corpus.differs(model):
            outcomes["read otherwise by msgspec"] += 1
            continue
        outcomes["read" if msgspec_reads(getattr(corpus.msgspec, name), json.dumps(value)).read else "refused"] += 1
        if problem is not None:
            problems.append(f"{where} ({name}): {problem}")
    assert not problems, f"{len(problems)} examples read otherwise:\n" + "\n".join(problems[:30])
    print(f"\n[pydantic openai] examples: {dict(outcomes)}")
    assert outcomes["read"] > 300 and outcomes["refused"] > 0, outcomes


def test_random_payloads_read_as_msgspec_reads_them(corpus: Corpus) -> None:
    """A random class's payload, or one whose field holds a random value of the union it is typed with (one
    of its keys dropped now and then: a member's tag, say); broken or not."""
    declarations = corpus.declarations
    models = [d for d in corpus.ir.declarations if isinstance(d, ir.Model)]
    places = [(m, f) for m, f, _ in union_fields(corpus.ir)]
    outcomes: Counter[str] = Counter()

    @settings(max_examples=examples(80), deadline=None, suppress_health_check=list(HealthCheck),
              phases=[Phase.explicit, Phase.generate])
    @given(st.data())
    def check(data: st.DataObject) -> None:
        if data.draw(st.booleans(), label="a union's value"):
            model, f = data.draw(st.sampled_from(places), label="field")
            value = data.draw(payloads(f.type, declarations), label="value")
            if isinstance(value, dict) and value and data.draw(st.booleans(), label="drop a key"):
                value.pop(data.draw(st.sampled_from(sorted(value)), label="key"))
            payload = {**data.draw(payloads(ir.Ref(model.name), declarations), label="object"), f.wire_name: value}
        else:
            model = data.draw(st.sampled_from(models), label="class")
            payload = data.draw(payloads(ir.Ref(model.name), declarations), label="payload")
        if data.draw(st.integers(0, 2), label="break it"):
            payload = data.draw(mutated(payload), label="broken")
        problem = corpus.disagreement(model.name, payload)  # always: no crash
        if corpus.differs(model):
            outcomes["read otherwise by msgspec"] += 1
            return
        read = msgspec_reads(getattr(corpus.msgspec, model.name), json.dumps(payload)).read
        outcomes["read" if read else "refused"] += 1
        assert problem is None, f"{model.name} {json.dumps(payload)[:2000]}: {problem}"

    check()
    print(f"\n[pydantic openai] random payloads: {dict(outcomes)}")
    assert outcomes["read"] >= 20 and outcomes["refused"] >= 10, outcomes
