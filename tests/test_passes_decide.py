"""The passes as the incremental design wants them (docs/incremental.md, step 1): a pass decides over
small summaries of the declarations, and applies to each declaration only the decisions it says it
reads, so that an unchanged declaration whose decisions are unchanged is known unchanged.

Checked on the module as it reaches the pass, for every golden case and OpenAI's description: the
pass applied to one declaration alone, with only what it reads of the decisions, gives what the pass
applied to the whole module gives that declaration. The passes of defaults decide nothing over the
module: each checks a declaration's defaults against the declarations they reach, so the pass applied
to a declaration with what it reaches gives what it gives in the whole module."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

from schemagen import ir, passes
from schemagen.diagnostics import Reporter, SchemaError
from schemagen.ir.walk import reachable
from schemagen.names import Naming
from schemagen.passes import defaults, naming, required_defaults as required, tags
from schemagen.project import pipeline
from schemagen.project.inputs import Input

from conftest import shared
from golden import ROOT, Case, cases

ordering = importlib.import_module("schemagen.passes.order")  # (the package exports the functions)
sharing = importlib.import_module("schemagen.passes.share")


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


def _share_reads_what_it_says(module: ir.Module) -> None:
    by_name = {d.name: d for d in module.declarations}
    decided = sharing.decide([sharing.summary(d) for d in module.declarations], by_name.__getitem__)
    _alone_as_in_the_whole(module, decided, lambda d: {d.name, *sharing.summary(d).refers}, sharing.shared,
                           gone=lambda d: d.name in decided)


def _alone_as_in_the_whole(module: ir.Module, decisions: Mapping[str, Any], reads: Callable[[ir.Declaration], set[str]],
                           apply: Callable[[ir.Module, Mapping[str, Any]], ir.Module],
                           gone: Callable[[ir.Declaration], bool] = lambda d: False) -> None:
    """Each declaration, applied ``decisions`` alone with only those it ``reads``, is what it is in the
    whole module applied all of them (or, ``gone``, is not there)."""
    whole = iter(apply(module, decisions).declarations)
    for d in module.declarations:
        told = {name: decisions[name] for name in reads(d) if name in decisions}
        expected = () if gone(d) else (next(whole),)
        assert apply(ir.Module((d,), None), told).declarations == expected, d.name
    assert next(whole, None) is None


def _reaching_each(module: ir.Module, apply: Callable[[ir.Module], ir.Module]) -> None:
    """Each declaration with a default, in a module of it and the declarations it reaches alone, comes
    out of ``apply`` as it does out of the whole module (the others it leaves as they are)."""
    whole = {d.name: d for d in apply(module).declarations}
    for d in module.declarations:
        if isinstance(d, ir.Model) and any(f.default is not None for f in d.fields):
            alone = {e.name: e for e in apply(reachable(module, [d.name])).declarations}
            assert alone[d.name] == whole[d.name], d.name


def _inputs(case: Case) -> list[Input]:
    return [Input("case", source, source.relative_to(ROOT).as_posix(), case.dialect,  # type: ignore[arg-type]
                  required_defaults=case.settings.get("required_defaults"))  # type: ignore[arg-type]
            for source in case.inputs]


def _openai(names: Naming = "schema", setting: Any = None) -> tuple[Input, Path]:
    source = shared("corpora/openai/openapi.yaml")
    return Input("openai", source, "openapi.yaml", names=names, required_defaults=setting), source.parent


PASSES: dict[str, tuple[Any, Callable[[ir.Module, Input], None]]] = {
    "naming": (naming.name, lambda module, item: _naming_reads_what_it_says(module, item.names)),
    "tags": (tags.tag, lambda module, item: _tags_read_what_they_say(module)),
    "order": (ordering.order, lambda module, item: _order_reads_what_it_says(module)),
    "share": (sharing.share, lambda module, item: _share_reads_what_it_says(module)),
    "required_defaults": (required.read_required_defaults, lambda module, item: _reaching_each(
        module, lambda m: required.read_required_defaults(m, Reporter(), item.required_defaults))),
    "check_defaults": (defaults.check_defaults, lambda module, item: _reaching_each(
        module, lambda m: defaults.check_defaults(m, Reporter()))),
    "break_endless_defaults": (defaults.break_endless_defaults, lambda module, item: _reaching_each(
        module, lambda m: defaults.break_endless_defaults(m, Reporter()))),
}
"""Each pass: the function in the pipeline, and the check of what it reads."""


@pytest.mark.parametrize("step", PASSES)
@pytest.mark.parametrize("case", cases(), ids=lambda c: c.name)
def test_a_pass_applies_to_a_declaration_only_what_it_reads(case: Case, step: str,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    function, check = PASSES[step]
    for item in _inputs(case):
        module = _reaching(function, item, ROOT, monkeypatch)
        if module is not None:
            check(module, item)


@pytest.mark.parametrize(("step", "names", "setting"), [
    *((step, "schema", None) for step in PASSES), ("naming", "sdk", None),
    *((step, "schema", "optional") for step in ("required_defaults", "check_defaults", "break_endless_defaults"))])
def test_a_pass_applies_to_a_declaration_only_what_it_reads_in_openais_description(
        step: str, names: Naming, setting: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    function, check = PASSES[step]
    item, root = _openai(names, setting)
    module = _reaching(function, item, root, monkeypatch)
    assert module is not None and len(module.declarations) > 1000
    check(module, item)


def test_order_applies_to_a_declaration_only_its_own_cut_in_a_cycle() -> None:
    """``Env = dict[str, EnvValue]``, ``EnvValue = str | Env``: one of them is cut, alone as in the whole."""
    module = ir.Module((ir.Alias("Env", ir.Map(ir.Ref("EnvValue"))), ir.Alias("EnvValue", ir.union(ir.Scalar("str"), ir.Ref("Env"))),
                        ir.Model("Holder", (ir.Field("env", "env", ir.Ref("Env"), True),))))
    placement = ordering.decide([ordering.summary(d) for d in ordering.canonical(module)])
    assert list(placement.cut) == ["Env"]
    _order_reads_what_it_says(module)
