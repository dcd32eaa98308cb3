"""Reviewing a schema update: ``diff`` against a git revision, ``generate --check``, and an output
folder that is written only when everything succeeds, and only where bytes change.

Every test runs the command line in a subprocess on a temporary git repository.
"""

from __future__ import annotations

import copy
import json
import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from schemagen import ir
from schemagen.review import changes, report

from golden import ROOT

GIT_ENV = {
    "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.com",
    "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.com",
    "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
}

#: The schema every diff test starts from (package `shop`, root model `Order`).
SHOP: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Order",
    "description": "An order.",
    "type": "object",
    "required": ["id", "status"],
    "properties": {
        "id": {"type": "integer", "minimum": 1},
        "status": {"$ref": "#/$defs/Status"},
        "note": {"type": "string", "maxLength": 100, "description": "Free text."},
        "code": {"type": "string", "pattern": "^[A-Z]+$"},
        "quantity": {"type": "integer", "minimum": 1, "maximum": 10},
        "weight": {"type": "number", "multipleOf": 0.5, "exclusiveMaximum": 100},
        "tags": {"type": "array", "items": {"type": "string"}},
        "channel": {"type": "string", "enum": ["web", "shop"], "default": "web"},
        "customer": {"$ref": "#/$defs/Customer"},
        "coupon": {"type": ["string", "null"]},
        "amount": {"anyOf": [{"type": "number"}, {"type": "string"}]},
        "datetime": {"type": "string"},
        "at": {"type": "string"},
    },
    "$defs": {
        "Status": {"type": "string", "enum": ["open", "paid", "void"], "description": "Where the order is."},
        "Currency": {"type": "string", "enum": ["EUR", "USD"]},
        "Customer": {"type": "object", "required": ["name"],
                     "properties": {"name": {"type": "string"}, "email": {"type": "string"}}},
        "Address": {"type": "object", "properties": {"city": {"type": "string"}}},
    },
}


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, env={**os.environ, **GIT_ENV})
    assert done.returncode == 0, done.stderr
    return done.stdout


def run(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **GIT_ENV, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "schemagen", "--project", str(project), *args],
                          capture_output=True, text=True, env=env, cwd=project)


def write(path: Path, schema: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(schema, indent=2) + "\n")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A git repository with this project's configuration and the `shop` schema, committed."""
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    write(tmp_path / "schemas" / "shop.json", SHOP)
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-q", "-m", "shop")
    return tmp_path


def report_lines(result: subprocess.CompletedProcess[str]) -> list[str]:
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    return [line for line in result.stdout.splitlines() if line]


# One schema edit per rule, and the exact report it must produce ---------------------------------

Edit = Callable[[dict[str, Any]], None]


def _set(path: str, value: Any) -> Edit:
    """An edit setting ``value`` at a ``/``-separated path (``None``: delete the key)."""
    *parents, last = path.split("/")

    def edit(schema: dict[str, Any]) -> None:
        node = schema
        for key in parents:
            node = node[key]
        if value is None:
            del node[last]
        else:
            node[last] = value
    return edit


def _rename_property(old: str, new: str) -> Edit:
    def edit(schema: dict[str, Any]) -> None:
        schema["properties"] = {new if k == old else k: v for k, v in schema["properties"].items()}
    return edit


RULES: dict[str, tuple[Edit, list[str]]] = {
    "model removed": (_set("$defs/Address", None), ["BREAKING   shop.Address: model removed"]),
    "alias removed": (_set("$defs/Currency", None), ["BREAKING   shop.Currency: alias removed"]),
    "model added": (_set("$defs/Refund", {"type": "object", "properties": {"amount": {"type": "number"}}}),
                    ["compatible shop.Refund: model added"]),
    "alias added": (_set("$defs/Size", {"type": "string", "enum": ["S", "M"]}), ["compatible shop.Size: alias added"]),
    "field removed": (_set("properties/note", None), ["BREAKING   shop.Order.note: field removed"]),
    "optional field added": (_set("properties/gift", {"type": "boolean"}), ["compatible shop.Order.gift: field added"]),
    "required field added": (
        lambda s: (_set("properties/store", {"type": "string"})(s), s["required"].append("store")),
        ["BREAKING   shop.Order.store: required field added"]),
    "wire name changed": (_rename_property("note", "remark"),
                          ["BREAKING   shop.Order.note: field removed", "compatible shop.Order.remark: field added"]),
    # `at` becoming a date-time makes the module use `datetime`, so the field of that name moves aside.
    "python name changed": (_set("properties/at/format", "date-time"), [
        "BREAKING   shop.Order.at: type changed from str to str (date-time)",
        "BREAKING   shop.Order.datetime: renamed to 'datetime_' (wire name 'datetime')"]),
    "became required": (lambda s: s["required"].append("note"), ["BREAKING   shop.Order.note: became required"]),
    "no longer required": (lambda s: s["required"].remove("status"), ["BREAKING   shop.Order.status: no longer required"]),
    "became nullable": (_set("properties/note/type", ["string", "null"]), ["BREAKING   shop.Order.note: became nullable"]),
    "no longer nullable": (_set("properties/coupon/type", "string"), ["BREAKING   shop.Order.coupon: no longer nullable"]),
    "enum value removed from an alias": (_set("$defs/Status/enum", ["open", "paid"]),
                                         ["BREAKING   shop.Status: enum value 'void' removed"]),
    "enum value removed inline": (_set("properties/channel/enum", ["web"]),
                                  ["BREAKING   shop.Order.channel: enum value 'shop' removed"]),
    "enum value added": (_set("properties/channel/enum", ["web", "shop", "phone"]),
                         ["compatible shop.Order.channel: enum value 'phone' added"]),
    "union member removed": (_set("properties/amount/anyOf", [{"type": "number"}]),
                             ["BREAKING   shop.Order.amount: union member str removed"]),
    "union member added": (_set("properties/amount/anyOf", [{"type": "number"}, {"type": "string"}, {"type": "boolean"}]),
                           ["compatible shop.Order.amount: union member bool added"]),
    "scalar kind changed": (_set("properties/id", {"type": "string"}),
                            ["BREAKING   shop.Order.id: type changed from int to str"]),
    "list to scalar": (_set("properties/tags", {"type": "string"}),
                       ["BREAKING   shop.Order.tags: type changed from list[str] to str"]),
    "scalar to list": (_set("properties/code", {"type": "array", "items": {"type": "string"}}),
                       ["BREAKING   shop.Order.code: type changed from str to list[str]"]),
    "item type changed": (_set("properties/tags/items/type", "integer"),
                          ["BREAKING   shop.Order.tags: items: type changed from str to int"]),
    "ref target changed": (_set("properties/customer/$ref", "#/$defs/Address"),
                           ["BREAKING   shop.Order.customer: type changed from Customer to Address"]),
    "default changed": (_set("properties/channel/default", "shop"),
                        ["BREAKING   shop.Order.channel: default changed from 'web' to 'shop'"]),
    "default added": (_set("properties/code/default", "A"), ["BREAKING   shop.Order.code: default 'A' added"]),
    "min raised": (_set("properties/quantity/minimum", 2), ["BREAKING   shop.Order.quantity: ge raised from 1 to 2"]),
    "max lowered": (_set("properties/note/maxLength", 50), ["BREAKING   shop.Order.note: max_length lowered from 100 to 50"]),
    "min added": (_set("properties/note/minLength", 1), ["BREAKING   shop.Order.note: min_length 1 added"]),
    "pattern added": (_set("properties/note/pattern", "^[a-z]+$"),
                      ["BREAKING   shop.Order.note: pattern '^[a-z]+$' added"]),
    "pattern changed": (_set("properties/code/pattern", "^[A-Z0-9]+$"),
                        ["BREAKING   shop.Order.code: pattern changed from '^[A-Z]+$' to '^[A-Z0-9]+$'"]),
    "multiple_of changed": (_set("properties/weight/multipleOf", 0.25),
                            ["BREAKING   shop.Order.weight: multiple_of changed from 0.5 to 0.25"]),
    "max raised": (_set("properties/quantity/maximum", 20), ["compatible shop.Order.quantity: le raised from 10 to 20"]),
    "min lowered": (_set("properties/quantity/minimum", 0), ["compatible shop.Order.quantity: ge lowered from 1 to 0"]),
    "constraint removed": (_set("properties/weight/exclusiveMaximum", None),
                           ["compatible shop.Order.weight: lt 100 removed"]),
    "pattern removed": (_set("properties/code/pattern", None), ["compatible shop.Order.code: pattern '^[A-Z]+$' removed"]),
    "closed": (_set("$defs/Customer/additionalProperties", False),
               ["BREAKING   shop.Customer: now forbids unknown fields"]),
    "field description changed": (_set("properties/note/description", "Anything."),
                                  ["docs       shop.Order.note: description changed"]),
    "model description removed": (_set("description", None), ["docs       shop.Order: description removed"]),
    "alias description added": (_set("$defs/Currency/description", "ISO 4217."),
                                ["docs       shop.Currency: description added"]),
}


@pytest.mark.parametrize("rule", list(RULES))
def test_each_rule_gives_its_exact_report(repo: Path, rule: str) -> None:
    edit, expected = RULES[rule]
    schema = copy.deepcopy(SHOP)
    edit(schema)
    write(repo / "schemas" / "shop.json", schema)
    assert report_lines(run(repo, "diff")) == expected


def test_breaking_first_then_compatible_then_docs(repo: Path) -> None:
    schema = copy.deepcopy(SHOP)
    schema["properties"]["note"]["description"] = "Anything."
    schema["properties"]["gift"] = {"type": "boolean"}
    schema["$defs"]["Status"]["enum"] = ["open", "paid"]
    write(repo / "schemas" / "shop.json", schema)
    write(repo / "schemas" / "billing.json", {"title": "Invoice", "type": "object",
                                                "properties": {"total": {"type": "number"}}})
    result = run(repo, "diff")
    assert result.stdout == (
        "BREAKING   shop.Status: enum value 'void' removed\n"
        "compatible billing.Invoice: model added\n"
        "compatible shop.Order.gift: field added\n"
        "docs       shop.Order.note: description changed\n")
    assert "changes since HEAD: 1 breaking, 2 compatible, 1 docs" in result.stderr


def test_the_kind_orders_before_the_package(repo: Path) -> None:
    """A breaking change in package `zzz` comes before a compatible one in `aaa`, in text and in Markdown."""
    aaa = {"title": "A", "type": "object", "properties": {"note": {"type": "string", "description": "Free."}}}
    zzz = {"title": "Z", "type": "object", "properties": {"size": {"type": "string", "enum": ["S", "M"]},
                                                         "gone": {"type": "integer"}}}
    write(repo / "schemas" / "aaa.json", aaa)
    write(repo / "schemas" / "zzz.json", zzz)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "aaa and zzz")
    aaa["properties"]["note"]["description"] = "Anything."
    aaa["properties"]["gift"] = {"type": "boolean"}
    del zzz["properties"]["gone"]
    zzz["properties"]["size"]["enum"].append("L")
    write(repo / "schemas" / "aaa.json", aaa)
    write(repo / "schemas" / "zzz.json", zzz)
    text = run(repo, "diff")
    assert text.stdout == (
        "BREAKING   zzz.Z.gone: field removed\n"
        "compatible aaa.A.gift: field added\n"
        "compatible zzz.Z.size: enum value 'L' added\n"
        "docs       aaa.A.note: description changed\n")
    assert "changes since HEAD: 1 breaking, 2 compatible, 1 docs" in text.stderr
    assert run(repo, "diff", "--format", "markdown").stdout == (
        "| change | where | what |\n"
        "| --- | --- | --- |\n"
        "| **BREAKING** | `zzz.Z.gone` | field removed |\n"
        "| compatible | `aaa.A.gift` | field added |\n"
        "| compatible | `zzz.Z.size` | enum value 'L' added |\n"
        "| docs | `aaa.A.note` | description changed |\n")


def test_an_input_deleted_or_added_lists_all_its_declarations(repo: Path) -> None:
    (repo / "schemas" / "shop.json").unlink()
    write(repo / "schemas" / "pets.json", {"title": "Pet", "type": "object", "properties": {"name": {"type": "string"}}})
    assert report_lines(run(repo, "diff")) == [
        "BREAKING   shop.Address: model removed",
        "BREAKING   shop.Currency: alias removed",
        "BREAKING   shop.Customer: model removed",
        "BREAKING   shop.Order: model removed",
        "BREAKING   shop.Status: alias removed",
        "compatible pets.Pet: model added",
    ]


def test_markdown_table_and_fail_on_breaking(repo: Path) -> None:
    schema = copy.deepcopy(SHOP)
    schema["$defs"]["Status"]["enum"] = ["open", "paid"]
    schema["properties"]["amount"]["anyOf"] = [{"type": "number"}]
    schema["properties"]["gift"] = {"type": "boolean"}
    write(repo / "schemas" / "shop.json", schema)
    result = run(repo, "diff", "--format", "markdown")
    assert result.returncode == 0
    assert result.stdout == (
        "| change | where | what |\n"
        "| --- | --- | --- |\n"
        "| **BREAKING** | `shop.Order.amount` | union member str removed |\n"
        "| **BREAKING** | `shop.Status` | enum value 'void' removed |\n"
        "| compatible | `shop.Order.gift` | field added |\n")
    assert run(repo, "diff", "--fail-on-breaking").returncode == 1
    write(repo / "schemas" / "shop.json", {**SHOP, "properties": {**SHOP["properties"], "gift": {"type": "boolean"}}})
    compatible_only = run(repo, "diff", "--fail-on-breaking")
    assert compatible_only.returncode == 0 and compatible_only.stdout == "compatible shop.Order.gift: field added\n"


def test_markdown_cells_escape_what_would_break_the_table() -> None:
    found = [changes.Change("breaking", "p.M.f", "pattern 'a|b_*' added")]
    assert report.markdown(found).splitlines()[-1] == r"| **BREAKING** | `p.M.f` | pattern 'a\|b\_\*' added |"


def test_base_names_any_revision(repo: Path) -> None:
    schema = copy.deepcopy(SHOP)
    del schema["properties"]["note"]
    write(repo / "schemas" / "shop.json", schema)
    git(repo, "commit", "-q", "-am", "drop note")
    assert run(repo, "diff").stdout == "no model changes\n"
    assert report_lines(run(repo, "diff", "--base", "HEAD~1")) == ["BREAKING   shop.Order.note: field removed"]


def test_a_project_in_a_subfolder_of_the_repository(tmp_path: Path) -> None:
    project = tmp_path / "services" / "api"
    project.mkdir(parents=True)
    shutil.copy(ROOT / "pyproject.toml", project / "pyproject.toml")
    write(project / "schemas" / "shop.json", SHOP)
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-q", "-m", "shop")
    schema = copy.deepcopy(SHOP)
    schema["$defs"]["Status"]["enum"].append("refunded")
    write(project / "schemas" / "shop.json", schema)
    assert report_lines(run(project, "diff")) == ["compatible shop.Status: enum value 'refunded' added"]


def test_a_reference_into_another_input(repo: Path) -> None:
    write(repo / "schemas" / "common.json", {"$defs": {
        "Money": {"type": "object", "properties": {"amount": {"type": "number"}}},
        "Price": {"type": "object", "properties": {"value": {"type": "number"}}}}})
    write(repo / "schemas" / "shop.json", {**SHOP, "properties": {
        **SHOP["properties"], "total": {"$ref": "common.json#/$defs/Money"}}})
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "total")
    write(repo / "schemas" / "shop.json", {**SHOP, "properties": {
        **SHOP["properties"], "total": {"$ref": "common.json#/$defs/Price"}}})
    assert report_lines(run(repo, "diff")) == ["BREAKING   shop.Order.total: type changed from common.Money to common.Price"]


def test_strict_changes_nothing_in_diff(repo: Path) -> None:
    """`diff` reads no warnings: a schema that warns is compared all the same."""
    write(repo / "schemas" / "shop.json", {**SHOP, "properties": {
        **SHOP["properties"], "gift": {"type": "boolean", "not": {"const": False}}}})
    assert len([line for line in run(repo, "generate").stderr.splitlines() if line.startswith("warning: ")]) == 1
    assert report_lines(run(repo, "--strict", "diff")) == ["compatible shop.Order.gift: field added"]


def test_an_unknown_revision_is_a_clear_error(repo: Path) -> None:
    result = run(repo, "diff", "--base", "no-such-branch")
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.startswith("error: unknown revision 'no-such-branch'")
    assert "Traceback" not in result.stderr


def test_outside_a_git_repository_is_a_clear_error(tmp_path: Path) -> None:
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    write(tmp_path / "schemas" / "shop.json", SHOP)
    result = run(tmp_path, "diff")
    assert result.returncode == 1 and "is not in a git working tree" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_schema_that_fails_now_or_then_is_reported(repo: Path) -> None:
    schema = copy.deepcopy(SHOP)
    schema["properties"]["customer"]["$ref"] = "#/$defs/Nobody"
    write(repo / "schemas" / "shop.json", schema)
    now = run(repo, "diff")
    assert now.returncode == 1 and now.stdout == "" and "Traceback" not in now.stderr
    assert "schemas/shop.json:52:15: #/properties/customer/$ref: unresolved reference '#/$defs/Nobody'" in now.stderr
    git(repo, "commit", "-q", "-am", "broken")
    write(repo / "schemas" / "shop.json", SHOP)
    then = run(repo, "diff")
    assert then.returncode == 1 and "Traceback" not in then.stderr
    assert "HEAD:schemas/shop.json: #/properties/customer/$ref: unresolved reference" in then.stderr


def test_a_schema_folder_that_did_not_exist_at_the_base_is_all_added(tmp_path: Path) -> None:
    (tmp_path / "README").write_text("nothing yet\n")
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-q", "-m", "empty")
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    write(tmp_path / "schemas" / "pets.json", {"title": "Pet", "type": "object", "properties": {"name": {"type": "string"}}})
    assert report_lines(run(tmp_path, "diff")) == ["compatible pets.Pet: model added"]


# Unrelated edits: no model change, and (but for descriptions) no change in generated/ -----------

def _reorder(node: Any, names: bool = False) -> Any:
    """Every schema object's keywords in reverse order, and every `required` list reversed; the
    order of properties and definitions (the order of fields and classes) is kept."""
    if isinstance(node, dict):
        items = [(k, _reorder(v, names=k in ("properties", "$defs"))) for k, v in node.items()]
        return dict(items if names else reversed(items))
    if isinstance(node, list):
        return [_reorder(v) for v in node]
    return node


def _generate_then_edit(repo: Path, text: str) -> tuple[subprocess.CompletedProcess[str], str]:
    first = run(repo, "generate")
    assert first.returncode == 0, first.stderr
    (repo / "schemas" / "shop.json").write_text(text)
    diff = run(repo, "diff")
    return diff, run(repo, "generate").stderr


def test_reordered_keys_change_nothing(repo: Path) -> None:
    reordered = _reorder(SHOP)
    reordered["required"] = list(reversed(SHOP["required"]))
    text = json.dumps(reordered, indent=2)
    assert text != json.dumps(SHOP, indent=2)
    diff, generated = _generate_then_edit(repo, text)
    assert diff.stdout == "no model changes\n"
    assert "0 written" in generated


def test_whitespace_changes_nothing(repo: Path) -> None:
    diff, generated = _generate_then_edit(repo, json.dumps(SHOP, separators=(",", ":")) + "\n\n")
    assert diff.stdout == "no model changes\n"
    assert "0 written" in generated


def test_moving_a_property_is_no_model_change(repo: Path) -> None:
    schema = copy.deepcopy(SHOP)
    schema["properties"] = dict(reversed(schema["properties"].items()))
    write(repo / "schemas" / "shop.json", schema)
    assert run(repo, "diff").stdout == "no model changes\n"


def test_a_class_named_anew_at_the_same_place_is_renamed_with_both_names_said(repo: Path) -> None:
    schema = copy.deepcopy(SHOP)
    schema["$defs"]["AddressParam"] = schema["$defs"].pop("Address")
    schema["$defs"]["Customer"]["properties"]["address"] = {"type": "object", "properties": {"zip": {"type": "string"}}}
    write(repo / "schemas" / "shop.json", schema)
    git(repo, "commit", "-qam", "a parameter")
    pyproject = repo / "pyproject.toml"
    pyproject.write_text(pyproject.read_text().replace("[tool.schemagen]\n", '[tool.schemagen]\nnames = "sdk"\n', 1))
    schema["$defs"]["Customer"]["properties"]["address"]["properties"]["street"] = {"type": "string"}
    write(repo / "schemas" / "shop.json", schema)
    assert report_lines(run(repo, "diff")) == [
        "BREAKING   shop.AddressParam: model renamed to Address",
        "compatible shop.CustomerAddress.street: field added",
        "docs       shop.Address: description added"]


def test_a_description_change_gives_only_docs_lines(repo: Path) -> None:
    schema = copy.deepcopy(SHOP)
    schema["description"] = "A customer's order."
    schema["$defs"]["Status"]["description"] = "Where it is."
    write(repo / "schemas" / "shop.json", schema)
    assert report_lines(run(repo, "diff", "--fail-on-breaking")) == [
        "docs       shop.Order: description changed",
        "docs       shop.Status: description changed",
    ]


# generate --check, and generate keeping generated/ exact -----------------------------------------

def snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every file's bytes and modification time (ns)."""
    return {p.relative_to(folder).as_posix(): (p.read_bytes(), p.stat().st_mtime_ns)
            for p in sorted(folder.rglob("*")) if p.is_file()}


def age(folder: Path) -> None:
    """Set every file's mtime far in the past, so that a rewrite shows even within one clock tick."""
    for p in folder.rglob("*"):
        if p.is_file():
            os.utime(p, ns=(1_000_000_000, 1_000_000_000))


@pytest.fixture
def generated(repo: Path) -> Path:
    result = run(repo, "generate")
    assert result.returncode == 0, result.stderr
    age(repo / "generated")
    return repo


def test_check_is_0_when_fresh(generated: Path) -> None:
    result = run(generated, "generate", "--check")
    assert result.returncode == 0 and "is up to date" in result.stderr and result.stdout == ""


def test_check_is_1_with_the_diff_when_a_schema_was_edited(generated: Path) -> None:
    schema = copy.deepcopy(SHOP)
    schema["properties"]["gift"] = {"type": "boolean"}
    write(generated / "schemas" / "shop.json", schema)
    before = snapshot(generated / "generated")
    result = run(generated, "generate", "--check")
    assert result.returncode == 1
    assert "+++ b/generated/shop/msgspec_models.py" in result.stdout
    assert "+    gift: bool | UnsetType = UNSET" in result.stdout
    assert snapshot(generated / "generated") == before


def test_check_is_1_when_a_generated_file_was_edited_by_hand(generated: Path) -> None:
    target = generated / "generated" / "shop" / "dataclass_models.py"
    target.write_text(target.read_text().replace("    note: str | None = None", "    note: str = ''"))
    result = run(generated, "generate", "--check")
    assert result.returncode == 1
    assert "-    note: str = ''" in result.stdout and "+    note: str | None = None" in result.stdout


def test_check_lists_a_stale_module_of_a_deleted_schema_as_extra(generated: Path) -> None:
    write(generated / "schemas" / "pets.json", {"title": "Pet", "type": "object"})
    assert run(generated, "generate").returncode == 0
    (generated / "schemas" / "pets.json").unlink()
    result = run(generated, "generate", "--check")
    assert result.returncode == 1
    extra = result.stderr.split("extra (their input is gone):\n", 1)[1].splitlines()
    assert [line.strip() for line in extra[:5]] == [
        "generated/pets/__init__.py", "generated/pets/dataclass_models.py",
        "generated/pets/msgspec_models.py", "generated/pets/pydantic_models.py", "generated/pets/typeddict_models.py"]


def test_generate_removes_the_module_of_a_deleted_schema_but_never_a_hand_written_file(generated: Path) -> None:
    write(generated / "schemas" / "pets.json", {"title": "Pet", "type": "object"})
    assert run(generated, "generate").returncode == 0
    (generated / "generated" / "pets" / "helpers.py").write_text("def helper() -> int:\n    return 1\n")
    (generated / "generated" / "notes.md").write_text("hand written\n")
    age(generated / "generated")
    kept = {k: v for k, v in snapshot(generated / "generated").items() if not k.startswith("pets/")}
    kept["pets/helpers.py"] = snapshot(generated / "generated")["pets/helpers.py"]
    (generated / "schemas" / "pets.json").unlink()
    result = run(generated, "generate")
    assert result.returncode == 0 and "5 removed" in result.stderr  # (this project's four variants, and __init__)
    assert snapshot(generated / "generated") == kept  # the shop modules too: bytes and mtimes


def test_a_failed_generation_leaves_generated_untouched(generated: Path) -> None:
    before = snapshot(generated / "generated")
    schema = copy.deepcopy(SHOP)
    schema["properties"]["gift"] = {"type": "boolean"}  # a good edit that would be written...
    write(generated / "schemas" / "shop.json", schema)
    write(generated / "schemas" / "broken.json", {"title": "Broken", "type": "object",  # ...beside a bad schema
                                                  "properties": {"x": {"$ref": "#/$defs/Missing"}}})
    result = run(generated, "generate")
    assert result.returncode == 1 and "unresolved reference '#/$defs/Missing'" in result.stderr
    assert snapshot(generated / "generated") == before
    assert not list((generated / "generated").rglob("*.schemagen-tmp"))


def test_unchanged_files_keep_their_mtime(generated: Path) -> None:
    before = snapshot(generated / "generated")
    again = run(generated, "generate")
    assert again.returncode == 0 and "0 written" in again.stderr
    assert snapshot(generated / "generated") == before
    schema = copy.deepcopy(SHOP)
    schema["properties"]["gift"] = {"type": "boolean"}
    write(generated / "schemas" / "shop.json", schema)
    write(generated / "schemas" / "pets.json", {"title": "Pet", "type": "object"})
    third = run(generated, "generate")
    after = snapshot(generated / "generated")
    changed = sorted(k for k in after if after[k] != before.get(k))
    assert changed == ["pets/__init__.py", "pets/dataclass_models.py", "pets/msgspec_models.py",
                       "pets/pydantic_models.py", "pets/typeddict_models.py", "shop/dataclass_models.py",
                       "shop/msgspec_models.py", "shop/pydantic_models.py", "shop/typeddict_models.py"], third.stderr


# The pre-commit hook ----------------------------------------------------------------------------

def test_pre_commit_hook_runs_generate_check(generated: Path) -> None:
    [hook] = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    assert hook["id"] == "schemagen-check" and hook["pass_filenames"] is False
    assert hook["language"] in ("system", "python")
    command = shlex.split(hook["entry"])
    assert command == ["schemagen", "generate", "--check"]
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    assert subprocess.run(command, cwd=generated, env=env, capture_output=True).returncode == 0
    write(generated / "schemas" / "shop.json", {**SHOP, "description": "Changed."})
    assert subprocess.run(command, cwd=generated, env=env, capture_output=True).returncode == 1


# Reading the diff of generated/ ------------------------------------------------------------------

def test_git_reads_the_attributes_of_generated_files() -> None:
    """Python hunk headers for generated/ in git, and collapsed as generated in GitHub's review view."""
    found = git(ROOT, "check-attr", "diff", "linguist-generated", "--", "generated/openai/msgspec_models.py")
    assert found == ("generated/openai/msgspec_models.py: diff: python\n"
                     "generated/openai/msgspec_models.py: linguist-generated: true\n")
    assert "unspecified" in git(ROOT, "check-attr", "diff", "--", "generator/cli.py")


def test_make_review_setup_makes_histogram_the_diff_of_the_clone(tmp_path: Path) -> None:
    """The target sets `diff.algorithm` in the clone it runs in, and `git diff` then uses it. The two
    files are lines for which git's myers and histogram give different diffs."""
    git(tmp_path, "init", "-q")
    (tmp_path / "a.txt").write_text("\n".join(["class A:", "pass", "    y: str", "    x: int", "", '"""',
                                               "    x: int", "    x: int"]) + "\n")
    git(tmp_path, "add", "a.txt")
    git(tmp_path, "commit", "-q", "-m", "a")
    (tmp_path / "a.txt").write_text("\n".join(["    y: str"] * 3 + ["class B:", "    y: str"]) + "\n")
    myers, histogram = (git(tmp_path, "diff", "--numstat", f"--diff-algorithm={a}") for a in ("myers", "histogram"))
    assert myers != histogram
    assert git(tmp_path, "diff", "--numstat") == myers
    env = {**os.environ, **GIT_ENV}
    done = subprocess.run(["make", "-s", "-f", str(ROOT / "Makefile"), "review-setup"], cwd=tmp_path, env=env,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "git config diff.algorithm histogram" in done.stdout
    assert git(tmp_path, "config", "--local", "diff.algorithm") == "histogram\n"
    assert git(tmp_path, "diff", "--numstat") == histogram
    again = subprocess.run(["make", "-s", "-f", str(ROOT / "Makefile"), "review-setup"], cwd=tmp_path, env=env,
                           capture_output=True, text=True)
    assert again.returncode == 0 and "already" in again.stdout


def _review_setup(folder: Path, tmp_path: Path, goal: str = "review-setup") -> tuple[str, list[str]]:
    """``make review-setup`` in ``folder`` (run by name, or as a prerequisite of ``goal``): what it printed,
    and the git commands it ran (a ``git`` first on PATH writes them down)."""
    calls = tmp_path / "git-calls"
    calls.unlink(missing_ok=True)
    (tmp_path / "bin").mkdir(exist_ok=True)
    spy = tmp_path / "bin" / "git"
    spy.write_text(f'#!/bin/sh\necho "$*" >> {calls}\nexec {shutil.which("git")} "$@"\n')
    spy.chmod(0o755)
    env = {**os.environ, **GIT_ENV, "PATH": f"{spy.parent}{os.pathsep}{os.environ['PATH']}"}
    env.pop("GIT_DIR", None)
    extra = [] if goal == "review-setup" else [f"--eval={goal}: review-setup"]
    done = subprocess.run(["make", "-s", "-f", str(ROOT / "Makefile"), *extra, goal], cwd=folder, env=env,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout, calls.read_text().splitlines() if calls.exists() else []


def test_make_review_setup_asks_git_nothing_outside_a_clone_and_once_in_a_set_up_one(tmp_path: Path) -> None:
    """It runs before every `make generate`: outside git (no `.git` here or above) it runs no git command,
    and in a clone's top folder whose `diff.algorithm` is set, one."""
    outside = tmp_path / "outside"
    outside.mkdir()
    if any((p / ".git").exists() for p in [outside, *outside.parents]):
        pytest.skip("the temporary folder is inside a git clone")
    assert _review_setup(outside, tmp_path) == ("", [])
    clone = tmp_path / "clone"
    (clone / "sub").mkdir(parents=True)
    git(clone, "init", "-q")
    printed, calls = _review_setup(clone / "sub", tmp_path, "a-goal")  # in a subfolder: set, as before
    assert "git config diff.algorithm histogram" in printed and len(calls) == 3
    assert _review_setup(clone, tmp_path, "a-goal") == ("", ["config diff.algorithm"])
    assert _review_setup(clone / "sub", tmp_path, "a-goal") == ("", ["rev-parse --git-dir", "config diff.algorithm"])
    assert _review_setup(clone, tmp_path)[0] == "diff.algorithm is already histogram: left as it is\n"
    (tmp_path / "bogus" / ".git").mkdir(parents=True)  # no repository: nothing, as outside one
    assert _review_setup(tmp_path / "bogus", tmp_path)[0] == ""


# The comparison is a pure function of two IR modules ----------------------------------------------

def test_compare_is_pure_and_order_insensitive() -> None:
    status = ir.Alias("Status", ir.Literal(("open", "paid")))
    model = ir.Model("Order", (ir.Field("amount", "amount", ir.Union((ir.Scalar("int"), ir.Scalar("str"))), False),))
    reordered = ir.Model("Order", (ir.Field("amount", "amount", ir.Union((ir.Scalar("str"), ir.Scalar("int"))), False),))
    assert changes.compare("p", ir.Module((status, model)), ir.Module((reordered, ir.Alias("Status", ir.Literal(("paid", "open")))))) == []
    tagged = ir.Model("Order", model.fields, tag=ir.Tag("kind", "order"))
    assert [(c.severity, c.what) for c in changes.compare("p", ir.Module((model,)), ir.Module((tagged,)))] == [
        ("breaking", "tag kind='order' added")]
    assert [(c.severity, c.where, c.what) for c in changes.compare("p", ir.Module((status,)), ir.Module((
        ir.Model("Status", ()),)))] == [("breaking", "p.Status", "changed from alias to model")]
    one, true = ir.Alias("Flag", ir.Literal((1,))), ir.Alias("Flag", ir.Literal((True,)))
    assert [c.what for c in changes.compare("p", ir.Module((one,)), ir.Module((true,)))] == [
        "enum value 1 removed", "enum value True added"]


def test_a_member_of_a_kind_seen_twice_that_changed_inside_is_met_by_its_new_self() -> None:
    """``str | list[str] | list[A | B]`` → ``… | list[C | A | B]``: a member added inside the one list that changed."""
    def field(t: ir.Type) -> ir.Module:
        return ir.Module((ir.Model("M", (ir.Field("input", "input", t, True),)),))
    strings = ir.Array(ir.Scalar("str"))
    before = field(ir.Union((ir.Scalar("str"), strings, ir.Array(ir.Union((ir.Ref("A"), ir.Ref("B")))))))
    after = field(ir.Union((ir.Scalar("str"), strings, ir.Array(ir.Union((ir.Ref("C"), ir.Ref("A"), ir.Ref("B")))))))
    assert [(c.severity, c.what) for c in changes.compare("p", before, after)] == [
        ("compatible", "items: union member C added")]
    # both lists changed: which became which is not known, so each is said
    neither = field(ir.Union((ir.Scalar("str"), ir.Array(ir.Scalar("int")), ir.Array(ir.Scalar("bool")))))
    assert sorted(c.what for c in changes.compare("p", before, neither)) == [
        "union member list[A | B] removed", "union member list[bool] added", "union member list[int] added",
        "union member list[str] removed"]
