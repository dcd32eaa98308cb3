"""Each definition's declarations kept by the pieces of text they are made from (``cache.definitions``):
after an edit, the definitions that read the edited one are lowered again, the others put back, and
the run writes what a run without the cache writes. Where putting them back could differ (a name a
kept definition took, a document not read by pieces), the whole input is lowered.

The edit oracle (tests/test_edit_oracle.py) checks random edits of OpenAI's description; these are
the cases it would meet only by chance."""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Any

import pytest
import yaml

from schemagen import ir
from schemagen.cache import definitions, store as caching, verdicts
from schemagen.cache.places import Places
from schemagen.diagnostics import Location, SchemaError
from schemagen.frontend import validate
from schemagen.frontend.dialects import openapi
from schemagen.frontend.schema import Definition, Schema, SchemaSet
from schemagen.lower import lowering

from conftest import generated

CONFIG = '[tool.schemagen]\nschemas = "schemas"\noutput = "generated"\nvariants = ["dataclass", "msgspec"]\n'
FILLER = "A sentence that makes the description long enough for the document to be read by pieces. " * 3


def _document(components: dict[str, Any]) -> str:
    """An OpenAPI document of ``components`` and 300 more, long enough to be read by pieces (a value met
    twice is written twice: an alias from one component into another is not cut into pieces)."""
    schemas = json.loads(json.dumps(components))
    for i in range(300):
        schemas[f"Filler{i}"] = {"type": "object", "description": FILLER,
                                 "properties": {"id": {"type": "string"}, "count": {"type": "integer"}}}
    document = {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {},
                "components": {"schemas": schemas}}
    return yaml.safe_dump(document, sort_keys=False, width=100)


def _project(tmp_path: Path, components: dict[str, Any]) -> Path:
    project = tmp_path / "project"
    (project / "schemas").mkdir(parents=True, exist_ok=True)
    (project / "pyproject.toml").write_text(CONFIG, encoding="utf-8")
    (project / "schemas" / "openapi.yaml").write_text(_document(components), encoding="utf-8")
    return project


@pytest.fixture
def spied(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[Any]]:
    """What each run did: the definitions normalised (``normal``) and lowered (``unit``), and whether they were
    put back (``again``)."""
    seen: dict[str, list[Any]] = {"normal": [], "unit": [], "again": []}
    unit, again, normal = lowering.Lowering.unit, definitions.Definitions._again, openapi._normal_form

    def spy_normal(key: str, *args: Any) -> Any:
        seen["normal"].append(key)
        return normal(key, *args)

    def spy_unit(self: lowering.Lowering, key: str) -> None:
        seen["unit"].append(key)
        unit(self, key)

    def spy_again(self: definitions.Definitions, *args: Any) -> Any:
        found = again(self, *args)
        seen["again"].append(found is not None)
        return found

    monkeypatch.setattr(lowering.Lowering, "unit", spy_unit)
    monkeypatch.setattr(definitions.Definitions, "_again", spy_again)
    monkeypatch.setattr(openapi, "_normal_form", spy_normal)
    return seen


def _edited(project: Path, components: dict[str, Any]) -> None:
    (project / "schemas" / "openapi.yaml").write_text(_document(components), encoding="utf-8")


def test_an_edit_lowers_the_edited_definition_and_those_that_read_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spied: dict[str, list[Any]]) -> None:
    owner = {"type": "object", "properties": {"name": {"type": "string"}}}
    components = {"Owner": owner, "Key": {"type": "object", "properties": {"owner": {"$ref": "#/components/schemas/Owner"}}},
                  "Alone": {"type": "object", "properties": {"x": {"type": "string"}}}}
    project = _project(tmp_path, components)
    cache = str(tmp_path / "cache")
    generated(project, cache, monkeypatch)
    assert spied["again"] == [] and len(spied["unit"]) == 303
    _edited(project, {**components, "Owner": {**owner, "description": "Who owns the key.", "required": ["name"]}})
    spied["unit"].clear()
    spied["normal"].clear()
    kept = generated(project, cache, monkeypatch)
    assert spied["again"] == [True]
    assert spied["normal"] == ["#/components/schemas/Owner"]  # (the others' normal forms kept: cache.normalised)
    assert sorted(spied["unit"]) == ["#/components/schemas/Key", "#/components/schemas/Owner"]  # (Key reads Owner)
    assert kept == generated(project, "off", monkeypatch)


def test_an_edit_checks_the_edited_definition_by_what_it_was_made_from(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The meta-schema verdicts of a document read by pieces are kept by what each definition was made from
    (``normalised.Keeper.made_from``): an edit checks the edited definition, and writes out no other's canonical
    text to find that the others were found valid. (``jobs = 1``: the checks are done in this process.)"""
    checked: list[str] = []
    texts: list[object] = []
    problems, canonical = validate.problems, verdicts.canonical_text
    monkeypatch.setattr(validate, "problems", lambda d: checked.append(d.key) or problems(d))
    monkeypatch.setattr(verdicts, "canonical_text", lambda s: texts.append(s) or canonical(s))
    owner = {"type": "object", "properties": {"name": {"type": "string"}}}
    components = {"Owner": owner, "Key": {"type": "object", "properties": {"owner": {"$ref": "#/components/schemas/Owner"}}}}
    project = _project(tmp_path, components)
    (project / "pyproject.toml").write_text(CONFIG + "jobs = 1\n", encoding="utf-8")
    cache = str(tmp_path / "cache")
    generated(project, cache, monkeypatch)
    assert len(checked) == 302
    checked.clear()
    texts.clear()
    _edited(project, {**components, "Owner": {**owner, "description": "Who owns the key."}})
    generated(project, cache, monkeypatch)
    assert checked == ["#/components/schemas/Owner"]
    assert len(texts) == 1  # (the weight of the one checked)
    _edited(project, {**components, "Owner": {**owner, "type": "strng"}})
    assert "#/components/schemas/Owner/type: not a valid schema" in str(
        pytest.raises(SchemaError, generated, project, cache, monkeypatch).value)


def test_the_digests_it_tells_the_passes_are_those_of_the_declarations_it_gave(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The passes' record tells declarations apart by ``digest_of`` each; those the units hold are kept with
    them (``Definitions.digests``), cold and after an edit, and each is the declaration's own."""
    told: list[tuple[int, int]] = []
    lower = definitions.Definitions.lower

    def spied(self: definitions.Definitions, *args: Any) -> Any:
        module = lower(self, *args)
        known = self.digests(module)
        assert all(known[d.name] == caching.digest_of(d) for d in module.declarations if d.name in known)
        told.append((len(known), len(module.declarations)))
        return module

    monkeypatch.setattr(definitions.Definitions, "lower", spied)
    owner = {"type": "object", "properties": {"name": {"type": "string"}}}
    components = {"Owner": owner, "Key": {"type": "object", "properties": {"owner": {"$ref": "#/components/schemas/Owner"}}}}
    project = _project(tmp_path, components)
    cache = str(tmp_path / "cache")
    generated(project, cache, monkeypatch)
    _edited(project, {**components, "Owner": {**owner, "description": "Who owns the key."}})
    generated(project, cache, monkeypatch)
    assert [known for known, _ in told] == [total for _, total in told] == [302, 302]


def test_an_inline_name_a_kept_definition_took_lowers_the_whole_input(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spied: dict[str, list[Any]]) -> None:
    """``A`` now wants ``ABC``, which ``AB`` (after it) took: lowered whole, ``A`` takes it first."""
    inner = {"type": "object", "properties": {"x": {"type": "string"}}}
    components = {"A": {"type": "object", "properties": {"y": {"type": "string"}}},
                  "AB": {"type": "object", "properties": {"c": inner}}}
    project = _project(tmp_path, components)
    cache = str(tmp_path / "cache")
    generated(project, cache, monkeypatch)
    _edited(project, {**components, "A": {"type": "object", "properties": {"bC": inner}}})
    kept = generated(project, cache, monkeypatch)
    assert spied["again"] == [False]
    assert kept == generated(project, "off", monkeypatch)
    [models] = [text for path, text in kept[0].items() if path.endswith("dataclass_models.py")]
    assert "class A(" in models and "bC: ABC" in models and "c: ABC2" in models


def test_a_document_read_whole_is_lowered_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 spied: dict[str, list[Any]]) -> None:
    project = tmp_path / "project"
    (project / "schemas").mkdir(parents=True)
    (project / "pyproject.toml").write_text(CONFIG, encoding="utf-8")
    target = project / "schemas" / "openapi.yaml"
    target.write_text(yaml.safe_dump({"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {},
                                      "components": {"schemas": {"A": {"type": "string"}}}}), encoding="utf-8")
    cache = str(tmp_path / "cache")
    generated(project, cache, monkeypatch)
    target.write_text(target.read_text(encoding="utf-8").replace("type: string", "type: integer"), encoding="utf-8")
    generated(project, cache, monkeypatch)
    assert spied["again"] == []


def _set(*keys: str) -> SchemaSet:
    return SchemaSet({key: Definition(key, key.rsplit("/", 1)[-1], Schema({}, Location("a.yaml", key[1:])))
                      for key in keys})


def test_a_definitions_source_is_the_pieces_at_within_or_around_it() -> None:
    schemas = _set("#/components/schemas/A", "#/components/schemas/B", "#/paths/~1x/post/requestBody/content")
    pieces = [(("openapi",), "v"), (("components",), "c"), (("components", "schemas"), "s"),
              (("components", "schemas", "A"), "a"), (("components", "schemas", "B"), "b1"),
              (("components", "schemas", "B", "properties"), "b2"), (("paths",), "p"), (("paths", "/x"), "x")]
    found = definitions.sources(schemas, Places("a.yaml", pieces))
    assert found is not None
    context, by_key = found
    moved = definitions.sources(schemas, Places("a.yaml", [(path, "B2" if source == "b2" else source) for path, source in pieces]))
    assert moved is not None and moved[0] == context  # (a piece within B is B's)
    assert [key for key in by_key if by_key[key] != moved[1][key]] == ["#/components/schemas/B"]
    version = definitions.sources(schemas, Places("a.yaml", [(path, "w" if path == ("openapi",) else s) for path, s in pieces]))
    assert version is not None and version[0] != context and version[1] == by_key  # (no definition's: the context)
    body = definitions.sources(schemas, Places("a.yaml", [(path, "y" if path == ("paths", "/x") else s) for path, s in pieces]))
    assert body is not None and [key for key in by_key if by_key[key] != body[1][key]] == ["#/paths/~1x/post/requestBody/content"]


def test_a_definition_from_another_file_or_no_piece_has_no_source() -> None:
    pieces = [(("components", "schemas", "A"), "a")]
    assert definitions.sources(_set("#/components/schemas/A"), Places("other.yaml", pieces)) is None
    assert definitions.sources(_set("#/components/schemas/A", "#/components/schemas/B"), Places("a.yaml", pieces)) is None
    assert definitions.sources(_set("#/components/schemas/A"), None) is None


def test_an_operations_body_that_reads_the_edited_definition_is_lowered_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spied: dict[str, list[Any]]) -> None:
    """A body declared inline in an operation (a derived definition: its name is chosen among the
    inline names before it) reads ``Thing``: it is lowered again, with the name it had."""
    thing = {"type": "object", "properties": {"name": {"type": "string"}}}
    project = _project(tmp_path, {"Thing": thing})
    target = project / "schemas" / "openapi.yaml"
    body = {"required": True, "content": {"application/json": {"schema": {
        "type": "object", "properties": {"thing": {"$ref": "#/components/schemas/Thing"}}}}}}
    response = {"200": {"description": "ok", "content": {"application/json": {"schema": {
        "$ref": "#/components/schemas/Thing"}}}}}
    paths = {"/things": {"post": {"operationId": "createThing", "requestBody": body, "responses": response}}}

    def write(thing: dict[str, Any]) -> None:
        document = yaml.safe_load(_document({"Thing": thing}))
        document["paths"] = json.loads(json.dumps(paths))
        target.write_text(yaml.safe_dump(document, sort_keys=False, width=100), encoding="utf-8")

    write(thing)
    cache = str(tmp_path / "cache")
    generated(project, cache, monkeypatch)
    write({**thing, "description": "A thing.", "required": ["name"]})
    spied["unit"].clear()
    kept = generated(project, cache, monkeypatch)
    assert spied["again"] == [True]
    assert "#/components/schemas/Thing" in spied["unit"] and any(k.startswith("#/paths/") for k in spied["unit"])
    assert kept == generated(project, "off", monkeypatch)


def test_a_bucket_another_run_stored_is_never_read_with_this_runs_entry(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spied: dict[str, list[Any]]) -> None:
    """Two runs at once: a bucket stored meanwhile for other sources (with another token) is not put
    together with this run's entry: the whole input is lowered."""
    components = {"A": {"type": "object", "properties": {"x": {"type": "string"}}}}
    project = _project(tmp_path, components)
    cache = str(tmp_path / "cache")
    generated(project, cache, monkeypatch)
    store = caching.Cache(Path(cache))
    slots = definitions.Definitions(store, "", str(project.resolve()))._slots("schemas/openapi.yaml")
    found = store.get_many(definitions.NAMESPACE, slots)
    assert len(found) == 1 + definitions.BUCKETS  # (the meta entry and every bucket, stored by the first run)
    _, bucket = pickle.loads(found[slots[1]])
    store.put_many(definitions.NAMESPACE, {slots[1]: pickle.dumps(("another", bucket))})
    store.close()
    _edited(project, {"A": {"type": "object", "properties": {"x": {"type": "integer"}}}})
    kept = generated(project, cache, monkeypatch)
    assert spied["again"] == [False]
    assert kept == generated(project, "off", monkeypatch)


def _model(name: str, *refers: str, inline: bool = False) -> ir.Model:
    return ir.Model(name, tuple(ir.Field(r.lower(), r.lower(), ir.Ref(r), True) for r in refers), inline=inline)


@pytest.mark.parametrize("rival_then, rival_now", [(False, False), (False, True), (True, False)])
def test_names_are_shortened_as_lowering_finishes_whether_declarations_are_put_back_or_not(
        rival_then: bool, rival_now: bool) -> None:
    """``definitions._finished`` against ``lowering.finished`` (the oracle), in a second run that puts back
    ``ChatCompletionRequest``'s declarations as the first had them: where the short names are the same,
    where its inline class loses its short name to a rival that wants it too, and where it gains it when
    the rival goes."""
    inline = "ChatCompletionRequestWebSearchOptionsUserLocation"
    rival = "ResponseCreateParamsWebSearchOptionsUserLocation"  # (the same short name)
    ours = [_model("ChatCompletionRequest", inline), _model(inline, inline=True), _model("Other", inline)]

    def declared(with_rival: bool) -> tuple[list[Any], dict[str, str]]:
        theirs = [_model("ResponseCreateParams", rival), _model(rival, inline=True)] if with_rival else []
        return [*ours, *theirs], {inline: "ChatCompletionRequest", **({rival: "ResponseCreateParams"} if with_rival else {})}

    first, declared_in = declared(rival_then)
    module, before = definitions._finished(list(first), None, declared_in, "schema")
    assert module == lowering.finished(first, {}, declared_in, None, "schema")
    assert bool(before[0]) is not rival_then
    now, declared_in = declared(rival_now)
    got, _ = definitions._finished(list(now), None, declared_in, "schema", before, put_back={0, 1, 2})
    assert got == lowering.finished(now, {}, declared_in, None, "schema")
