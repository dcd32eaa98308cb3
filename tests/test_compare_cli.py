"""``schemagen compare`` as a user runs it: a temporary project, real subprocesses, real exit codes;
and the example of docs/compare.md, made again from OpenAI's description vendored in examples/openai."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from golden import ROOT

PROVIDER = {"title": "Out", "type": "object", "required": ["model", "choices"], "properties": {
    "id": {"type": "string"}, "model": {"type": "string"},
    "choices": {"type": "array", "items": {"$ref": "#/definitions/Choice"}}},
    "definitions": {"Choice": {"type": "object", "required": ["index"], "properties": {
        "index": {"type": "integer"},
        "finish_reason": {"enum": ["stop", "length", "malformed_function_call"]}}}}}
OPENAI = {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {}, "components": {"schemas": {
    "Response": {"type": "object", "required": ["id", "model", "choices"], "properties": {
        "id": {"type": "string"}, "model": {"type": "string"},
        "choices": {"type": "array", "items": {"type": "object", "required": ["index", "finish_reason"], "properties": {
            "index": {"type": "integer"},
            "finish_reason": {"anyOf": [{"enum": ["stop", "length", "function_call"]}, {"type": "null"}]}}}}}},
    "Other": {"type": "object", "properties": {"x": {"type": "string"}}}}}}


def run(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "schemagen", *args], capture_output=True, text=True, env=env, cwd=cwd)


def write(path: Path, value: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value, indent=2))


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text('[tool.schemagen]\nschemas = "schemas"\n')
    write(tmp_path / "schemas" / "provider.json", PROVIDER)
    write(tmp_path / "schemas" / "openai.json", OPENAI)
    return tmp_path


EXPECTED = """\
a->b  choices[].finish_reason: required in B, optional in A
a->b  choices[].finish_reason: value 'malformed_function_call' only in A
a->b  id: required in B, optional in A
b->a  choices[].finish_reason: null only in B
b->a  choices[].finish_reason: value 'function_call' only in B
"""


def test_text_one_line_per_difference_a_to_b_first_and_a_summary(project: Path) -> None:
    done = run(project, "compare", "schemas/provider.json", "schemas/openai.json#Response")
    assert done.returncode == 0, done.stderr
    assert done.stdout == EXPECTED
    assert done.stderr == ("3 a->b, 2 b->a, 0 docs (schemas/provider.json#Out as A, schemas/openai.json#Response "
                           "as B); 2 pairs of declarations\n")


def test_fail_on_incompatible_fails_only_on_an_a_to_b_difference(project: Path) -> None:
    assert run(project, "compare", "schemas/provider.json", "schemas/openai.json#Response",
               "--fail-on-incompatible").returncode == 1
    write(project / "schemas" / "wider.json", {**PROVIDER, "required": []})
    done = run(project, "compare", "schemas/provider.json", "schemas/wider.json", "--fail-on-incompatible")
    assert done.returncode == 0, done.stdout  # only b->a: B's payloads may lack what A requires
    assert done.stdout.splitlines() == ["b->a  choices: required in A, optional in B",
                                        "b->a  model: required in A, optional in B"]
    same = run(project, "compare", "schemas/provider.json", "schemas/provider.json", "--fail-on-incompatible")
    assert (same.returncode, same.stdout) == (0, "no differences\n")


def test_markdown_is_a_table(project: Path) -> None:
    done = run(project, "compare", "schemas/provider.json", "schemas/openai.json#Response", "--format", "markdown")
    rows = done.stdout.splitlines()
    assert rows[:3] == ["| direction | where | A | B | what |", "| --- | --- | --- | --- | --- |",
                        "| **a->b** | `choices[].finish_reason` | `Choice` | `ResponseChoice` | "
                        "required in B, optional in A |"]
    assert len(rows) == 2 + 5


def test_json_has_the_pairs_and_each_difference_with_its_witness(project: Path) -> None:
    done = run(project, "compare", "schemas/provider.json", "schemas/openai.json#Response", "--format", "json")
    document = json.loads(done.stdout)
    assert list(document) == ["a", "b", "pairs", "differences", "root_causes"]
    assert document["a"] == "schemas/provider.json#Out" and document["b"] == "schemas/openai.json#Response"
    assert document["pairs"] == [["Out", "Response"], ["Choice", "ResponseChoice"]]
    first = document["differences"][1]
    assert list(first) == ["direction", "where", "a", "b", "field", "what", "witness", "hidden_by"]
    assert first == {"direction": "a->b", "where": "choices[].finish_reason", "a": "Choice",
                     "b": "ResponseChoice", "field": "finish_reason",
                     "what": "value 'malformed_function_call' only in A",
                     "witness": {"id": "", "model": "", "choices": [{"index": 0, "finish_reason": "malformed_function_call"}]},
                     "hidden_by": None}
    assert all(d["witness"] is not None for d in document["differences"])
    assert document["root_causes"] == []


@pytest.mark.parametrize(("args", "message"), [
    (("schemas/nope.json", "schemas/provider.json"), "error: A: schemas/nope.json: no input 'schemas/nope.json' (no such file or folder)"),
    (("schemas/provider.json", "schemas/openai.json#Respons"),
     "error: B: schemas/openai.json: no declaration 'Respons'; did you mean 'Response' or 'ResponseChoice'?"),
    (("schemas/provider.json", "schemas/openai.json"),
     "error: B: schemas/openai.json has no root schema; name a declaration: schemas/openai.json#Name (one of: Other, "
     "Response, …)"),
])
def test_an_unknown_input_or_name_is_a_clear_error(project: Path, args: tuple[str, str], message: str) -> None:
    done = run(project, "compare", *args)
    assert (done.returncode, done.stdout, done.stderr) == (1, "", message + "\n")


def test_a_schema_that_fails_to_lower_is_reported_at_its_line(project: Path) -> None:
    (project / "schemas" / "broken.json").write_text('{"title": "X", "properties": {"a": {"$ref": "#/nowhere"}}}')
    done = run(project, "compare", "schemas/broken.json", "schemas/provider.json")
    assert done.returncode == 1
    assert done.stderr.startswith("schemas/broken.json:1:45: #/properties/a/$ref: unresolved reference"), done.stderr


def test_paths_are_read_in_their_own_project_or_in_project(project: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    (elsewhere / "pyproject.toml").write_text('[tool.schemagen]\nschemas = "schemas"\n')
    write(elsewhere / "schemas" / "provider.json", {**PROVIDER, "required": []})
    done = run(project / "schemas", "compare", "provider.json", str(elsewhere / "schemas" / "provider.json"))
    other = os.path.relpath(elsewhere / "schemas" / "provider.json", project / "schemas")
    assert done.stderr.startswith(f"0 a->b, 2 b->a, 0 docs (provider.json#Out as A, {other}#Out as B)"), done.stderr
    with_project = run(elsewhere, "--project", str(project), "compare", "schemas/provider.json", "schemas/openai.json#Response")
    assert with_project.stdout == EXPECTED
    there = os.path.relpath(project / "schemas", elsewhere)
    assert f"({there}/provider.json#Out as A, {there}/openai.json#Response as B)" in with_project.stderr


def test_a_side_is_named_as_typed_relative_to_the_working_folder(project: Path) -> None:
    """Not as the project names it: run in a folder of the project, ``../schemas/x.json`` is that."""
    (project / "work").mkdir()
    done = run(project / "work", "compare", "../schemas/provider.json", "./../schemas/openai.json#Response")
    assert "(../schemas/provider.json#Out as A, ../schemas/openai.json#Response as B)" in done.stderr, done.stderr
    missing = run(project / "work", "compare", "../schemas/provider.json", "../schemas/openai.json")
    assert missing.stderr.startswith("error: B: ../schemas/openai.json has no root schema; name a declaration: "
                                     "../schemas/openai.json#Name"), missing.stderr


def test_references_to_another_input_are_followed(project: Path) -> None:
    write(project / "schemas" / "items.json", {"definitions": {"Item": {"type": "object", "properties": {
        "n": {"type": "integer"}}}}})
    write(project / "schemas" / "list.json", {"title": "List", "type": "object", "properties": {
        "items": {"type": "array", "items": {"$ref": "items.json#/definitions/Item"}}}})
    write(project / "schemas" / "strict.json", {"title": "List", "type": "object", "properties": {
        "items": {"type": "array", "items": {"type": "object", "required": ["n"], "properties": {
            "n": {"type": "integer", "maximum": 3}}}}}})
    done = run(project, "compare", "schemas/list.json", "schemas/strict.json")
    assert done.stdout == ("a->b  items[].n: required in B, optional in A\n"
                           "a->b  items[].n: le 3 in B, none in A\n"), done.stderr
    pairs = json.loads(run(project, "compare", "schemas/list.json", "schemas/strict.json", "--format", "json").stdout)["pairs"]
    assert pairs == [["List", "List"], ["items.Item", "ListItem"]]


def test_a_listed_input_is_compared_with_its_settings(project: Path) -> None:
    """Its overlays and its required_defaults, as `generate` reads it."""
    with_default = {**PROVIDER["properties"], "id": {"type": "string", "default": ""}}
    write(project / "schemas" / "defaults.json", {**PROVIDER, "required": ["id", "model", "choices"], "properties": with_default})
    write(project / "mends" / "provider.json", {"overlay": "1.0.0", "info": {"title": "t", "version": "1"}, "actions": [
        {"target": "$.required[?@ == 'choices']", "remove": True}]})
    plain = run(project, "compare", "schemas/provider.json", "schemas/defaults.json")
    assert plain.stdout == "a->b  id: required in B, optional in A\n", plain.stderr
    (project / "pyproject.toml").write_text(
        '[tool.schemagen]\nschemas = "schemas"\n\n[[tool.schemagen.inputs]]\npath = "schemas/provider.json"\n'
        'overlays = ["mends/provider.json"]\n\n[[tool.schemagen.inputs]]\npath = "schemas/defaults.json"\n'
        'required_defaults = "optional"\n')
    listed = run(project, "compare", "schemas/provider.json", "schemas/defaults.json")
    assert listed.stdout == "a->b  choices: required in B, optional in A\n", listed.stderr


def _docs_examples() -> list[tuple[str, str]]:
    """Each command docs/compare.md shows (``$ schemagen compare …``) and its output: the provider against
    OpenAI's description, and the Mistral-like fixture."""
    text = (ROOT / "docs" / "compare.md").read_text()
    blocks = re.findall(r"```\n\$ (schemagen compare [^\n]*)\n(.*?)```", text, re.S)
    assert len(blocks) == 2, "docs/compare.md should show two `$ schemagen compare` examples"
    return blocks


@pytest.mark.parametrize("example", _docs_examples(), ids=["openai", "mistral"])
def test_the_docs_example_is_what_compare_prints(example: tuple[str, str]) -> None:
    """Run at the root as docs/compare.md shows it, with OpenAI's description vendored in examples/openai."""
    command, shown = example
    done = run(ROOT, *command.split()[1:])
    assert done.returncode == 0, done.stderr
    summary = shown.splitlines()[-1]
    assert done.stdout + done.stderr.splitlines()[-1] == shown.rstrip("\n").rsplit("\n", 1)[0] + "\n" + summary
