"""A definition lowered on its own (docs/incremental.md, step 2): from what ``lower.units.reads`` says it
reads, and the names decided over the whole set, each definition makes exactly the declarations it
makes in the whole lowering, but those ``Lowering.met`` lists (they met an inline name or model
another definition's lowering took first). ``Readable`` refuses any other definition: a read that
``reads`` does not list fails the test rather than going unseen.

Checked on every golden case, OpenAI's description and every SchemaStore schema (real documents, with
the folds, merges and chains of references that ``reads`` must follow)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from schemagen.diagnostics import Reporter, SchemaError
from schemagen.frontend.schema import SchemaSet
from schemagen.lower import lowering, units
from schemagen.lower.context import Known, NotRead
from schemagen.project import pipeline
from schemagen.project.inputs import Input

from conftest import SHARED, shared
from golden import ROOT, Case, cases

STORE = SHARED / "corpora/schemastore/json"


def _lowered(item: Input, root: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[SchemaSet, Any, Any] | None:
    """What ``item``'s pipeline hands to lowering: the set, the external resolver and the naming."""
    found: list[tuple[SchemaSet, Any, Any]] = []
    lower = pipeline.lower

    def capture(schemas: SchemaSet, reporter: Reporter, external: Any = None, names: Any = "schema") -> Any:
        found.append((schemas, external, names))
        return lower(schemas, reporter, external, names)

    monkeypatch.setattr(pipeline, "lower", capture)
    try:
        pipeline.to_ir(item, root, Reporter())
    except SchemaError:
        pass
    return found[0] if found else None


def _alone_as_in_the_whole(schemas: SchemaSet, external: Any, names: Any) -> lowering.Lowering | None:
    """Each definition not in ``met``, lowered on its own, against the whole lowering; the whole lowering."""
    try:
        whole = lowering.lowered(schemas, Reporter(), external, names)
    except SchemaError:
        return None
    given = frozenset(whole.taken.given())
    chosen = dict(whole.scope.names.chosen)  # type: ignore[attr-defined]
    reads = units.Reads(schemas.definitions)
    for key, (start, end) in whole.spans.items():
        if key in whole.met:
            continue
        known = Known(chosen, whole.scope.named, given, reads.of(key))
        try:
            alone = units.alone(schemas, key, known, Reporter(), external, whole.own)
        except SchemaError:
            continue
        assert alone == [d for d in whole.declarations[start:end] if d is not None], key
    _readers_are_who_reads(whole, reads)
    return whole


def _readers_are_who_reads(whole: lowering.Lowering, reads: units.Reads, every: int = 1) -> None:
    """``units.readers``, worked out backwards from each unit's own facts, finds exactly the definitions
    whose ``reads`` holds the changed one (for every ``every``-th definition)."""
    kept = units.record(whole, reads)
    holding: dict[str, set[str]] = {key: set() for key in kept}
    for key in kept:
        for read in reads.of(key):
            holding[read].add(key)
    for key in list(kept)[::every]:
        assert units.readers(kept, [key]) == holding[key], key


@pytest.mark.parametrize("case", cases(), ids=lambda c: c.name)
def test_a_definition_lowered_on_its_own_makes_what_it_makes_in_the_whole(
        case: Case, monkeypatch: pytest.MonkeyPatch) -> None:
    for source in case.inputs:
        item = Input("case", source, source.relative_to(ROOT).as_posix(), case.dialect,  # type: ignore[arg-type]
                     required_defaults=case.settings.get("required_defaults"))  # type: ignore[arg-type]
        found = _lowered(item, ROOT, monkeypatch)
        if found is not None:
            _alone_as_in_the_whole(*found)


def test_nearly_every_definition_of_openais_description_is_lowered_on_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    source = shared("corpora/openai/openapi.yaml")
    found = _lowered(Input("openai", source, "openapi.yaml"), source.parent, monkeypatch)
    assert found is not None
    whole = _alone_as_in_the_whole(*found)
    assert whole is not None and len(whole.spans) > 1000
    assert len(whole.met) <= len(whole.spans) // 100  # (8 of 1,435: what keeping definitions apart rests on)


def _store_files() -> list[str]:
    return sorted(p.name for p in STORE.glob("*.json")) if STORE.is_dir() else ["(none)"]


@pytest.mark.parametrize("name", _store_files())
def test_a_schemastore_definition_lowered_on_its_own_makes_what_it_makes_in_the_whole(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    path = shared("corpora/schemastore/json") / name
    found = _lowered(Input("store", path, name), path.parent, monkeypatch)
    if found is not None:
        _alone_as_in_the_whole(*found)


def _schema(tmp_path: Path, document: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> tuple[SchemaSet, Any, Any]:
    path = tmp_path / "schema.json"
    path.write_text(json.dumps(document))
    found = _lowered(Input("schema", path, "schema.json"), tmp_path, monkeypatch)
    assert found is not None
    return found


def test_an_inline_name_another_definition_took_first_is_met(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``A.bC`` and ``AB.c`` both want ``ABC``: the second takes ``ABC_2``, alone it would take ``ABC``."""
    inner = {"type": "object", "properties": {"x": {"type": "string"}}}
    schemas, external, names = _schema(tmp_path, {"$defs": {
        "A": {"type": "object", "properties": {"bC": inner}},
        "AB": {"type": "object", "properties": {"c": inner}}}}, monkeypatch)
    whole = lowering.lowered(schemas, Reporter(), external, names)
    assert whole.met == {"#/$defs/AB": {"#/$defs/A"}}
    start, end = whole.spans["#/$defs/AB"]
    known = Known(dict(whole.scope.names.chosen), whole.scope.named,  # type: ignore[attr-defined]
                  frozenset(whole.taken.given()), units.reads(schemas.definitions, "#/$defs/AB"))
    alone = units.alone(schemas, "#/$defs/AB", known, Reporter())
    assert [d.name for d in alone] != [d.name for d in whole.declarations[start:end] if d is not None]


def test_a_model_folded_in_from_another_definition_is_met(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``B`` folds ``A`` in: ``A``'s inline model ``AOwner`` is ``B``'s too, declared by ``A``."""
    schemas, external, names = _schema(tmp_path, {"$defs": {
        "A": {"type": "object", "properties": {"owner": {"type": "object", "properties": {"id": {"type": "string"}}}}},
        "B": {"allOf": [{"$ref": "#/$defs/A"}, {"properties": {"extra": {"type": "integer"}}}]}}}, monkeypatch)
    whole = lowering.lowered(schemas, Reporter(), external, names)
    assert whole.met == {"#/$defs/B": {"#/$defs/A"}}


def test_a_definition_that_reads_another_is_refused_what_reads_leaves_out(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The guard the checks above rest on: a definition folded in, not listed, is not read unseen."""
    schemas, external, names = _schema(tmp_path, {"$defs": {
        "A": {"type": "object", "properties": {"id": {"type": "string"}}},
        "B": {"allOf": [{"$ref": "#/$defs/A"}, {"properties": {"extra": {"type": "integer"}}}]}}}, monkeypatch)
    whole = lowering.lowered(schemas, Reporter(), external, names)
    assert units.reads(schemas.definitions, "#/$defs/B") == {"#/$defs/A", "#/$defs/B"}
    known = Known(dict(whole.scope.names.chosen), whole.scope.named,  # type: ignore[attr-defined]
                  frozenset(whole.taken.given()), frozenset({"#/$defs/B"}))
    with pytest.raises(NotRead):
        units.alone(schemas, "#/$defs/B", known, Reporter())
