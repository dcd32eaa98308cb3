"""The checks of the values a set's schemas give themselves, kept definition by definition (``cache.linted``):
what they say after edits is what ``lint`` says of the whole set, and an edit checks again only the
definitions that reach the edited one."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schemagen.cache import linted
from schemagen.cache.store import Cache
from schemagen.diagnostics import Reporter
from schemagen.frontend import lint
from schemagen.frontend.dialects import normalise
from schemagen.frontend.schema import SchemaSet


@st.composite
def graphs(draw: st.DrawFn) -> tuple[list[str], dict[str, tuple[str, ...]]]:
    nodes = [f"n{i}" for i in range(draw(st.integers(1, 12)))]
    refs = {n: tuple(draw(st.lists(st.sampled_from(nodes), max_size=3, unique=True))) for n in nodes}
    return nodes, refs


def _reaching(refs: dict[str, tuple[str, ...]], target: str) -> set[str]:
    """The nodes from which ``target`` is reached (itself among them), by a plain search from each."""
    found = set()
    for start in refs:
        seen, todo = {start}, [start]
        while todo:
            for t in refs[todo.pop()]:
                if t not in seen:
                    seen.add(t)
                    todo.append(t)
        if target in seen:
            found.add(start)
    return found


@settings(max_examples=300, deadline=None)
@given(graphs(), st.data())
def test_a_closure_changes_exactly_where_a_node_reaches_a_changed_one(graph: Any, data: st.DataObject) -> None:
    nodes, refs = graph
    own = {n: f"own {n}" for n in nodes}
    edited = data.draw(st.sampled_from(nodes))
    before = linted.closures(own, refs, "context")
    after = linted.closures({**own, edited: "edited"}, refs, "context")
    assert {n for n in nodes if before[n] != after[n]} == _reaching(refs, edited)
    assert len(set(before.values())) == len(nodes)  # (each node's own)
    assert linted.closures(own, refs, "other keys") != before


def _set(schemas: dict[str, Any]) -> SchemaSet:
    document = {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {},
                "components": {"schemas": copy.deepcopy(schemas)}}
    return normalise([("spec.yaml", document)], folder=False, dialect="openapi", default_name="Spec",
                     reporter=Reporter())


def _whole(schemas: SchemaSet) -> list[str]:
    reporter = Reporter()
    lint.examples(schemas, reporter)
    lint.check(schemas, reporter)
    return [str(w) for w in reporter.warnings]


def _kept(store: Cache, schemas: SchemaSet, made_from: dict[str, str]) -> list[str]:
    checks = linted.Linted(store, "salt", "scope")
    reporter = Reporter()
    checks.examples(schemas, reporter, made_from)
    checks.check(schemas, reporter, made_from)
    return [str(w) for w in reporter.warnings]


SCHEMAS: dict[str, Any] = {
    "Usage": {"type": "object", "required": ["total"], "properties": {"total": {"type": "integer"}}},
    "Reply": {"type": "object", "properties": {"usage": {"$ref": "#/components/schemas/Usage"}},
              "example": {"usage": {"total": 3}}, "examples": [{"usage": {"total": 4}}]},
    "Wrapped": {"type": "object", "properties": {"reply": {"$ref": "#/components/schemas/Reply"}},
                "default": {"reply": {"usage": {"total": 5}}}},
    "Alone": {"type": "string", "enum": ["a"], "default": "b"},
    "Pet": {"oneOf": [{"$ref": "#/components/schemas/Cat"}], "discriminator": {
        "propertyName": "kind", "mapping": {"cat": "#/components/schemas/Cat", "dog": "#/components/schemas/Alone"}}},
    "Cat": {"type": "object", "properties": {"kind": {"type": "string"}, "next": {"$ref": "#/components/schemas/Kit"}}},
    "Kit": {"type": "object", "properties": {"up": {"$ref": "#/components/schemas/Cat"}},
            "examples": [{"up": {"kind": "x"}}]},
}


def test_after_edits_the_checks_say_what_lint_says_of_the_whole_set(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    store = Cache(tmp_path / "cache")
    made_from = {key: f"text of {key}" for key in _set(SCHEMAS).definitions}
    first = _set(SCHEMAS)
    assert _kept(store, first, made_from) == _whole(first) and _whole(first)

    walked: list[str] = []
    original = lint.walked
    monkeypatch.setattr(lint, "walked", lambda walk, *rest: walked.extend(walk) or original(walk, *rest))
    edited = copy.deepcopy(SCHEMAS)
    edited["Usage"]["properties"]["total"]["type"] = "string"  # (the examples of Reply and Wrapped are rejected now)
    edited["Cat"]["properties"]["kind"]["type"] = "integer"  # (a cycle: Cat and Kit)
    second = _set(edited)
    changed = {**made_from, "#/components/schemas/Usage": "edited", "#/components/schemas/Cat": "edited"}
    said = _kept(store, second, changed)
    assert sorted(walked) == sorted(f"#/components/schemas/{n}" for n in ("Usage", "Reply", "Wrapped", "Pet", "Cat",
                                                                             "Kit"))
    assert said == _whole(second) and said != _whole(first)
    walked.clear()
    assert _kept(store, _set(edited), changed) == said and walked == []


def test_a_set_not_read_by_pieces_is_checked_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    schemas = _set(SCHEMAS)
    some = dict.fromkeys(list(schemas.definitions)[1:], "text")
    whole = _whole(schemas)
    checked: list[SchemaSet] = []
    original = lint.check
    monkeypatch.setattr(lint, "check", lambda s, reporter: checked.append(s) or original(s, reporter))
    assert _kept(Cache(tmp_path / "cache"), schemas, some) == whole
    assert checked == [schemas]  # (lint over the whole set, not definition by definition)
