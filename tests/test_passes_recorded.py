"""The passes declaration by declaration, with their record (``passes.recorded``), against the passes one
after the other over the whole module (``passes.stepwise``); and the passes again after an edit of one
declaration (``passes.again``) against the passes over the whole edited module: the same module, the
same warnings, and the record the whole run keeps. On every golden case and OpenAI's description."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest

from schemagen import ir, passes
from schemagen.diagnostics import Reporter, SchemaError
from schemagen.frozen import replace
from schemagen.names import Naming
from schemagen.passes import Record
from schemagen.project import pipeline
from schemagen.project.inputs import Input

from conftest import shared
from golden import ROOT, Case, cases

RECORDED = sys.modules["schemagen.passes.recorded"]  # (``passes.recorded`` is the function of that name)


def _modules(items: list[Input], root: Path, monkeypatch: pytest.MonkeyPatch) -> list[tuple[ir.Module, Input]]:
    """Each input's module as lowering hands it to the passes (those with errors left out)."""
    found: list[tuple[ir.Module, Input]] = []
    for item in items:
        def run(module: ir.Module, reporter: Reporter, setting: Any = None, names: Naming = "schema",
                item: Input = item) -> ir.Module:
            found.append((module, item))
            return passes.stepwise(module, reporter, setting, names)
        monkeypatch.setattr(pipeline.passes, "run", run)
        try:
            pipeline.to_ir(item, root, Reporter())
        except SchemaError:
            pass
    return found


def _stepwise(module: ir.Module, item: Input) -> tuple[ir.Module | None, list[str]]:
    reporter = Reporter()
    out = passes.stepwise(module, reporter, item.required_defaults, item.names)
    return (None if reporter.errors else out), [str(d) for d in (*reporter.errors, *reporter.warnings)]


def _recorded(module: ir.Module, item: Input) -> tuple[ir.Module | None, list[str], Record]:
    reporter = Reporter()
    out, record = passes.recorded(module, reporter, item.required_defaults, item.names)
    return (None if reporter.errors else out), [str(d) for d in (*reporter.errors, *reporter.warnings)], record


def _edits(module: ir.Module, rnd: random.Random, count: int) -> list[tuple[str, ir.Module]]:
    """Edits of one declaration each: its description, a field dropped, made optional, or typed ``str``."""
    out = []
    for _ in range(count):
        i = rnd.randrange(len(module.declarations))
        d = module.declarations[i]
        kinds = ["doc"] + (["drop", "optional", "str"] if isinstance(d, ir.Model) and d.fields else [])
        kind = rnd.choice(kinds)
        if kind == "doc":
            e: ir.Declaration = replace(d, doc=f"edited {rnd.random()}")
        else:
            assert isinstance(d, ir.Model)
            j = rnd.randrange(len(d.fields))
            f = d.fields[j]
            fields = list(d.fields)
            if kind == "drop":
                del fields[j]
            else:
                fields[j] = replace(f, required=False) if kind == "optional" else replace(f, type=ir.Scalar("str"))
            e = replace(d, fields=tuple(fields))
        edited = module.declarations[:i] + (e,) + module.declarations[i + 1:]
        out.append((f"{d.name}: {kind}", ir.Module(edited, module.root)))
    return out


def _check(module: ir.Module, item: Input, rnd: random.Random, count: int) -> int | None:
    """The whole recorded run is the stepwise one; each edit's run again is the whole run of the edit.
    How many edits went through ``again`` (the others ran whole); ``None``: the module has errors."""
    expected = _stepwise(module, item)
    out, said, record = _recorded(module, item)
    assert (out, said) == expected
    if out is None:
        return None
    went = 0
    for what, edited in _edits(module, rnd, count):
        name = what.split(":")[0]
        whole_out, whole_said, whole_record = _recorded(edited, item)
        assert (whole_out, whole_said) == _stepwise(edited, item), what
        reporter = Reporter()
        done = passes.again(edited, {name}, record, reporter, item.required_defaults, item.names)
        if done is None:
            continue
        went += 1
        assert whole_out is not None, what
        assert done[0] == whole_out, what
        assert [str(d) for d in (*reporter.errors, *reporter.warnings)] == whole_said, what
        assert done[1] == whole_record, what
    return went


def _inputs(case: Case) -> list[Input]:
    return [Input("case", source, source.relative_to(ROOT).as_posix(), case.dialect,  # type: ignore[arg-type]
                  required_defaults=case.settings.get("required_defaults"))  # type: ignore[arg-type]
            for source in case.inputs]


@pytest.mark.parametrize("case", cases(), ids=lambda c: c.name)
def test_the_passes_recorded_and_again_give_what_the_passes_whole_give(case: Case,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    rnd = random.Random(case.name)
    for module, item in _modules(_inputs(case), ROOT, monkeypatch):
        went = _check(module, item, rnd, 12)
        assert went is None or went > 0  # (of 612 edits of every golden case, 593 go through ``again``)


@pytest.mark.parametrize(("names", "setting"), [("schema", None), ("sdk", None), ("schema", "optional")])
def test_the_passes_recorded_and_again_give_what_the_passes_whole_give_on_openais_description(
        names: Naming, setting: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    source = shared("corpora/openai/openapi.yaml")
    item = Input("openai", source, "openapi.yaml", names=names, required_defaults=setting)
    [(module, _)] = _modules([item], source.parent, monkeypatch)
    assert len(module.declarations) > 1000
    went = _check(module, item, random.Random(1), 12)
    assert went is not None and went >= 8  # (most edits of one declaration change no decision over the module)


def test_a_record_says_nothing_of_a_module_of_other_names(monkeypatch: pytest.MonkeyPatch) -> None:
    """An edit that adds or drops a declaration, or renames one, runs the passes whole."""
    module = ir.Module((ir.Model("A", (ir.Field("b", "b", ir.Ref("B"), True),)), ir.Alias("B", ir.Scalar("int"))))
    _, record = passes.recorded(module, Reporter())
    grown = ir.Module((*module.declarations, ir.Alias("C", ir.Scalar("str"))))
    assert passes.again(grown, {"C"}, record, Reporter()) is None
    assert passes.again(ir.Module(module.declarations[:1] + (ir.Alias("B", ir.Scalar("str")),)), {"B"}, record,
                        Reporter()) is not None


def test_the_invariants_are_checked_whole_and_again() -> None:
    """Names unique and every reference declared (``check_refs``): over the whole module, and over the
    declarations ``again`` redoes (the others are the names the record holds)."""
    with pytest.raises(AssertionError, match="unique"):
        passes.recorded(ir.Module((ir.Alias("A", ir.Scalar("int")), ir.Alias("A", ir.Scalar("str")))), Reporter())
    module = ir.Module((ir.Alias("A", ir.Ref("B")), ir.Alias("B", ir.Scalar("int"))))
    _, record = passes.recorded(module, Reporter())
    with pytest.raises(AssertionError, match="undeclared"):
        passes.again(ir.Module((ir.Alias("A", ir.Ref("C")), module.declarations[1])), {"A"}, record, Reporter())


def _again_and_whole(module: ir.Module, edited: ir.Module, name: str, decided: list[int]
                     ) -> tuple[tuple[Any, ...], tuple[Any, ...], bool]:
    """``again`` after an edit of ``name``, and the passes over the whole edited module: (again's module,
    warnings and record; ``None`` where it ran none), the same of the whole run, and whether ``again``
    decided (``decided``: a spy's)."""
    _, record = passes.recorded(module, Reporter())
    decided.clear()
    said = Reporter()
    done = passes.again(edited, {name}, record, said)
    again_decided = bool(decided)
    whole, heard = passes.recorded(edited, whole_said := Reporter())
    return (None if done is None else (done[0], [str(d) for d in said.warnings], done[1]),
            (whole, [str(d) for d in whole_said.warnings], heard), again_decided)


def _field(name: str, t: ir.Type = ir.Scalar("str")) -> ir.Field:
    return ir.Field(name, name, t, True)


@pytest.mark.parametrize(("edited_fields", "decides"), [
    ((_field("id"), _field("extra")), False),  # an outline no inline declaration has, then or now
    ((_field("x"), _field("y")), True),  # now the inline copy's outline: the copy may go
])
def test_a_named_declarations_new_shape_decides_sharing_again_only_where_an_inline_one_has_it(
        edited_fields: tuple[ir.Field, ...], decides: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """``share`` compares an inline declaration with the named ones of its outline: a named declaration whose
    outline, then and now, is no inline declaration's is no one's twin, and sharing is not decided again."""
    copy = ir.Model("OwnerPoint", (_field("x"), _field("y")), inline=True)
    module = ir.Module((ir.Model("Owner", (_field("point", ir.Ref("OwnerPoint")),)), copy,
                        ir.Model("Key", (_field("id"),)), ir.Model("Other", (_field("z"),))))
    edited = ir.Module((*module.declarations[:2], ir.Model("Key", edited_fields), module.declarations[3]))
    decided: list[int] = []
    decide = RECORDED.share
    monkeypatch.setattr(RECORDED, "share", lambda *a: decided.append(1) or decide(*a))
    again, whole, decided_again = _again_and_whole(module, edited, "Key", decided)
    assert decided_again == decides
    assert again == (None if decides else whole)  # (the copy now goes: a decision otherwise, the passes run whole)
    assert ("OwnerPoint" in whole[2].gone) == decides


@pytest.mark.parametrize(("member", "decides"), [("Other", False), ("Key", True)])
def test_a_models_new_keys_decide_tags_again_only_where_a_union_reads_it(
        member: str, decides: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """``tags`` reads a model's keys and constants where a union has it as a member: a model no union reads
    (whose own unions are as they were) is tagged by no one, and tags are not decided again."""
    kind = ir.Literal(("a",))
    union = ir.Union((ir.Ref(member), ir.Ref("Third")))
    module = ir.Module((ir.Alias("Either", union), ir.Model("Key", (_field("kind", kind),)),
                        ir.Model("Other", (_field("kind", ir.Literal(("b",))),)),
                        ir.Model("Third", (_field("kind", ir.Literal(("c",))),))))
    same = ir.Literal(("c",))  # (Third's: no longer a tag that tells them apart)
    edited = ir.Module((module.declarations[0], ir.Model("Key", (_field("kind", same), _field("more"))),
                        *module.declarations[2:]))
    decided: list[int] = []
    decide = RECORDED.tag
    monkeypatch.setattr(RECORDED, "tag", lambda *a: decided.append(1) or decide(*a))
    again, whole, decided_again = _again_and_whole(module, edited, "Key", decided)
    assert decided_again == decides
    assert again is None or again == whole
    assert again is not None or decides
    assert any("untagged" in w or "apart" in w for w in whole[1]) == decides
