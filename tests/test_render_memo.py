"""Rendering declaration by declaration (``render.fragment``, ``render.assemble``), and through the
cache that wraps it (generator/cache/memo.py), writes what rendering a module whole writes, whatever
the cache holds from other modules and earlier versions."""

from __future__ import annotations

import dataclasses
import inspect
import json
import pickle
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from schemagen import ir, render
from schemagen.cache import memo as memoising
from schemagen.cache.entries import index_of
from schemagen.cache.format import Session
from schemagen.cache.spliced import starts
from schemagen.cache.store import Cache
from schemagen.diagnostics import Reporter, SchemaError
from schemagen.frozen import Frozen
from schemagen.project.config import ALL_VARIANTS
from schemagen.project.inputs import Input
from schemagen.project.pipeline import to_ir
from schemagen.render.options import RenderOptions

from conftest import examples
from fuzz_strategies import Case, documents, mutations
from golden import ROOT, cases

ENV = render.environment()


def whole(module: Any, variant: str, options: RenderOptions) -> str:
    return render.layout(module, variant, "s.json", ENV, options)


def through(memo: memoising.Memo, module: Any, variant: str, options: RenderOptions) -> str:
    return memo.layout(memo.plan(module, variant, "s.json", options), ENV)


def formatted(memo: memoising.Memo, module: Any, variant: str, options: RenderOptions) -> str:
    """The module formatted through the memo: spliced from formatted fragments where it can be."""
    return memo.formatted(memo.plan(module, variant, "s.json", options), ENV, Session(memo.store))


def lowered(schema: dict[str, Any], folder: Path) -> Any:
    path = folder / "s.json"
    path.write_text(json.dumps(schema), encoding="utf-8")
    return to_ir(Input("s", path, "s.json"), folder, Reporter())


def by_fragments(module: Any, variant: str, options: RenderOptions) -> str:
    contexts = render.contexts(module, variant, options)
    pieces = [render.fragment(d, c, ENV) for d, c in zip(module.declarations, contexts)]
    return render.assemble(module, variant, "s.json", ENV, options, pieces)


@pytest.mark.parametrize("case", [c for c in cases() if not (c.folder / "expected" / "error.txt").exists()],
                         ids=lambda c: c.name)
def test_a_module_by_fragments_is_the_module_rendered_whole(case: Any) -> None:
    """Each fragment is made from its context alone (a rule reading a declaration it does not list
    fails with a ``KeyError``, or writes other text), and the fragments make the module."""
    for source in case.inputs:
        module = to_ir(Input("case", source, source.relative_to(ROOT).as_posix(), case.dialect), ROOT, Reporter())
        for variant in ALL_VARIANTS:
            for options in (case.options, dataclasses.replace(case.options, enums="class")):
                assert by_fragments(module, variant, options) == whole(module, variant, options), (variant, options)


def test_a_fragment_lists_what_it_refers_to_through_aliases_and_defaults(tmp_path: Path) -> None:
    module = lowered({"definitions": {
        "A": {"anyOf": [{"$ref": "#/definitions/B"}, {"type": "integer"}]},
        "B": {"anyOf": [{"$ref": "#/definitions/C"}, {"type": "string"}]},
        "C": {"type": "object", "properties": {"d": {"$ref": "#/definitions/D"}}},
        "D": {"type": "object", "properties": {"x": {"type": "string"}}},
        "E": {"type": "object", "properties": {"c": {"$ref": "#/definitions/C", "default": {"d": {"x": "y"}}},
                                               "a": {"$ref": "#/definitions/A"}}},
    }}, tmp_path)
    contexts = dict(zip((d.name for d in module.declarations), render.contexts(module, "msgspec", RenderOptions())))
    assert list(contexts["A"].refers) == ["B", "C"]  # through the alias B to C, not into C's fields
    assert list(contexts["C"].refers) == ["D"]
    assert list(contexts["E"].refers) == ["A", "B", "C", "D"]  # C's default is built through D
    order = [d.name for d in module.declarations]
    assert order.index("A") > order.index("B") > order.index("C")  # the order pass declares what is used first
    assert contexts["A"].later == {"A"} and contexts["B"].later == {"B"}


def test_every_golden_case_through_one_shared_cache_is_rendered_as_whole(tmp_path: Path) -> None:
    """Laid out, and formatted: as black formats the module whole (the first round formats every
    fragment, the second splices what the first kept)."""
    memo = memoising.Memo(Cache(tmp_path / "cache"), "salt")
    black: dict[tuple[str, str], str] = {}
    for round in ("cold", "warm"):
        for case in cases():
            if (case.folder / "expected" / "error.txt").exists():
                continue
            source = case.inputs[0]
            module = to_ir(Input("case", source, source.relative_to(ROOT).as_posix(), case.dialect),  # type: ignore[arg-type]
                           ROOT, Reporter())
            for variant in ALL_VARIANTS:
                assert through(memo, module, variant, case.options) == whole(module, variant, case.options), \
                    f"{case.name} {variant} ({round})"
                if (case.name, variant) not in black:
                    black[case.name, variant] = render.render(module, variant, "s.json", ENV, case.options)
                assert formatted(memo, module, variant, case.options) == black[case.name, variant], \
                    f"{case.name} {variant} ({round})"


def _schema(**changes: Any) -> dict[str, Any]:
    definitions: dict[str, Any] = {
        "Nothing": {"type": "null"},
        "Color": {"enum": ["red", "green"]},
        "Size": {"type": "integer", "minimum": 1},
        "Item": {"type": "object", "properties": {
            "maybe": {"anyOf": [{"$ref": "#/definitions/Nothing"}, {"type": "integer"}]},
            "color": {"$ref": "#/definitions/Color", "default": "red"},
            "size": {"anyOf": [{"$ref": "#/definitions/Size"}, {"type": "string"}]},
            "later": {"$ref": "#/definitions/Later"},
        }},
        "Later": {"type": "object", "properties": {"x": {"type": "string"}}},
    }
    definitions.update(changes)
    return {"$schema": "http://json-schema.org/draft-07/schema#", "definitions": definitions}


@pytest.mark.parametrize("change", [
    {"Nothing": {"type": "string"}},  # an alias of null becomes a string: Item writes it otherwise
    {"Color": {"enum": ["red", "blue"]}},  # the enum class behind a default
    {"Color": {"enum": [1, 2]}, "Item": {"type": "object", "properties": {"color": {"$ref": "#/definitions/Color",
                                                                                      "default": 1}}}},
    {"Size": {"type": "string", "pattern": "^[0-9]+$"}},  # msgspec must widen the union another way
    {"Later": {"anyOf": [{"type": "string"}, {"type": "integer"}]}},  # now an alias: order and quoting
    {"Later": {"type": "object", "properties": {"x": {"type": "string"}}, "description": "Only the doc."}},
])
@pytest.mark.parametrize("enums", ["literal", "class"])
def test_a_declaration_is_rendered_again_when_what_it_read_changed(tmp_path: Path, change: dict[str, Any],
                                                                   enums: str) -> None:
    memo = memoising.Memo(Cache(tmp_path / "cache"), "salt")
    options = RenderOptions(enums=enums)  # type: ignore[arg-type]
    before, after = lowered(_schema(), tmp_path), lowered(_schema(**change), tmp_path)
    for variant in ALL_VARIANTS:
        assert through(memo, before, variant, options) == whole(before, variant, options)
    for variant in ALL_VARIANTS:
        assert through(memo, after, variant, options) == whole(after, variant, options), variant


def test_what_is_unchanged_is_not_built_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    memo = memoising.Memo(Cache(tmp_path / "cache"), "salt")
    options = RenderOptions()
    for variant in ALL_VARIANTS:
        through(memo, lowered(_schema(), tmp_path), variant, options)
    edited = lowered(_schema(Later={"type": "object", "properties": {"x": {"type": "string"}}, "description": "New."}),
                     tmp_path)
    expected = [whole(edited, variant, options) for variant in ALL_VARIANTS]
    built: list[str] = []
    original = render.fragment
    monkeypatch.setattr(render, "fragment", lambda d, context, env: built.append(d.name) or original(d, context, env))
    memo = memoising.Memo(Cache(tmp_path / "cache"), "salt")
    assert [through(memo, edited, variant, options) for variant in ALL_VARIANTS] == expected
    # Item refers to Later: its fragment's inputs changed (in every variant), the others' did not
    assert built == ["Item", "Later"] * len(ALL_VARIANTS)
    built.clear()  # and what was built again is kept, also under the key it had
    memo = memoising.Memo(Cache(tmp_path / "cache"), "salt")
    assert [through(memo, edited, variant, options) for variant in ALL_VARIANTS] == expected
    assert built == []


def test_other_options_build_everything_again(tmp_path: Path) -> None:
    """The options are part of every fragment's key: the same module through one cache, with each
    enum style in turn, is each time the module rendered whole with that style."""
    module = lowered({"definitions": {"Pet": {"type": "object", "properties": {"kind": {"$ref": "#/definitions/Kind"}}},
                                      "Kind": {"enum": ["cat", "dog"]}}}, tmp_path)
    memo = memoising.Memo(Cache(tmp_path / "cache"), "salt")
    for enums in ("literal", "class", "literal"):
        options = RenderOptions(enums=enums)  # type: ignore[arg-type]
        assert through(memo, module, "msgspec", options) == whole(module, "msgspec", options), enums


def test_another_generator_builds_everything_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    module = lowered(_schema(), tmp_path)
    through(memoising.Memo(Cache(tmp_path / "cache"), "one"), module, "msgspec", RenderOptions())
    built: list[str] = []
    original = render.fragment
    monkeypatch.setattr(render, "fragment", lambda d, context, env: built.append(d.name) or original(d, context, env))
    through(memoising.Memo(Cache(tmp_path / "cache"), "two"), module, "msgspec", RenderOptions())
    assert len(built) == len(module.declarations)


def test_an_entry_of_another_shape_is_made_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Entries that are not (text, imports) (an older scheme's, a damaged cache's) are misses: the
    fragment is made again and the module is still the one rendered whole."""
    module = lowered(_schema(), tmp_path)
    store = Cache(tmp_path / "cache")
    memo = memoising.Memo(store, "salt")
    through(memo, module, "msgspec", RenderOptions())
    plan = memo.plan(module, "msgspec", "s.json", RenderOptions())
    assert plan.misses == 0
    wrong: list[object] = [b"pickled", ("text",), (1, ((), (), ())), ("text", None), ("text", ([], [], [])), None]
    bad = {key: wrong[i % len(wrong)] for i, key in enumerate(plan.keys)}
    store.put_many(memoising.NAMESPACE, {slot: pickle.dumps(bad) for slot in plan.slots})
    built: list[str] = []
    original = render.fragment
    monkeypatch.setattr(render, "fragment", lambda d, context, env: built.append(d.name) or original(d, context, env))
    assert through(memoising.Memo(store, "salt"), module, "msgspec", RenderOptions()) \
        == whole(module, "msgspec", RenderOptions())
    assert len(built) == len(module.declarations)


def test_every_field_of_the_ir_is_in_its_repr() -> None:
    """A declaration's digest is a digest of its ``repr``: a field left out would go unseen."""
    classes = [c for _, c in inspect.getmembers(ir, inspect.isclass) if issubclass(c, Frozen)]
    assert len(classes) > 10
    for c in classes:
        assert not c.__struct_config__.repr_omit_defaults, c.__name__
        assert "def __repr__" not in inspect.getsource(c), c.__name__  # the record's own


def test_a_declaration_built_again_under_the_same_key_is_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the order changes: every key stays, but the TypedDict variant quotes what is defined later.
    (The order pass sorts declarations by name; a module in another order is made here directly.)"""
    later = {"type": "object", "properties": {"x": {"type": "string"}}}
    item = {"type": "object", "properties": {"later": {"$ref": "#/definitions/Later"}}}
    first = lowered({"definitions": {"Item": item, "Later": later}}, tmp_path)
    second = ir.Module(tuple(reversed(first.declarations)), first.root)
    options = RenderOptions()
    through(memoising.Memo(Cache(tmp_path / "cache"), "salt"), first, "typeddict", options)
    assert through(memoising.Memo(Cache(tmp_path / "cache"), "salt"), second, "typeddict", options) \
        == whole(second, "typeddict", options) != whole(first, "typeddict", options)
    built: list[str] = []
    original = render.fragment
    monkeypatch.setattr(render, "fragment", lambda d, context, env: built.append(d.name) or original(d, context, env))
    through(memoising.Memo(Cache(tmp_path / "cache"), "salt"), second, "typeddict", options)
    assert built == []


@settings(max_examples=examples(40), suppress_health_check=list(HealthCheck))
@given(st.lists(st.one_of(mutations(), documents()), min_size=2, max_size=4))
def test_random_inputs_and_edits_through_one_cache_render_as_whole(inputs: list[Case]) -> None:
    """Edited seeds and random documents one after the other through one cache: the same
    declarations meet other neighbours, orders and enum classes."""
    with tempfile.TemporaryDirectory() as tmp:
        memo = memoising.Memo(Cache(Path(tmp) / "cache"), "salt")
        for i, case in enumerate(inputs):
            module = case.lowered(Path(tmp) / str(i))
            if module is None:
                continue
            for variant in ALL_VARIANTS:
                for options in (RenderOptions(), RenderOptions(enums="class")):
                    try:
                        expected = whole(module, variant, options)
                    except SchemaError:
                        continue
                    assert through(memo, module, variant, options) == expected, (variant, options)
                    assert formatted(memo, module, variant, options) == Session().format_one(expected), (variant, options)


def test_an_edit_formats_only_the_fragments_made_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The module is spliced from the formatted fragments the cache kept: only Item and Later, whose
    fragments are made again, are formatted; the module is still black's."""
    options = RenderOptions()
    for variant in ALL_VARIANTS:
        formatted(memoising.Memo(Cache(tmp_path / "cache"), "salt"), lowered(_schema(), tmp_path), variant, options)
    edited = lowered(_schema(Later={"type": "object", "properties": {"x": {"type": "string"}}, "description": "New."}),
                     tmp_path)
    cut: list[str] = []
    original = Session.stretches
    monkeypatch.setattr(Session, "stretches", lambda self, texts, head=False: cut.extend(
        "head" if head else t.split("class ")[1].split("(")[0].split(":")[0] for t in texts) or original(self, texts, head=head))
    for variant in ALL_VARIANTS:
        memo = memoising.Memo(Cache(tmp_path / "cache"), "salt")
        assert formatted(memo, edited, variant, options) == render.render(edited, variant, "s.json", ENV, options)
        assert cut == ["Item", "Later", "head"], variant
        cut.clear()


def _written(memo: memoising.Memo, module: Any, variant: str, text: bytes | None) -> tuple[str, memoising.Plan]:
    """The module formatted through the memo, given ``text`` as what the last run wrote; and the plan."""
    plan = memo.plan(module, variant, "s.json", RenderOptions(), written=lambda: text)
    return memo.formatted(plan, ENV, Session(memo.store)), plan


def test_an_edit_is_spliced_from_the_text_written_before_reading_the_entries_of_what_changed_alone(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Item and Later are made again; the others' stretches are read from the text written before, where
    the layouts the index kept say they are: their entries are not read (only the buckets of Item's and
    Later's keys, new and old); the module is the one rendered whole, and the next edit splices from it."""
    store = Cache(tmp_path / "cache")
    edits = [{}, {"Later": {"type": "object", "description": "New.", "properties": {"x": {"type": "string"}}}},
             {"Later": {"type": "object", "description": "Newer.", "properties": {"y": {"type": "integer"}}}},
             {"Size": {"type": "integer", "minimum": 2}, "Extra": {"type": "string"}}]
    for variant in ALL_VARIANTS:
        text: bytes | None = None
        for n, edit in enumerate(edits):
            module = lowered(_schema(**edit), tmp_path)
            read: list[str] = []
            original = store.get_many
            monkeypatch.setattr(store, "get_many", lambda namespace, keys: original(namespace, read.extend(keys) or keys))
            made, plan = _written(memoising.Memo(store, "salt"), module, variant, text)
            monkeypatch.undo()
            assert made == render.render(module, variant, "s.json", ENV, RenderOptions()), (variant, n)
            if n:
                assert plan.spliced is not None and plan.same, (variant, n)
                assert len(plan.same) < len(module.declarations) and 0 < len(read) < memoising.BUCKETS, (variant, n)
            index = index_of(store.get(memoising.NAMESPACE, plan.slots[memoising.BUCKETS]))
            assert index is not None
            _, head, _, _, layouts, _, at, _ = index  # (where each stretch starts, as the layouts say)
            assert list(at) == starts(head, layouts), (variant, n)  # type: ignore[arg-type]
            text = made.encode()


@pytest.mark.parametrize("tamper", [lambda b: b + b"# x\n", lambda b: b.replace(b"class", b"klass", 1), lambda b: b"",
                                    lambda b: None])
def test_a_text_that_is_not_the_one_the_index_was_kept_with_is_not_spliced_from(tmp_path: Path, tamper: Any) -> None:
    """A file edited or removed since (or any other bytes) is not read: every entry is."""
    store = Cache(tmp_path / "cache")
    made, _ = _written(memoising.Memo(store, "salt"), lowered(_schema(), tmp_path), "msgspec", None)
    edited = lowered(_schema(Later={"type": "object", "description": "New."}), tmp_path)
    again, plan = _written(memoising.Memo(store, "salt"), edited, "msgspec", tamper(made.encode()))
    assert plan.spliced is None and not plan.same
    assert again == render.render(edited, "msgspec", "s.json", ENV, RenderOptions())


def test_a_fragment_black_treats_specially_formats_the_module_whole(tmp_path: Path) -> None:
    """A description holding ``fmt: off`` (black leaves what follows as it is) cannot be formatted apart:
    the module is formatted whole, once the fragment is kept as once it was made."""
    schema = _schema(Later={"type": "object", "description": "Say `# fmt: off` here.",
                            "properties": {"x": {"type": "string", "description": "fmt: skip"}}})
    module = lowered(schema, tmp_path)
    for variant in ALL_VARIANTS:
        for _ in range(2):
            memo = memoising.Memo(Cache(tmp_path / "cache"), "salt")
            assert formatted(memo, module, variant, RenderOptions()) == \
                render.render(module, variant, "s.json", ENV, RenderOptions()), variant


@pytest.mark.parametrize("shape", [("class", 0, "class", 0), ("nothing", 0, "class", 0, "x"), ("class", "0", "class", 0, "x"),
                                   ["class", 0, "class", 0, "x"], 7])
def test_an_entry_whose_stretch_is_of_another_shape_is_made_again(tmp_path: Path, shape: object) -> None:
    module = lowered(_schema(), tmp_path)
    store = Cache(tmp_path / "cache")
    memo = memoising.Memo(store, "salt")
    formatted(memo, module, "msgspec", RenderOptions())
    plan = memo.plan(module, "msgspec", "s.json", RenderOptions())
    bad = {key: (entry[0], entry[1], shape) for key, entry in plan.before.items()}
    store.put_many(memoising.NAMESPACE, {slot: pickle.dumps(bad) for slot in plan.slots})
    memo = memoising.Memo(store, "salt")
    assert memo.plan(module, "msgspec", "s.json", RenderOptions()).misses == len(module.declarations)
    assert formatted(memo, module, "msgspec", RenderOptions()) == render.render(module, "msgspec", "s.json", ENV,
                                                                                 RenderOptions())
