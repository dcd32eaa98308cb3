"""Specs you do not control: URLs read from vendored folders (``[tool.schemagen.refs]``). Never the network."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

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
    return subprocess.run([sys.executable, "-m", "generator", *args], capture_output=True, text=True, cwd=project,
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
    assert sorted(p.name for p in (tmp_path / "generated").iterdir()) == ["__init__.py", "app", "py.typed"]
    source = (tmp_path / "generated" / "app" / "msgspec_models.py").read_text()
    assert "root: path" in source and "include: paths | UnsetType" in source and "paths = list[path]" in source
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
