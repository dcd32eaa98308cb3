"""The order pass: by name, each declaration below what it needs at import, in linear time.

``reference`` is the plain statement of the rule (place, round after round, every waiting
declaration whose needs are placed; then cut cycles one alias at a time); the pass must give the
same module and the same diagnostics on random declaration graphs, without its quadratic cost.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schemagen import ir
from schemagen.ir.walk import refs
from conftest import ROOT
from schemagen.diagnostics import Reporter

ordering = importlib.import_module("schemagen.passes.order")  # the package exports the function `order`


def _needs(d: ir.Declaration, aliases: dict[str, ir.Type]) -> set[str]:
    """What ``d`` needs at import, read off the IR: an alias, all it names; a model, the aliases of a
    ``Literal`` a plain default of it may be a member of, through unions, constraints and aliases."""
    if isinstance(d, ir.Alias):
        return set(refs(d.type))
    found: set[str] = set()
    for f in d.fields:
        if f.default is None or isinstance(f.default.value, (list, dict)):
            continue
        seen: set[str] = set()
        pending = [f.type]
        while pending:
            t = pending.pop()
            if isinstance(t, ir.Union):
                pending.extend(t.members)
            elif isinstance(t, ir.Constrained):
                pending.append(t.type)
            elif isinstance(t, ir.Ref) and t.module is None and t.name in aliases and t.name not in seen:
                seen.add(t.name)
                if isinstance(aliases[t.name], ir.Literal):
                    found.add(t.name)
                else:
                    pending.append(aliases[t.name])
    return found - {d.name}


def _is(t: ir.Type) -> set[str]:
    """The names ``t`` is, through unions and constraints alone."""
    if isinstance(t, ir.Ref) and t.module is None:
        return {t.name}
    if isinstance(t, ir.Union):
        return set().union(*(_is(m) for m in t.members))
    return _is(t.type) if isinstance(t, ir.Constrained) else set()


def _pure_cycle(waiting: list[ir.Declaration], stuck: set[str]) -> list[str]:
    """The first cycle, in the order of ``waiting`` and then by name, of aliases that are each other."""
    edges = {d.name: _is(d.type) & stuck for d in waiting if isinstance(d, ir.Alias)}

    def walk(name: str, path: list[str]) -> list[str]:
        if name in path:
            return path[path.index(name):]
        return next((found for target in sorted(edges.get(name, ())) if (found := walk(target, [*path, name]))), [])

    return next((cycle for name in edges if (cycle := walk(name, []))), [])


def reference(module: ir.Module, reporter: Reporter) -> ir.Module:
    """The rule, stated directly on the IR (quadratic): what ``order`` must give."""
    aliases = {d.name: d.type for d in module.declarations if isinstance(d, ir.Alias)}
    placed: dict[str, ir.Declaration] = {}
    waiting: list[ir.Declaration] = []

    def settle() -> None:
        while ready := [w for w in waiting if all(n in placed for n in _needs(w, aliases))]:
            for declaration in ready:
                waiting.remove(declaration)
                placed[declaration.name] = declaration

    for d in ordering.canonical(module):
        waiting.append(d)
        settle()
    while waiting:
        stuck = {w.name for w in waiting}
        pure = _pure_cycle(waiting, stuck)
        if pure:
            for d in waiting:
                reporter.error(ordering.location(d), f"type aliases that are each other, in a cycle: {', '.join(pure)}",
                               "such a type has no values; make one of them an object or a list")
            return ir.Module(tuple(placed.values()) + tuple(waiting), module.root)
        cut = next((w for w in waiting if isinstance(w, ir.Alias)), waiting[0])
        waiting[waiting.index(cut)] = ordering.cut(cut, frozenset(stuck), reporter)
        settle()
    return ir.Module(tuple(placed.values()), module.root)


@st.composite
def modules(draw: st.DrawFn) -> ir.Module:
    names = [f"D{i}" for i in range(draw(st.integers(1, 8)))]
    leaf = st.one_of(st.sampled_from(names).map(ir.Ref), st.just(ir.Null()), st.just(ir.Scalar("str")))
    types = st.recursive(leaf, lambda inner: st.one_of(
        inner.map(ir.Array), st.lists(inner, min_size=2, max_size=3).map(lambda ms: ir.union(*ms))), max_leaves=4)
    declarations: list[ir.Declaration] = []
    for name in draw(st.permutations(names)):
        if draw(st.booleans()):
            declarations.append(ir.Alias(name, draw(types)))
        else:
            fields = [ir.Field(f"f{i}", f"f{i}", draw(types), False, draw(st.sampled_from([None, ir.Default("x")])))
                      for i in range(draw(st.integers(0, 3)))]
            declarations.append(ir.Model(name, tuple(fields)))
    return ir.Module(tuple(declarations))


@settings(max_examples=400)
@given(modules())
def test_order_is_the_rule(module: ir.Module) -> None:
    expected, got = Reporter(), Reporter()
    assert ordering.order(module, got) == reference(module, expected)
    assert got == expected


def _chain(length: int) -> ir.Module:
    """``A0 = A1 | None``, ``A1 = A2 | None``…: every alias waits for the next, declared after it."""
    return ir.Module(tuple(ir.Alias(f"A{i}", ir.union(ir.Ref(f"A{i + 1}"), ir.Null())) for i in range(length))
                     + (ir.Alias(f"A{length}", ir.Scalar("str")),))


@pytest.mark.parametrize("length", [200, 2000])
def test_order_reads_each_declaration_once(length: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """SchemaStore's vector.json (8,000 declarations) took minutes when every placement looked at
    every waiting declaration again."""
    calls = 0
    needs = ordering._needs

    def counted(*args: Any) -> set[str]:
        nonlocal calls
        calls += 1
        return needs(*args)

    monkeypatch.setattr(ordering, "_needs", counted)
    result = ordering.order(_chain(length), Reporter())
    assert [d.name for d in result.declarations] == [f"A{i}" for i in range(length, -1, -1)]
    assert calls <= length + 1


@pytest.mark.parametrize("variant", ["dataclass", "typeddict", "msgspec"])
def test_the_order_of_definitions_changes_nothing(tmp_path: Path, variant: str) -> None:
    """A provider regenerating its spec with the definitions in another order: the same module."""
    from schemagen import render
    from schemagen.project.inputs import Input
    from schemagen.project.pipeline import to_ir

    seed = json.loads((ROOT / "schemas" / "chat_completion_out.json").read_text())
    shuffled = {**seed, "definitions": dict(reversed(list(seed["definitions"].items())))}
    texts = []
    for name, document in (("a", seed), ("b", shuffled)):
        folder = tmp_path / name
        folder.mkdir()
        (folder / "schema.json").write_text(json.dumps(document))
        module = to_ir(Input("x", folder / "schema.json", "schema.json"), folder, Reporter())
        texts.append(render.render(module, variant, "schema.json", render.environment()))
    assert texts[0] == texts[1]


def test_a_plain_default_waits_only_for_the_enums_it_may_be_a_member_of() -> None:
    """``items: Schema | schemaArray = True`` (the draft-07 meta-schema) names neither alias: no cycle to
    cut. ``kind: Kind = "a"`` may be ``Kind.A`` (``enums = "class"``): ``Kind`` comes first."""
    schema = ir.union(ir.Ref("SchemaObject"), ir.Scalar("bool"))
    module = ir.Module((
        ir.Model("SchemaObject", (
            ir.Field("items", "items", ir.union(ir.Ref("Schema"), ir.Ref("schemaArray")), False, ir.Default(True)),
            ir.Field("kind", "kind", ir.Ref("Kind"), False, ir.Default("a")))),
        ir.Alias("Schema", schema),
        ir.Alias("schemaArray", ir.Array(ir.Ref("Schema"))),
        ir.Alias("Kind", ir.Literal(("a", "b"))),
    ))
    reporter = Reporter()
    result = ordering.order(module, reporter)
    assert reporter.warnings == [] and reporter.errors == []
    assert [d.name for d in result.declarations] == ["Kind", "SchemaObject", "Schema", "schemaArray"]
