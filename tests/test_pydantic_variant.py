"""The pydantic variant, the pydantic way: what each schema fact becomes, read by pydantic itself.

Each test renders a small schema with the variant, imports the module and asks pydantic (strict mode
off, its default). tests/test_constructs.py runs every golden case's payloads through this variant as
through the others; the agreement with msgspec on recorded and random payloads has its own test.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pydantic
import pytest
from mypy import api

from conftest import bench_module
from golden import GOLDEN, Case, generate
from schemagen import render
from schemagen.diagnostics import Reporter
from schemagen.project.inputs import Input
from schemagen.project.pipeline import to_ir


def module_of(tmp_path: Path, schema: dict[str, Any], name: str = "schema") -> ModuleType:
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(schema))
    module = to_ir(Input(name, path, path.name), tmp_path, Reporter())
    text = render.render(module, "pydantic", path.name, render.environment())
    return bench_module("modules").exec_module(text, f"pydantic {name}")


def case_module(name: str) -> ModuleType:
    """A golden case's pydantic module as the generator writes it now."""
    case = Case(GOLDEN / name)
    text = generate(case, case.inputs[0])["pydantic_models.py"]
    return bench_module("modules").exec_module(text, f"pydantic {name}")


PET = {"title": "Pet", "type": "object", "required": ["id", "owner"], "properties": {
    "id": {"type": "integer"},
    "name": {"type": "string", "description": "Absent or a string, never null."},
    "nickname": {"type": ["string", "null"]},
    "owner": {"type": ["string", "null"]},
    "legs": {"type": "integer", "default": 4},
    "pet-type": {"type": "string"},
    "schema": {"type": "string"},
    "_private": {"type": "integer"},
}}


def test_absent_null_and_default_stay_apart(tmp_path: Path) -> None:
    Pet = module_of(tmp_path, PET).Pet
    pet = Pet.model_validate_json('{"id": 1, "owner": null, "nickname": null}')
    assert (pet.name, pet.nickname, pet.owner, pet.legs) == (None, None, None, 4)
    assert pet.model_fields_set == {"id", "owner", "nickname"}
    assert pet.model_dump(mode="json", exclude_unset=True) == {"id": 1, "owner": None, "nickname": None}
    with pytest.raises(pydantic.ValidationError, match="null is not allowed here"):
        Pet.model_validate_json('{"id": 1, "owner": null, "name": null}')  # as msgspec refuses it
    with pytest.raises(pydantic.ValidationError, match="owner"):
        Pet.model_validate_json('{"id": 1}')  # required, though it may be null
    assert Pet.model_fields["name"].description == "Absent or a string, never null."


def test_wire_names_are_read_either_way_and_written_as_on_the_wire(tmp_path: Path) -> None:
    Pet = module_of(tmp_path, PET).Pet
    wire = {"id": 1, "owner": "ann", "pet-type": "cat", "schema": "s", "_private": 7}
    pet = Pet.model_validate_json(json.dumps(wire))
    assert (pet.pet_type, pet.schema_, pet.private_) == ("cat", "s", 7)  # BaseModel's own names are free
    assert pet.model_dump(exclude_unset=True) == wire  # serialize_by_alias: no `by_alias=True` to forget
    assert Pet(id=1, owner=None, pet_type="dog").model_dump(exclude_unset=True) == {"id": 1, "owner": None, "pet-type": "dog"}


def test_closed_objects_forbid_other_keys_and_open_ones_keep_them(tmp_path: Path) -> None:
    m = module_of(tmp_path, {"title": "Holder", "type": "object", "properties": {
        "closed": {"type": "object", "additionalProperties": False, "properties": {"a": {"type": "integer"}}},
        "open": {"type": "object", "properties": {"a": {"type": "integer"}}}}})
    with pytest.raises(pydantic.ValidationError, match="Extra inputs are not permitted"):
        m.Holder.model_validate_json('{"closed": {"a": 1, "b": 2}}')
    holder = m.Holder.model_validate_json('{"open": {"a": 1, "b": 2}}')
    assert holder.open.model_extra == {"b": 2}
    assert holder.model_dump(exclude_unset=True) == {"open": {"a": 1, "b": 2}}


def test_a_tagged_union_is_discriminated_and_an_untagged_one_is_smart(tmp_path: Path) -> None:
    m = case_module("union_discriminator_mapping")
    pets = pydantic.TypeAdapter(m.Pet)
    assert type(pets.validate_json('{"pet-type": "cat", "lives": 9}')) is m.Cat
    with pytest.raises(pydantic.ValidationError) as error:
        pets.validate_json('{"pet-type": "cow", "lives": 9}')
    assert [e["type"] for e in error.value.errors()] == ["union_tag_invalid"]  # one error: the tag, not each member


def test_limits_and_patterns_with_look_arounds_are_checked(tmp_path: Path) -> None:
    m = module_of(tmp_path, {"title": "Code", "type": "object", "properties": {
        "code": {"type": "string", "pattern": "^(?!x)[a-z]+$", "maxLength": 4},
        "codes": {"type": "array", "items": {"type": "string", "pattern": "(?<=a)b"}},
        "age": {"type": "integer", "minimum": 0}}})
    assert m.Code.model_validate_json('{"code": "abc", "codes": ["ab"], "age": 0}').code == "abc"
    for bad in ('{"code": "xab"}', '{"code": "abcde"}', '{"codes": ["b"]}', '{"age": -1}'):
        with pytest.raises(pydantic.ValidationError):
            m.Code.model_validate_json(bad)


def test_recursive_models_need_no_model_rebuild() -> None:
    m = case_module("recursive")
    assert "model_rebuild" not in (GOLDEN / "recursive" / "expected" / "pydantic_models.py").read_text()
    deep = {"value": 1, "children": [{"value": 2, "children": [{"value": 3}]}]}
    assert m.Tree.model_validate_json(json.dumps(deep)).model_dump(exclude_unset=True) == deep


def test_a_default_builds_models_by_their_attribute_names(tmp_path: Path) -> None:
    m = module_of(tmp_path, {"title": "Box", "type": "object", "properties": {
        "label": {"$ref": "#/definitions/Label", "default": {"schema": "s", "pet-type": "dog"}}},
        "definitions": {"Label": {"type": "object", "properties": {
            "schema": {"type": "string"}, "pet-type": {"type": "string"}}}}})
    assert m.Box().label.model_dump(exclude_unset=True) == {"schema": "s", "pet-type": "dog"}


def test_a_reference_to_another_input_resolves(tmp_path: Path) -> None:
    schemas = tmp_path / "schemas"
    schemas.mkdir()
    (schemas / "common.json").write_text(json.dumps({"definitions": {"Money": {
        "type": "object", "required": ["amount"], "properties": {"amount": {"type": "string"}}}}}))
    (schemas / "order.json").write_text(json.dumps({"title": "Order", "type": "object", "required": ["total"],
                                                    "properties": {"total": {"$ref": "common.json#/definitions/Money"}}}))
    (tmp_path / "pyproject.toml").write_text('[tool.schemagen]\nvariants = ["pydantic"]\n')
    done = subprocess.run([sys.executable, "-m", "schemagen", "--project", str(tmp_path), "generate"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    code = ("from generated.order.pydantic_models import Order\n"
            "import generated.common.pydantic_models as c\n"
            "x = Order.model_validate_json('{\"total\": {\"amount\": \"1\"}}')\n"
            "assert type(x.total) is c.Money, type(x.total)\n")
    ran = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True)
    assert ran.returncode == 0, ran.stderr


USE = '''from typing import reveal_type

from golden_outputs.identifiers.pydantic_models import Identifiers
from golden_outputs.union_discriminator_mapping.pydantic_models import Cat, Dog, Pet

made = Identifiers(from_="a", class_=1, content_type="text/plain", ref="#/x")
reveal_type(made.type)
dog = Dog(pet_type="dog", bark=True)


def lives(pet: Pet) -> int:
    if isinstance(pet, Cat):
        return pet.lives
    reveal_type(pet)
    return 0
'''


def _outputs(tmp_path: Path) -> None:
    """The golden pydantic modules as ``golden_outputs.<case>.pydantic_models``, and ``use.py``."""
    package = tmp_path / "golden_outputs"
    package.mkdir()
    (package / "__init__.py").write_text("")
    for expected in sorted(GOLDEN.glob("*/expected/pydantic_models.py")):
        case = package / expected.parent.parent.name
        case.mkdir()
        (case / "__init__.py").write_text("")
        (case / "pydantic_models.py").write_text(expected.read_text())
    (tmp_path / "use.py").write_text(USE)


def test_mypy_strict_with_the_pydantic_plugin_takes_attribute_names(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    _outputs(tmp_path)
    (tmp_path / "mypy.ini").write_text("[mypy]\nplugins = pydantic.mypy\nstrict = True\n\n"
                                       "[pydantic-mypy]\ninit_forbid_extra = True\ninit_typed = True\n")
    monkeypatch.chdir(tmp_path)
    stdout, stderr, status = api.run(["--config-file", "mypy.ini", "--no-incremental", "--python-version", "3.11",
                                      "golden_outputs", "use.py"])
    assert status == 0, stdout + stderr
    revealed = [line.split("Revealed type is ", 1)[1] for line in stdout.splitlines() if "Revealed type" in line]
    assert revealed == ['"str | None"', '"golden_outputs.union_discriminator_mapping.pydantic_models.Dog"']


def test_pyright_strict_takes_attribute_names(tmp_path: Path) -> None:
    _outputs(tmp_path)
    (tmp_path / "pyrightconfig.json").write_text(json.dumps({"typeCheckingMode": "strict", "pythonVersion": "3.11"}))
    done = subprocess.run([sys.executable, "-m", "pyright", "--pythonpath", sys.executable, "golden_outputs", "use.py"],
                          capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0 and "0 errors" in done.stdout, done.stdout[-4000:] + done.stderr[-2000:]


def test_the_documented_models_are_what_the_variant_writes() -> None:
    """docs/semantics.md's pydantic `Pet` and `PetOwner`, line for line, are the golden case's."""
    page = (GOLDEN.parent.parent / "docs" / "semantics.md").read_text()
    section = page[page.index("## The pydantic variant"):]
    shown = section[section.index("```python\n") + len("```python\n"):section.index("```\n", section.index("```python"))]
    written = (GOLDEN / "three_dialects" / "expected" / "pydantic_models.py").read_text()
    assert shown in written


@pytest.mark.parametrize("variants", ['["msgspec"]', '["dataclass", "typeddict", "msgspec", "pydantic"]'])
def test_compare_says_the_same_whichever_variants_are_written(tmp_path: Path, variants: str) -> None:
    """compare reads the IR and the msgspec variant's rules: the variants written change nothing."""
    from test_compare_cli import EXPECTED, OPENAI, PROVIDER, run, write

    (tmp_path / "pyproject.toml").write_text(f'[tool.schemagen]\nschemas = "schemas"\nvariants = {variants}\n')
    write(tmp_path / "schemas" / "provider.json", PROVIDER)
    write(tmp_path / "schemas" / "openai.json", OPENAI)
    done = run(tmp_path, "compare", "schemas/provider.json", "schemas/openai.json#Response")
    assert done.stdout == EXPECTED, done.stdout + done.stderr


def test_a_class_s_attributes_are_made_once_whatever_its_fields_hold(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Every field asks for its class's attribute names, and a tagged union among them for its members':
    each class's are made once (made again for each field, a wide class costs its width squared)."""
    from schemagen.render import pydantic_names

    made: list[str] = []
    real = pydantic_names._attributes
    monkeypatch.setattr(pydantic_names, "_attributes", lambda model: made.append(model.name) or real(model))
    # (what earlier tests in this process left: a remembrance emptied as it fills up here would count twice)
    monkeypatch.setattr(pydantic_names, "_MADE", {})
    shape = {"oneOf": [{"$ref": "#/definitions/Circle"}, {"$ref": "#/definitions/Square"}]}
    members = {name: {"type": "object", "required": ["kind"], "properties": {
        "kind": {"const": name.lower()}, "_size": {"type": "number"}}} for name in ("Circle", "Square")}
    m = module_of(tmp_path, {"title": "Wide", "type": "object", "definitions": members,
                             "properties": {f"_f{i}": shape for i in range(40)}})
    with pytest.raises(pydantic.ValidationError, match="union_tag_invalid"):  # (the unions are discriminated)
        m.Wide.model_validate_json('{"_f0": {"kind": "oval"}}')
    assert sorted(made) == sorted(set(made)) and set(made) == {"Wide", "Circle", "Square"}, made
