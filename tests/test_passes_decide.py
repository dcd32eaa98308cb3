"""The passes as the incremental design wants them (docs/incremental.md, step 1): a pass decides over
small summaries of the declarations, and applies to each declaration only the decisions it says it
reads, so that an unchanged declaration whose decisions are unchanged is known unchanged.

Checked on the module as it reaches the pass, for every golden case and OpenAI's description: the
pass applied to one declaration alone, with only what it reads of the decisions, gives what the pass
applied to the whole module gives that declaration."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

from schemagen import ir, passes
from schemagen.diagnostics import Reporter, SchemaError
from schemagen.names import Naming
from schemagen.passes import naming, tags
from schemagen.project import pipeline
from schemagen.project.inputs import Input

from conftest import shared
from golden import ROOT, Case, cases

ordering = importlib.import_module("schemagen.passes.order")  # (the package exports the function)


def _reaching(step: Any, item: Input, root: Path, monkeypatch: pytest.MonkeyPatch) -> ir.Module | None:
    """The module as ``item``'s passes hand it to ``step`` (``None``: the input has errors)."""
    found: list[ir.Module] = []

    def run(module: ir.Module, reporter: Reporter, required_defaults: Any = None, names: Naming = "schema") -> ir.Module:
        for each in passes.pipeline(required_defaults, names):
            if getattr(each, "func", each) is step:
                found.append(module)
            module = each(module, reporter)
        return module

    monkeypatch.setattr(pipeline.passes, "run", run)
    try:
        pipeline.to_ir(item, root, Reporter())
    except SchemaError:
        return None
    return found[0]


def _naming_reads_what_it_says(module: ir.Module, names: Naming) -> None:
    classes = naming.class_names([(d.name, d.inline) for d in module.declarations], names)
    _alone_as_in_the_whole(module, classes, naming.reads, lambda m, told: naming.named(m, told, Reporter()))


def _tags_read_what_they_say(module: ir.Module) -> None:
    decided = tags.decide([tags.summary(d) for d in module.declarations], Reporter())
    _alone_as_in_the_whole(module, decided, lambda d: {d.name}, tags.tagged)


def _order_reads_what_it_says(module: ir.Module) -> None:
    """A declaration reads of the placement its own cut alone (the order places it, and changes it not)."""
    placement = ordering.decide([ordering.summary(d) for d in ordering.canonical(module)])
    whole = {d.name: d for d in ordering.placed(module, placement, Reporter()).declarations}
    for d in module.declarations:
        told = ordering.Placement((d.name,), {d.name: placement.cut[d.name]} if d.name in placement.cut else {})
        assert ordering.placed(ir.Module((d,), None), told, Reporter()).declarations == (whole[d.name],), d.name


def _alone_as_in_the_whole(module: ir.Module, decisions: Mapping[str, Any], reads: Callable[[ir.Declaration], set[str]],
                           apply: Callable[[ir.Module, Mapping[str, Any]], ir.Module]) -> None:
    """Each declaration, applied ``decisions`` alone with only those it ``reads``, is what it is in the
    whole module applied all of them."""
    whole = apply(module, decisions)
    for d, expected in zip(module.declarations, whole.declarations, strict=True):
        told = {name: decisions[name] for name in reads(d) if name in decisions}
        assert apply(ir.Module((d,), None), told).declarations == (expected,), d.name


def _inputs(case: Case) -> list[Input]:
    return [Input("case", source, source.relative_to(ROOT).as_posix(), case.dialect)  # type: ignore[arg-type]
            for source in case.inputs]


def _openai(names: Naming = "schema") -> tuple[Input, Path]:
    source = shared("corpora/openai/openapi.yaml")
    return Input("openai", source, "openapi.yaml", names=names), source.parent


@pytest.mark.parametrize("case", cases(), ids=lambda c: c.name)
def test_naming_applies_to_a_declaration_only_the_names_it_reads(case: Case, monkeypatch: pytest.MonkeyPatch) -> None:
    for item in _inputs(case):
        module = _reaching(naming.name, item, ROOT, monkeypatch)
        if module is not None:
            _naming_reads_what_it_says(module, "schema")


@pytest.mark.parametrize("names", ["schema", "sdk"])
def test_naming_applies_to_a_declaration_only_the_names_it_reads_in_openais_description(
        names: Naming, monkeypatch: pytest.MonkeyPatch) -> None:
    module = _reaching(naming.name, *_openai(names), monkeypatch)
    assert module is not None and len(module.declarations) > 1000
    _naming_reads_what_it_says(module, names)


@pytest.mark.parametrize("case", cases(), ids=lambda c: c.name)
def test_tags_apply_to_a_model_only_its_own_tag(case: Case, monkeypatch: pytest.MonkeyPatch) -> None:
    for item in _inputs(case):
        module = _reaching(tags.tag, item, ROOT, monkeypatch)
        if module is not None:
            _tags_read_what_they_say(module)


def test_tags_apply_to_a_model_only_its_own_tag_in_openais_description(monkeypatch: pytest.MonkeyPatch) -> None:
    module = _reaching(tags.tag, *_openai(), monkeypatch)
    assert module is not None and len(module.declarations) > 1000
    _tags_read_what_they_say(module)


@pytest.mark.parametrize("case", cases(), ids=lambda c: c.name)
def test_order_applies_to_a_declaration_only_its_own_cut(case: Case, monkeypatch: pytest.MonkeyPatch) -> None:
    for item in _inputs(case):
        module = _reaching(ordering.order, item, ROOT, monkeypatch)
        if module is not None:
            _order_reads_what_it_says(module)


def test_order_applies_to_a_declaration_only_its_own_cut_in_openais_description(
        monkeypatch: pytest.MonkeyPatch) -> None:
    module = _reaching(ordering.order, *_openai(), monkeypatch)
    assert module is not None and len(module.declarations) > 1000
    _order_reads_what_it_says(module)


def test_order_applies_to_a_declaration_only_its_own_cut_in_a_cycle() -> None:
    """``Env = dict[str, EnvValue]``, ``EnvValue = str | Env``: one of them is cut, alone as in the whole."""
    module = ir.Module((ir.Alias("Env", ir.Map(ir.Ref("EnvValue"))), ir.Alias("EnvValue", ir.union(ir.Scalar("str"), ir.Ref("Env"))),
                        ir.Model("Holder", (ir.Field("env", "env", ir.Ref("Env"), True),))))
    placement = ordering.decide([ordering.summary(d) for d in ordering.canonical(module)])
    assert list(placement.cut) == ["Env"]
    _order_reads_what_it_says(module)
