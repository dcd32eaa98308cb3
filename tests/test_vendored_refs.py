"""Specs you do not control: URLs read from vendored folders (``[tool.schemagen.refs]``), the JSON Schema
meta-schemas shipped with the generator, and ``render`` of a file outside the schema folder. Never the network."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest

from conftest import bench_module
from schemagen import render
from schemagen.diagnostics import Reporter
from schemagen.project.inputs import Input
from schemagen.project.pipeline import to_ir
from golden import ROOT

REFS = '[tool.schemagen]\n\n[tool.schemagen.refs]\n"https://json.schemastore.org/" = "{folder}"\n'
VENDORED = {
    # a vendored SchemaStore file, and one whose name is not its URL's (found by its `$id`)
    "base.json": {"$id": "https://json.schemastore.org/base.json", "definitions": {
        "path": {"type": "string", "minLength": 1},
        "paths": {"type": "array", "items": {"$ref": "#/definitions/path"}},
        "license": {"$ref": "spdx.json#/definitions/id"}}},  # relative to its `$id`: the URL of spdx-licenses.json
    "spdx-licenses.json": {"$id": "https://json.schemastore.org/spdx.json",
                           "definitions": {"id": {"type": "string", "enum": ["MIT", "Apache-2.0"]}}},
}
APP = {"title": "App", "type": "object", "required": ["root"], "properties": {
    "root": {"$ref": "https://json.schemastore.org/base.json#/definitions/path"},
    "include": {"$ref": "https://json.schemastore.org/base.json#/definitions/paths"},
    "license": {"$ref": "https://json.schemastore.org/base.json#/definitions/license"}}}


def schemagen(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "schemagen", *args], capture_output=True, text=True, cwd=project,
                          env={"PYTHONPATH": str(ROOT), "PATH": "", "SCHEMAGEN_CACHE_DIR": os.environ["SCHEMAGEN_CACHE_DIR"]})


def vendored_project(project: Path, folder: str = "schemas/vendor/schemastore/") -> Path:
    (project / "schemas" / "vendor" / "schemastore").mkdir(parents=True)
    (project / "pyproject.toml").write_text(REFS.format(folder=folder))
    for name, document in VENDORED.items():
        (project / "schemas" / "vendor" / "schemastore" / name).write_text(json.dumps(document))
    (project / "schemas" / "app.json").write_text(json.dumps(APP))
    return project


# --- [tool.schemagen.refs] ------------------------------------------------------------------------


def test_a_mapped_url_reads_the_vendored_file_and_the_mapped_folder_is_no_input(tmp_path: Path) -> None:
    result = schemagen(vendored_project(tmp_path), "generate")
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in (tmp_path / "generated").iterdir()) == ["__init__.py", "_runtime.py", "app",
                                                                          "py.typed"]
    source = (tmp_path / "generated" / "app" / "msgspec_models.py").read_text()
    assert "root: Path" in source and "include: Paths | UnsetType" in source and "Paths = list[Path]" in source
    assert 'Id = Literal["MIT", "Apache-2.0"]' in source  # through the vendored file's `$id`, to the file with that `$id`
    code = ("import msgspec, generated.app.msgspec_models as m\n"
            "msgspec.json.decode(b'{\"root\": \"src\", \"include\": [\"a\"], \"license\": \"MIT\"}', type=m.App)\n"
            "for bad in (b'{\"root\": \"\"}', b'{\"root\": \"a\", \"license\": \"GPL\"}'):\n"
            "    try: msgspec.json.decode(bad, type=m.App)\n"
            "    except msgspec.ValidationError: pass\n"
            "    else: raise SystemExit(bad)\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_a_changed_vendored_file_is_read_again(tmp_path: Path) -> None:
    """The mapped folder is part of what a run is made from: no stale result from the cache."""
    project = vendored_project(tmp_path)
    assert schemagen(project, "generate").returncode == 0
    base = project / "schemas" / "vendor" / "schemastore" / "base.json"
    base.write_text(base.read_text().replace('"minLength": 1', '"minLength": 2'))
    assert schemagen(project, "generate").returncode == 0
    assert "min_length=2" in (project / "generated" / "app" / "msgspec_models.py").read_text()


def test_an_unmapped_url_is_an_error_whose_hint_names_the_setting(tmp_path: Path) -> None:
    project = vendored_project(tmp_path)
    app = {**APP, "properties": {**APP["properties"], "x": {"$ref": "https://example.org/x.json#/definitions/X"}}}
    (project / "schemas" / "app.json").write_text(json.dumps(app))
    result = schemagen(project, "generate")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert ("#/properties/x/$ref: unresolved reference 'https://example.org/x.json#/definitions/X' - remote references "
            "are not fetched: vendor the document into the schema folder and map its URL to it under "
            "[tool.schemagen.refs]") in result.stderr


def test_a_mapped_url_without_its_file_names_the_file_and_the_setting(tmp_path: Path) -> None:
    project = vendored_project(tmp_path)
    app = {**APP, "properties": {"x": {"$ref": "https://json.schemastore.org/missing.json#/definitions/X"}}}
    (project / "schemas" / "app.json").write_text(json.dumps(app))
    result = schemagen(project, "generate")
    assert result.returncode == 1
    assert ("no file 'schemas/vendor/schemastore/missing.json' - [tool.schemagen.refs] maps "
            "'https://json.schemastore.org/' there: vendor the document into it") in result.stderr


@pytest.mark.parametrize(("folder", "message"), [
    ("../elsewhere/", "'../elsewhere/' is outside the schema folder: it is not read"),
    ("schemas/../../elsewhere", "'schemas/../../elsewhere' is outside the schema folder: it is not read"),
    ("schemas/nowhere/", "no folder 'schemas/nowhere/' (relative to the project root)"),
])
def test_a_mapped_folder_outside_the_schema_folder_is_an_error_at_its_setting(tmp_path: Path, folder: str,
                                                                              message: str) -> None:
    result = schemagen(vendored_project(tmp_path, folder), "generate")
    assert result.returncode == 1 and not (tmp_path / "generated").exists()
    assert f"pyproject.toml:4:1: #/tool/schemagen/refs/https:~1~1json.schemastore.org~1: {message}" in result.stderr


# --- the JSON Schema meta-schemas -----------------------------------------------------------------

VALID_SCHEMAS = [
    {}, True, {"type": "string", "minLength": 1}, {"type": ["string", "null"]},
    {"type": "object", "properties": {"a": {"$ref": "#/definitions/a"}}, "definitions": {"a": {"enum": [1, "x"]}},
     "additionalProperties": False, "x-vendor": {"anything": 1}},
    {"items": [{"type": "integer"}, True], "anyOf": [{"const": None}, {"not": {}}], "default": None},
]
INVALID_SCHEMAS = [12, {"type": 12}, {"type": "strng"}, {"minLength": -1}, {"properties": {"a": {"type": 12}}},
                   {"items": [{"type": 12}]}, {"required": "a"}]
#: A SchemaStore-like config whose property is a JSON Schema (as aio-connector-metadata's `additionalConfigurationSchema`).
CONNECTOR = {"$schema": "http://json-schema.org/draft-07/schema#", "title": "Connector", "type": "object",
             "required": ["name"], "properties": {
                 "name": {"type": "string"},
                 "configurationSchema": {"$ref": "http://json-schema.org/draft-07/schema#",
                                         "description": "The schema of the connector's settings."}}}


def msgspec_module(tmp_path: Path, schema: object, reporter: Reporter) -> object:
    path = tmp_path / "schema.json"
    path.write_text(json.dumps(schema))
    module = to_ir(Input("x", path, "schema.json"), tmp_path, reporter)
    return bench_module("modules").exec_module(render.render(module, "msgspec", "schema.json", render.environment()))


def test_a_property_typed_by_the_draft_07_meta_schema_accepts_schemas_and_rejects_others(tmp_path: Path) -> None:
    reporter = Reporter()
    module = msgspec_module(tmp_path, CONNECTOR, reporter)
    assert reporter.warnings == []
    decode = msgspec.json.Decoder(module.Connector).decode  # type: ignore[attr-defined]
    for schema in VALID_SCHEMAS:
        decode(json.dumps({"name": "c", "configurationSchema": schema}))
    for schema in INVALID_SCHEMAS:
        with pytest.raises(msgspec.ValidationError):
            decode(json.dumps({"name": "c", "configurationSchema": schema}))


@pytest.mark.parametrize("url", [
    "http://json-schema.org/draft-04/schema#", "http://json-schema.org/draft-06/schema#",
    "http://json-schema.org/draft-07/schema", "https://json-schema.org/draft-07/schema#",
    "https://json-schema.org/draft/2019-09/schema", "https://json-schema.org/draft/2020-12/schema",
    "http://json-schema.org/draft/2020-12/schema#",
])
def test_each_meta_schema_resolves_offline_to_its_shipped_copy(tmp_path: Path, url: str) -> None:
    reporter = Reporter()
    module = msgspec_module(tmp_path, {"title": "Holder", "type": "object", "properties": {"schema": {"$ref": url}}},
                            reporter)
    assert reporter.warnings == []
    decode = msgspec.json.Decoder(module.Holder).decode  # type: ignore[attr-defined]
    nested = {"type": "object", "properties": {"a": {"type": ["string", "null"], "minLength": 0}}, "required": ["a"]}
    decode(json.dumps({"schema": nested}))
    for invalid in ({"type": 12}, {"properties": {"a": {"minLength": -1}}}, {"allOf": [{"enum": 3}]}):
        with pytest.raises(msgspec.ValidationError):
            decode(json.dumps({"schema": invalid}))


def test_a_vocabulary_is_no_document_of_its_own(tmp_path: Path) -> None:
    """Read only as a part of its meta-schema (its subschemas are that meta-schema's), never alone."""
    path = tmp_path / "schema.json"
    path.write_text(json.dumps({"properties": {"a": {"$ref": "https://json-schema.org/draft/2020-12/meta/applicator"}}}))
    result = schemagen(tmp_path, "render", "schema.json", "--variant", "msgspec")
    assert result.returncode == 1 and "unresolved reference 'https://json-schema.org/draft/2020-12/meta/applicator'" \
        in result.stderr


# --- render PATH outside the schema folder ------------------------------------------------------------


def test_render_outside_the_schema_folder_reads_the_files_beside_it_and_nothing_above(tmp_path: Path) -> None:
    """The file's own folder is the schema folder of that run (here no project, so no schema folder holds it)."""
    folder = tmp_path / "downloads"
    folder.mkdir()
    (folder / "common.json").write_text(json.dumps({"definitions": {"Id": {"type": "integer"}}}))
    (tmp_path / "common.json").write_text(json.dumps({"definitions": {"Id": {"type": "string"}}}))
    schema = {"title": "Thing", "type": "object", "properties": {"id": {"$ref": "common.json#/definitions/Id"}}}
    (folder / "thing.json").write_text(json.dumps(schema))
    result = schemagen(folder, "render", "thing.json", "--variant", "dataclass")
    assert result.returncode == 0, result.stderr
    assert "Id = int" in result.stdout and "id: Id | None = None" in result.stdout
    schema["properties"]["id"]["$ref"] = "../common.json#/definitions/Id"  # type: ignore[index]
    (folder / "thing.json").write_text(json.dumps(schema))
    result = schemagen(folder, "render", "thing.json", "--variant", "dataclass")
    assert result.returncode == 1 and result.stdout == ""
    assert ("thing.json:1:68: #/properties/id/$ref: '../common.json' is outside the folder of the rendered file: "
            "it is not read") in result.stderr


# --- every command reads a mapped URL as `generate` does --------------------------------------------


def test_compare_reads_a_mapped_url_as_generate_does(tmp_path: Path) -> None:
    project = vendored_project(tmp_path)
    stricter = dict(APP, title="Strict", required=["root", "license"])
    (project / "schemas" / "strict.json").write_text(json.dumps(stricter))
    result = schemagen(project, "compare", "schemas/app.json", "schemas/strict.json")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "a->b  license: required in B, optional in A\n"


def test_diff_reads_a_mapped_url_at_the_revision_as_generate_does(tmp_path: Path) -> None:
    project = vendored_project(tmp_path)
    env = {"PATH": os.environ["PATH"], "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"}
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "vendored"]):
        subprocess.run(["git", *args], cwd=project, check=True, capture_output=True, env=env)
    spdx = project / "schemas" / "vendor" / "schemastore" / "spdx-licenses.json"
    spdx.write_text(spdx.read_text().replace('"enum": ["MIT", "Apache-2.0"]', '"enum": ["MIT"]'))
    result = subprocess.run([sys.executable, "-m", "schemagen", "diff"], capture_output=True, text=True, cwd=project,
                            env={**env, "PYTHONPATH": str(ROOT), "SCHEMAGEN_CACHE_DIR": os.environ["SCHEMAGEN_CACHE_DIR"]})
    assert result.returncode == 0, result.stderr
    assert result.stdout == "BREAKING   app.Id: enum value 'Apache-2.0' removed\n"
