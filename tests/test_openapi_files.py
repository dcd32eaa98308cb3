"""References between files from OpenAPI documents work as they do from JSON Schema: a relative path
with or without a fragment, a whole file being its root schema; a bad one is a located error, never a
traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from schemagen.diagnostics import Reporter, SchemaError
from schemagen.frontend.dialects import normalise
from schemagen.frontend.schema import SchemaSet, refs_of
from schemagen.project import pipeline
from schemagen.project.inputs import Input
from schemagen.project.config import load
from schemagen.project.plan import plan

from conftest import examples
from golden import ROOT, Case, cases

OPENAPI = {"3.0": "3.0.3", "3.1": "3.1.0"}


def document(version: str, properties: dict[str, object]) -> dict[str, object]:
    return {"openapi": OPENAPI[version], "info": {"title": "t", "version": "1"}, "paths": {},
            "components": {"schemas": {"A": {"type": "object", "properties": properties}}}}


def run(project: Path, **files: object) -> dict[str, str]:
    """Generate ``project`` with ``files`` (relative to ``schemas/``) in it: the msgspec modules by
    input, or ``SchemaError``."""
    for name, content in files.items():
        path = project / "schemas" / name.replace("__", "/")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(content))
    result = plan(load(project))
    return {p.parent.as_posix(): text for p, text in result.files.items() if p.name == "msgspec_models.py"}


def errors(project: Path, **files: object) -> str:
    with pytest.raises(SchemaError) as caught:
        run(project, **files)
    return "\n".join(map(str, caught.value.diagnostics))


PLAIN = {"title": "Plain", "type": "object", "properties": {"x": {"type": "string"}}}
COMMON = {"openapi": "3.0.3", "info": {"title": "c", "version": "1"}, "paths": {},
          "components": {"schemas": {"B": {"type": "object", "properties": {"n": {"type": "integer"}}}}}}


@pytest.mark.parametrize("version", OPENAPI)
@pytest.mark.parametrize(("ref", "annotation"), [
    ("plain.json", "_plain.Plain"),
    ("./plain.json", "_plain.Plain"),
    ("common.json#/components/schemas/B", "_common.B"),
    ("./common.json#/components/schemas/B", "_common.B"),
])
def test_a_reference_to_another_input_imports_its_class(tmp_path: Path, version: str, ref: str,
                                                        annotation: str) -> None:
    out = run(tmp_path, **{"a.json": document(version, {"b": {"$ref": ref}}), "plain.json": PLAIN,
                           "common.json": COMMON})
    assert f"b: {annotation} | UnsetType = UNSET" in out["a"]


@pytest.mark.parametrize("version", OPENAPI)
def test_a_file_that_is_no_input_is_read_with_the_documents_keywords(tmp_path: Path, version: str) -> None:
    """A whole file is its root schema, named by its file name; read with OpenAPI's keywords."""
    (tmp_path / "pyproject.toml").write_text('[[tool.schemagen.inputs]]\npath = "schemas/a.json"\n')
    item = {"type": "object", "required": ["v"], "properties": {
        "v": {"type": "string", "nullable": True} if version == "3.0" else {"type": ["string", "null"]},
        "next": {"$ref": "./MenuItem.yaml"}, "y": {"$ref": "y.json#/$defs/Y"}}}
    out = run(tmp_path, **{"a.json": document(version, {"item": {"$ref": "parts/MenuItem.yaml"}}),
                           "parts__MenuItem.yaml": item, "parts__y.json": {"$defs": {"Y": {"enum": ["y"]}}}})
    assert "item: MenuItem | UnsetType = UNSET" in out["a"]
    assert "class MenuItem(Struct, kw_only=True):\n    v: str | None\n    next: MenuItem | UnsetType" in out["a"]
    assert 'Y = Literal["y"]' in out["a"]


@pytest.mark.parametrize(("ref", "message"), [
    ("../../etc/passwd", "'../etc/passwd' is outside the schema folder: it is not read"),
    ("../outside.yaml#/components/schemas/X", "'outside.yaml' is outside the schema folder: it is not read"),
    ("x.yaml", "no file 'schemas/x.yaml'"),
    ("parts/x.yaml#/$defs/X", "no file 'schemas/parts/x.yaml'"),
])
def test_a_bad_reference_to_a_file_is_a_located_error(tmp_path: Path, ref: str, message: str) -> None:
    found = errors(tmp_path, **{"a.json": document("3.1", {"b": {"$ref": ref}})})
    assert found.startswith("schemas/a.json: #/components/schemas/A/properties/b/$ref: ") and message in found, found


ODD = ["", "#", "##", "a#b#c", "%00", "a%00.json", "\x00", "/etc/passwd", "/etc/passwd#/x", "file:///etc/passwd",
       "https://example.com/x.json", "//host/x.json", "../..", "../../", "..", ".", "./", "parts/", "a.json",
       "a.json#", "a.json#/components/schemas/A", "x" * 5000 + ".json", "é/ü.yaml#/ä", "#/%", "a.json#%zz",
       "?q=1", "urn:x:y", "C:\\x.json"]


def check_no_traceback(project: Path, ref: str, dialect: str) -> None:
    schema = (document("3.1", {"b": {"$ref": ref}}) if dialect == "openapi"
              else {"title": "A", "type": "object", "properties": {"b": {"$ref": ref}}})
    try:
        run(project, **{"a.json": schema})
    except SchemaError as exc:
        assert exc.diagnostics and all(str(d).startswith("schemas/a.json") for d in exc.diagnostics), exc


@pytest.mark.parametrize("dialect", ["openapi", "jsonschema"])
@pytest.mark.parametrize("ref", ODD)
def test_no_reference_string_is_a_traceback(tmp_path: Path, ref: str, dialect: str) -> None:
    check_no_traceback(tmp_path, ref, dialect)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ref=st.text(st.sampled_from("./#%~:ab\x00é"), max_size=12) | st.text(max_size=20))
def test_no_random_reference_string_is_a_traceback(tmp_path: Path, ref: str) -> None:
    for dialect in ("openapi", "jsonschema"):
        check_no_traceback(tmp_path, ref, dialect)


def test_a_mapping_names_files_and_files_refer_back_in_a_cycle(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[[tool.schemagen.inputs]]\npath = "schemas/a.json"\n')
    pet = {"oneOf": [{"$ref": "./parts/Dog.yaml"}, {"$ref": "parts/Cat.yaml"}],
           "discriminator": {"propertyName": "kind", "mapping": {"dog": "./parts/Dog.yaml", "cat": "parts/Cat.yaml"}}}
    def animal() -> dict[str, object]:
        return {"type": "object", "required": ["kind"], "properties": {
            "kind": {"type": "string"}, "friend": {"$ref": "../a.json#/components/schemas/Pet"}}}
    root = document("3.0", {})
    root["components"] = {"schemas": {"Pet": pet}}
    out = run(tmp_path, **{"a.json": root, "parts__Dog.yaml": animal(), "parts__Cat.yaml": animal()})
    assert 'class Dog(Struct, kw_only=True, tag_field="kind", tag="dog"):\n    friend: Pet | UnsetType' in out["a"], out["a"]
    assert "Pet = Dog | Cat" in out["a"]



def test_a_component_that_only_refers_to_a_file_is_that_files_class(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[[tool.schemagen.inputs]]\npath = "schemas/a.json"\n')
    root = document("3.1", {"pet": {"$ref": "parts/Pet.json"}})
    root["components"]["schemas"]["Pet"] = {"$ref": "./parts/Pet.json"}  # type: ignore[index]
    out = run(tmp_path, **{"a.json": root, "parts__Pet.json": {"type": "object", "properties": {"n": {"type": "string"}}}})
    assert "class Pet(Struct, kw_only=True):\n    n: str | UnsetType" in out["a"] and "Pet_2" not in out["a"], out["a"]
    assert "pet: Pet | UnsetType = UNSET" in out["a"]


SPLIT = {
    "api__openapi.json": {"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
                          "paths": {"/pets": {"$ref": "./paths/pets.json"}},
                          "components": {"schemas": {"Pet": {"$ref": "./components/schemas/Pet.json"}}}},
    "api__paths__pets.json": {"get": {"responses": {"200": {"description": "ok", "content": {"application/json": {
        "schema": {"$ref": "../components/schemas/Pet.json"}}}}}}},
    "api__components__schemas__Pet.json": {"type": "object", "properties": {"name": {"type": "string"}}},
}


def test_a_folder_with_a_root_document_is_one_input_its_subfolders_read_where_referred_to(tmp_path: Path) -> None:
    out = run(tmp_path, **SPLIT)
    assert set(out) == {"api"}
    assert "class Pet(Struct, kw_only=True):\n    name: str | UnsetType = UNSET" in out["api"]
    assert out["api"].startswith("# Generated by schemagen from schemas/api/openapi.json.")


def test_a_folder_with_two_root_documents_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "schemas" / "api").mkdir(parents=True)
    (tmp_path / "schemas" / "api" / "openapi.yaml").write_text("openapi: 3.1.0\n")
    found = errors(tmp_path, **SPLIT)
    assert found.startswith("schemas/api/: ") and "two root documents: openapi.yaml and openapi.json" in found


def test_a_folder_without_a_component_file_is_no_input(tmp_path: Path) -> None:
    out = run(tmp_path, **{"a.json": document("3.1", {"b": {"$ref": "parts/b.json"}}),
                           "parts__b.json": {"title": "B", "type": "object", "properties": {"x": {"type": "integer"}}}})
    assert set(out) == {"a"} and "class B(Struct" in out["a"]


def test_a_changed_referenced_file_is_a_run_to_do(tmp_path: Path) -> None:
    """The no-op run's fingerprint covers the files of the schema folder that no input is."""
    run(tmp_path, **SPLIT)
    out = run(tmp_path, **{"api__components__schemas__Pet.json": {
        "type": "object", "properties": {"name": {"type": "integer"}}}})
    assert "name: int | UnsetType = UNSET" in out["api"]


def test_a_referenced_json_schema_file_with_its_schema_keeps_its_dialect(tmp_path: Path) -> None:
    """``$schema`` says how a file is read, whoever refers to it: ``nullable`` is no JSON Schema keyword."""
    (tmp_path / "pyproject.toml").write_text('[[tool.schemagen.inputs]]\npath = "schemas/a.json"\n')
    draft07 = {"$schema": "http://json-schema.org/draft-07/schema#", "title": "J", "type": "object",
               "required": ["v"], "properties": {"v": {"type": "string", "nullable": True}}}
    out = run(tmp_path, **{"a.json": document("3.0", {"j": {"$ref": "parts/J.json"}}), "parts__J.json": draft07})
    assert "class J(Struct, kw_only=True):\n    v: str\n" in out["a"]


def test_a_document_referred_to_for_a_component_gives_none_of_its_operations(tmp_path: Path) -> None:
    """Its operations are its own input's (when it is one), not the referrer's: none of their warnings
    (here a rejected example) is the referrer's."""
    (tmp_path / "pyproject.toml").write_text('[[tool.schemagen.inputs]]\npath = "schemas/a.json"\n')
    schema = {"type": "object", "properties": {"k": {"type": "string", "example": 3}}}
    common = {**COMMON, "paths": {"/things": {"get": {"operationId": "listThings", "responses": {
        "200": {"content": {"application/json": {"schema": schema}}}}}}}}
    out = run(tmp_path, **{"a.json": document("3.0", {"b": {"$ref": "parts/common.json#/components/schemas/B"}}),
                           "parts__common.json": common})
    assert "class B(Struct" in out["a"] and "ListThings" not in out["a"], out["a"]
    assert [str(w) for w in plan(load(tmp_path)).warnings if "/paths/" in str(w)] == []


def test_whether_a_file_constrains_nothing_is_asked_once_a_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every reference to such a file is ``Any``; the file is read for it once, not once a reference."""
    from schemagen.project import link

    asked: list[str] = []
    real = link.constrains_nothing
    monkeypatch.setattr(link, "constrains_nothing", lambda target, *a: (asked.append(target.display), real(target, *a))[1])
    refs = {f"p{i}": {"$ref": "empty.json"} for i in range(5)}
    out = run(tmp_path, **{"a.json": {"title": "A", "type": "object", "properties": refs},
                           "empty.json": {"$schema": "http://json-schema.org/draft-07/schema#"}})
    assert "p4: Any | UnsetType = UNSET" in out["a"], out["a"]
    assert asked == ["schemas/empty.json"]


@pytest.mark.parametrize("ref, alone", [("#/components/schemas/B", True), ("./other.json#/B", False),
                                        ("https://example.com/b.json", False)])
def test_a_document_whose_refs_all_stay_in_it_says_so_and_bundle_reads_nothing_more(ref: str, alone: bool) -> None:
    """``SchemaSet.self_contained`` lets ``bundle`` skip its walk: only when no ``$ref`` names another file."""
    body = document("3.1", {"b": {"$ref": ref}})
    body["components"]["schemas"]["B"] = {"type": "string"}  # type: ignore[index]
    schemas = normalise([("x.json", body)], folder=False, dialect="auto", default_name="X", reporter=Reporter())
    assert schemas.self_contained is alone
    refs = [r for d in schemas.definitions.values() for r in refs_of(d.schema)]
    assert all(r.startswith("#") for r in refs) is alone


@pytest.mark.parametrize("case", cases(), ids=lambda c: c.name)
def test_a_set_said_self_contained_has_no_ref_to_another_file(case: Case, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[SchemaSet] = []
    bundle = pipeline.bundle
    monkeypatch.setattr(pipeline, "bundle", lambda schemas, *rest: seen.append(schemas) or bundle(schemas, *rest))
    for source in case.inputs:
        item = Input("case", source, source.relative_to(ROOT).as_posix(), case.dialect)  # type: ignore[arg-type]
        try:
            pipeline.to_ir(item, ROOT, Reporter())
        except SchemaError:
            pass
    for schemas in seen:
        if schemas.self_contained:
            assert all(r.startswith("#") for d in schemas.definitions.values() for r in refs_of(d.schema))
