"""schemagen as a user installs it: the wheel of this working tree, installed (not editable) into a fresh venv,
run in a project of its own. It writes what this checkout writes, and the modules it writes decode real payloads.

The venv is made once for the module (the build backend and the pinned dependencies come from pip's cache when
warm, else from PyPI: without either the fixture fails and says so).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from schemagen.project import config as configuration
from schemagen.project.plan import plan
from golden import ROOT
from install_tools import LOCK, environment, pip, run, user_project, working_tree

PAYLOAD = ROOT / "tests/fixtures/payloads/chat_completion_out/OpenAIChatCompletionOut/valid/typical_full_response.json"
ITEM = {"kind": "item", "id": 7, "price": 2.5, "unit": "kg"}


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with the wheel built from this working tree (by the backend that [build-system] pins) and the
    versions of requirements.lock."""
    work = tmp_path_factory.mktemp("install")
    source = working_tree(work / "source")
    env = environment()
    pip([sys.executable, "-m", "pip", "wheel", "--no-deps", "--wheel-dir", work / "dist", source], work, env,
        "build the wheel")
    [wheel] = (work / "dist").glob("schemagen-*.whl")
    result = run([sys.executable, "-m", "venv", work / "venv"], work, env)
    assert result.returncode == 0, result.stderr
    pip([work / "venv/bin/python", "-m", "pip", "install", "-c", LOCK, wheel], work, env, "install the wheel")
    return work / "venv"


@pytest.fixture(scope="module")
def project(venv: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A user's project after the installed ``schemagen generate`` (its cache a new folder: nothing kept by this
    checkout's runs can answer for it)."""
    folder = user_project(tmp_path_factory.mktemp("user") / "project")
    env = environment(SCHEMAGEN_CACHE_DIR=str(folder.parent / "cache"))
    result = run([venv / "bin/schemagen", "generate"], folder, env)
    assert result.returncode == 0, f"{result.stdout}\n{result.stderr}"
    return folder


def in_venv(venv: Path, project: Path, code: str) -> str:
    """What ``code`` prints, run by the venv's Python in ``project`` (without writing byte code there)."""
    result = run([venv / "bin/python", "-B", "-c", code], project, environment())
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_the_wheel_carries_every_module_the_built_in_templates_and_the_meta_schemas(venv: Path) -> None:
    [package] = (venv / "lib").glob("python3.*/site-packages/schemagen")
    installed = {p.relative_to(package).as_posix() for p in package.rglob("*") if p.is_file()
                 and "__pycache__" not in p.parts}
    modules = {p.relative_to(ROOT / "generator").as_posix() for p in (ROOT / "generator").rglob("*.py")}
    templates = {f"_templates/{p.name}" for p in (ROOT / "templates").glob("*.jinja")}
    metaschemas = {f"frontend/metaschemas/{p.name}" for p in (ROOT / "generator/frontend/metaschemas").iterdir()
                   if p.suffix == ".json" or p.name == "LICENSE"}
    assert len(metaschemas) == 20 and "frontend/metaschemas/draft-07.json" in metaschemas
    assert installed == modules | templates | metaschemas


def test_the_wheel_installs_schemagen_alone_and_its_dependencies_as_ranges(venv: Path, project: Path) -> None:
    """Nothing named ``generator`` lands in a user's environment (the source folder's name); every runtime
    dependency is a range from the version requirements.lock tests up to its next major one, but black, which
    decides the output's bytes, is exact (the lock's version)."""
    [site] = (venv / "lib").glob("python3.*/site-packages")
    [record] = site.glob("schemagen-*.dist-info/RECORD")
    tops = {line.split(",", 1)[0].split("/", 1)[0] for line in record.read_text().splitlines()}  # (a file too)
    assert {t for t in tops if not t.endswith(".dist-info") and t != ".."} == {"schemagen"}  # "..": bin/schemagen
    assert not (site / "generator").exists()
    found = json.loads(in_venv(venv, project, "import importlib.metadata as m, json; "
                                              "print(json.dumps(m.requires('schemagen')))"))
    runtime = sorted(r for r in found if "extra ==" not in r)
    locked = {name.lower(): version for name, _, version in
              (line.partition("==") for line in LOCK.read_text().splitlines() if "==" in line)}
    expected = []
    for name in ("black", "jinja2", "jsonpath-rfc9535", "jsonschema", "msgspec", "pyyaml"):
        version = locked[name]
        major = int(version.split(".")[0])
        upper = f"{major + 1}" if major else "1"
        expected.append(f"{name}=={version}" if name == "black" else f"{name}<{upper},>={version}")
    assert sorted(r.lower() for r in runtime) == expected


def test_the_installed_tool_runs_from_its_venv_and_finds_its_templates_there(venv: Path, project: Path) -> None:
    where = in_venv(venv, project, "import schemagen.render.templates as t; print(t.__file__, t.BUILTIN_TEMPLATES)")
    module, templates = map(Path, where.split())
    assert module.is_relative_to(venv) and templates.is_relative_to(venv) and templates.name == "_templates"


def test_the_installed_tool_writes_what_this_checkout_writes(project: Path) -> None:
    expected = plan(configuration.load(project)).files
    written = {p.relative_to(project / "generated"): p.read_bytes() for p in (project / "generated").rglob("*")
               if p.is_file()}
    assert written == {path: text.encode() for path, text in expected.items()}


def test_the_modules_it_writes_import_in_its_venv_and_decode_real_payloads(venv: Path, project: Path) -> None:
    code = f"""
import dataclasses, json, typing, msgspec
from generated.chat_completion_out import dataclass_models, msgspec_models, typeddict_models
from generated.items import msgspec_models as items
out = msgspec.json.decode(open({str(PAYLOAD)!r}, "rb").read(), type=msgspec_models.OpenAIChatCompletionOut)
item = msgspec.json.decode({json.dumps(ITEM)!r}, type=items.Item)
assert dataclasses.is_dataclass(dataclass_models.OpenAIChatCompletionOut)
assert typing.is_typeddict(typeddict_models.OpenAIChatCompletionOut)
print(json.dumps([out.id, msgspec.to_builtins(item)]))
"""
    assert json.loads(in_venv(venv, project, code)) == [json.loads(PAYLOAD.read_text())["id"], ITEM]
