"""The checks of a set done in another process while this one lowers it (``Stages.ahead``): a run says
what it says when they are done first, in the same order, and a set they reject is reported by their
errors, however lowering fared on it."""

from __future__ import annotations

import json
import os
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from schemagen.cache import forked
from schemagen.cache.store import Cache
from schemagen.diagnostics import Reporter, SchemaError
from schemagen.project import pipeline
from schemagen.project.inputs import Input
from schemagen.project.overlays import OverlayFile


def _run(tmp_path: Path, document: dict[str, Any], stages: pipeline.Stages,
         overlay: dict[str, Any] | None = None) -> tuple[list[str], list[str]]:
    """(errors, warnings) of one input (mended by ``overlay``), as text."""
    path = tmp_path / "schema.json"
    path.write_text(json.dumps(document))
    overlays: tuple[OverlayFile, ...] = ()
    if overlay is not None:
        (tmp_path / "schema.overlay.json").write_text(json.dumps(overlay))
        overlays = (OverlayFile(tmp_path / "schema.overlay.json", "schema.overlay.json", path.resolve()),)
    reporter = Reporter()
    try:
        pipeline.to_ir(Input("schema", path, "schema.json", overlays=overlays), tmp_path, reporter, stages=stages)
    except SchemaError as exc:
        return [str(d) for d in exc.diagnostics], [str(w) for w in reporter.warnings]
    return [], [str(w) for w in reporter.warnings]


def _ahead(store: Cache) -> pipeline.Stages:
    """The cache's stages, with the checks done in another process whatever the set's size."""
    return replace(pipeline.Stages.cached(store), ahead=partial(forked.ahead, store=store, least=0))


WARNED = {"$defs": {
    "Pet": {"type": "object", "properties": {"kind": {"type": "string", "default": 3}},
            "examples": [{"kind": 1}], "discriminator": {"propertyName": "kind", "mapping": {"x": "#/$defs/Nope"}}},
    "Owner": {"type": "object", "required": ["pet", "missing"], "properties": {"pet": {"$ref": "#/$defs/Pet"}}},
    "Either": {"oneOf": [{"$ref": "#/$defs/Pet"}, {"$ref": "#/$defs/Owner"}], "default": "no"},
}}

# `properties: 5` crashes lowering when nothing checked the set first (an `AttributeError`)
BROKEN = {"$defs": {"A": {"type": "object", "properties": 5}, "B": {"type": "object", "required": 7},
                    "C": {"$ref": "#/$defs/A", "examples": [1]}}}


@pytest.mark.parametrize("document", [WARNED, BROKEN], ids=["warned", "broken"])
def test_checks_done_meanwhile_say_what_checks_done_first_say(document: dict[str, Any], tmp_path: Path) -> None:
    first = _run(tmp_path, document, pipeline.Stages())
    with Cache(tmp_path / "cache") as store:
        meanwhile = _run(tmp_path, document, _ahead(store))
    assert meanwhile == first
    assert first[0] if document is BROKEN else first[1]  # (each says something: errors, or warnings)


@pytest.mark.parametrize("processes", [1, 2])
def test_a_large_set_is_checked_meanwhile_only_when_more_than_one_process_is_allowed(
        processes: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    document = {"$defs": {f"D{i}": {"type": "object", "properties": {"n": {"type": "integer"}}}
                          for i in range(forked.AHEAD_FROM)}}
    fork = os.fork
    forks: list[int] = []
    monkeypatch.setattr(os, "fork", lambda: forks.append(1) or fork())
    with Cache(tmp_path / "cache") as store:
        said = _run(tmp_path, document, pipeline.Stages.cached(store, processes=processes))
    assert said == ([], []) and len(forks) == (processes - 1)


@pytest.mark.parametrize("mend", [{"examples": [{"kind": 1}]}, {"type": 5}], ids=["warned", "broken"])
def test_what_checks_done_meanwhile_say_of_mended_text_points_into_the_overlay(
        mend: dict[str, Any], tmp_path: Path) -> None:
    overlay = {"overlay": "1.0.0", "info": {"title": "Mend", "version": "1.0.0"}, "extends": "schema.json",
               "actions": [{"target": "$['$defs'].Pet", "update": mend}]}
    first = _run(tmp_path, WARNED, pipeline.Stages(), overlay)
    with Cache(tmp_path / "cache") as store:
        meanwhile = _run(tmp_path, WARNED, _ahead(store), overlay)
    assert meanwhile == first
    assert any("schema.overlay.json" in said for said in first[0] + first[1])
