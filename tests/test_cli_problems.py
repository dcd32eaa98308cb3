"""What a user reads when a template of theirs fails, and how warnings are printed: through the CLI."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from golden import GOLDEN, ROOT
from test_cli import run, snapshot

PETS = GOLDEN / "union_discriminator_mapping" / "input.openapi30.yaml"
FROZEN = ('{% extends "_module.py.jinja" %}\n{% block class %}\n'
          'class {{ d.name }}(Struct, frozen=True{% for option in d.options %}, {{ option }}{% endfor %}):\n'
          '{{ m.class_body(d) -}}\n{% endblock %}\n')


@pytest.fixture
def pets(tmp_path: Path) -> Path:
    """A project with one input and a template folder ``tpl`` (empty: the built-in templates hold)."""
    (tmp_path / "schemas").mkdir()
    shutil.copy(PETS, tmp_path / "schemas" / "pets.yaml")
    (tmp_path / "tpl").mkdir()
    (tmp_path / "pyproject.toml").write_text('[tool.schemagen]\ntemplates = "tpl"\n')
    return tmp_path


def fails(project: Path, *args: str) -> str:
    """The stderr of a run that must fail cleanly and write nothing."""
    result = run(project, *(args or ("generate",)))
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr, result.stderr
    assert not (project / "generated").exists()
    return result.stderr


# templates -------------------------------------------------------------------------------------

def test_a_template_syntax_error_names_the_template_and_line(pets: Path) -> None:
    (pets / "tpl" / "msgspec.py.jinja").write_text(FROZEN.replace("{% endblock %}", "{% endblock"))
    err = fails(pets)
    assert "tpl/msgspec.py.jinja:5: template syntax: unexpected end of template" in err
    assert err.count("tpl/msgspec.py.jinja") == 1  # once, not once per variant or input


@pytest.mark.parametrize(("line", "said"), [
    ("class {{ d.name|shout }}(Struct):", "tpl/msgspec.py.jinja:3: No filter named 'shout'."),
    ("class {{ d.nam }}(Struct):", "tpl/msgspec.py.jinja:3: undefined: 'schemagen.render.view.ClassView object' "
                                   "has no attribute 'nam'"),
])
def test_a_template_error_at_run_time_names_the_template_and_line(pets: Path, line: str, said: str) -> None:
    (pets / "tpl" / "msgspec.py.jinja").write_text(FROZEN.replace(FROZEN.splitlines()[2], line))
    assert said in fails(pets)


def test_output_black_cannot_parse_names_the_template_line_that_wrote_it(pets: Path) -> None:
    (pets / "tpl" / "msgspec.py.jinja").write_text(FROZEN.replace("{% endfor %}):", "{% endfor %}:"))
    err = fails(pets)
    assert ('tpl/msgspec.py.jinja:3: this line wrote line 7 of the msgspec module of schemas/pets.yaml, which is '
            'not valid Python (black cannot parse it, column 77): '
            'class Cat(Struct, frozen=True, kw_only=True, tag_field="pet-type", tag="cat":') in err  # first by name
    assert fails(pets, "render", "schemas/pets.yaml", "--variant", "msgspec") == err


def test_output_black_cannot_parse_names_the_template_folder_and_the_line(pets: Path) -> None:
    (pets / "tpl" / "msgspec.py.jinja").write_text(FROZEN.replace(FROZEN.splitlines()[2], "{{ d.name }}("))
    err = fails(pets)  # no line of tpl/ has the text of the line black stops at
    assert ("tpl/: line 8 of the msgspec module of schemas/pets.yaml, laid out by these templates, is not valid "
            "Python (black cannot parse it, column 10): lives: int") in err


def test_a_template_folder_that_does_not_exist_is_an_error_of_the_setting(pets: Path) -> None:
    shutil.rmtree(pets / "tpl")
    assert ("pyproject.toml:2:1: #/tool/schemagen/templates: no folder 'tpl' of templates (relative to the "
            "project root) - create it, or remove the setting to use the built-in templates") in fails(pets)


# configuration ---------------------------------------------------------------------------------

def configured(project: Path, pyproject: str) -> Path:
    """A project with one input and this ``pyproject.toml``."""
    (project / "schemas").mkdir()
    (project / "schemas" / "a.json").write_text('{"title": "A", "type": "string"}')
    (project / "pyproject.toml").write_text(pyproject)
    return project


@pytest.mark.parametrize("table", ["schemagn", "schemagen_", "Schemagen", "shemagen"])
def test_a_misspelt_table_is_an_error_not_the_defaults(tmp_path: Path, table: str) -> None:
    project = configured(tmp_path, f'[project]\nname = "x"\n\n[tool.black]\nline-length = 99\n\n'
                                   f'[tool.{table}]\nvariants = ["msgspec"]\n')
    expected = (f"pyproject.toml:7:1: #/tool/{table}: schemagen reads no table `[tool.{table}]`: its settings are "
                "not used - did you mean `[tool.schemagen]`?\n")
    assert fails(project) == expected
    assert fails(project, "render", "schemas/a.json", "--variant", "msgspec") == expected  # its project, found


def test_another_tools_table_is_no_mistake(tmp_path: Path) -> None:
    project = configured(tmp_path, '[tool.black]\nline-length = 99\n[tool.schemagen_extra]\nx = 1\n')
    result = run(project, "generate")
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(("settings", "said"), [
    ('variants = ["dataclass", "msgpsec"]\n', "pyproject.toml:2:26: #/tool/schemagen/variants/1: 'msgpsec' is not "
     "a variant; expected one of: dataclass, typeddict, msgspec, pydantic - did you mean 'msgspec'?"),
    ('variants = "msgspec"\n', "pyproject.toml:2:1: #/tool/schemagen/variants: must be a non-empty list of: "
     "dataclass, typeddict, msgspec, pydantic, not 'msgspec'"),
    ('enums = "klass"\n', 'pyproject.toml:2:1: #/tool/schemagen/enums: must be "literal" (Literal aliases) or '
     "\"class\" (StrEnum/IntEnum classes), not 'klass' - did you mean 'class'?"),
    ("output = 3\n", "pyproject.toml:2:1: #/tool/schemagen/output: must be a path (a string), not 3"),
    ('schema = "x"\n', "pyproject.toml:2:1: #/tool/schemagen/schema: unknown setting 'schema'; expected one of: "
     "enums, ignore, inputs, jobs, names, openapi_scope, output, refs, required_defaults, schemas, templates, variants - "
     "did you mean 'schemas'?"),
    ('names = "sdks"\n', 'pyproject.toml:2:1: #/tool/schemagen/names: must be "schema" (classes named as the schema '
     "names them) or \"sdk\" (as the official SDKs name them), not 'sdks' - did you mean 'sdk'?"),
    ('[[tool.schemagen.inputs]]\npath = "schemas/a.json"\n  dialect = "openap"\n',
     "pyproject.toml:4:3: #/tool/schemagen/inputs/0/dialect: dialect must be one of: auto, jsonschema, openapi, "
     "not 'openap' - did you mean 'openapi'?"),
    ('[[tool.schemagen.inputs]]\npath = "schemas/a.json"\nnmae = "b"\n',
     "pyproject.toml:4:1: #/tool/schemagen/inputs/0/nmae: unknown input setting 'nmae'; expected one of: dialect, "
     "ignore, name, names, openapi_scope, overlays, path, required_defaults - did you mean 'name'?"),
    ('[[tool.schemagen.inputs]]\npath = "schemas/a.json"\nnames = 1\n',
     'pyproject.toml:4:1: #/tool/schemagen/inputs/0/names: must be "schema" (classes named as the schema names '
     "them) or \"sdk\" (as the official SDKs name them), not 1"),
    ('[[tool.schemagen.inputs]]\npath = "schemas/a.json"\nname = 3\n',
     "pyproject.toml:4:1: #/tool/schemagen/inputs/0/name: `name` must be a string (the output package), not 3"),
    ('inputs = [{path = "schemas/a.json", overlays = ["gone.yaml"]}]\n',  # (at the inline table of the input)
     "pyproject.toml:2:11: #/tool/schemagen/inputs/0/overlays/0: no overlay file 'gone.yaml' (relative to the "
     "project root)"),
])
def test_a_setting_error_names_the_value_at_its_line_and_column(tmp_path: Path, settings: str, said: str) -> None:
    assert fails(configured(tmp_path, "[tool.schemagen]\n" + settings)) == said + "\n"


@pytest.mark.parametrize(("text", "said"), [
    ('[project]\nname = "x"\n\n[tool.schemagen]\nvariants = ["msgspec]\n',
     "pyproject.toml:5:22: #: invalid TOML: Illegal character '\\n'"),
    ('[tool.schemagen]\nvariants = ["msgspec"', "pyproject.toml:2:22: #: invalid TOML: Unclosed array"),
])
def test_a_toml_syntax_error_is_at_its_line_and_column(tmp_path: Path, text: str, said: str) -> None:
    assert fails(configured(tmp_path, text)) == said + "\n"


# keys written twice ----------------------------------------------------------------------------

CHAT = ('openapi: 3.1.0\ninfo: {title: T, version: "1"}\ncomponents:\n  schemas:\n    A:\n      type: object\n'
        '      properties:\n        x: {type: string}\n        x: {type: integer}\n')
MEND = ('overlay: 1.0.0\ninfo: {title: M, version: 1.0.0}\nextends: chat.yaml\nactions:\n'
        '  - target: $.components.schemas.A\n    update: {description: d, description: e}\n')


@pytest.mark.parametrize("listed", [False, True], ids=["found", "listed"])
def test_keys_written_twice_are_errors_at_both_places_all_together(tmp_path: Path, listed: bool) -> None:
    (tmp_path / "schemas").mkdir()
    (tmp_path / "schemas" / "chat.yaml").write_text(CHAT)
    (tmp_path / "schemas" / "b.json").write_text('{\n  "title": "B",\n  "type": "object",\n  "type": "array"\n}\n')
    mend = "mends/fix.yaml" if listed else "schemas/chat.fix.yaml"
    (tmp_path / mend).parent.mkdir(exist_ok=True)
    (tmp_path / mend).write_text(MEND)
    if listed:
        (tmp_path / "pyproject.toml").write_text('[tool.schemagen]\n[[tool.schemagen.inputs]]\npath = "schemas/chat.yaml"\n'
                                                 'overlays = ["mends/fix.yaml"]\n[[tool.schemagen.inputs]]\n'
                                                 'path = "schemas/b.json"\n')
    said = [
        "schemas/b.json:4:3: #/type: duplicate key 'type' (first at 3:3): only one of them would be read - remove "
        "one, or merge them",
        f"{mend}:6:30: #/actions/0/update/description: duplicate key 'description' (first at 6:14): only one of them "
        "would be read - remove one, or merge them",
        "schemas/chat.yaml:9:9: #/components/schemas/A/properties/x: duplicate key 'x' (first at 8:9): only one of "
        "them would be read - remove one, or merge them",
    ]
    if listed:  # a listed overlay is read with the configuration, before the inputs: its problems come alone
        said = [said[1]]
    assert sorted(fails(tmp_path).splitlines()) == sorted(said)
    rendered = fails(tmp_path, "render", "schemas/chat.yaml", "--variant", "msgspec").splitlines()
    assert rendered == [said[-1]] if not listed else rendered == said  # (unread, a found overlay is no overlay)


def test_a_key_written_twice_in_a_referenced_file_and_in_a_long_yaml_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "schemas").mkdir()
    padding = "".join(f"    P{i}:\n      type: string\n      description: {'x' * 60}\n" for i in range(800))
    (tmp_path / "schemas" / "big.yaml").write_text(CHAT.replace("  schemas:\n", "  schemas:\n" + padding)
                                                   + "    A:\n      type: string\n")  # read by pieces
    (tmp_path / "schemas" / "lib.json").write_text('{"definitions": {"L": {"type": "string"}, "L": {}}}')
    (tmp_path / "schemas" / "c.json").write_text('{"title": "C", "type": "object", "properties": '
                                                 '{"l": {"$ref": "lib.json#/definitions/L"}}}')
    (tmp_path / "pyproject.toml").write_text('[tool.schemagen]\ninputs = [{path = "schemas/big.yaml"}, '
                                             '{path = "schemas/c.json"}]\n')
    for _ in range(2):  # the second run with the pieces of big.yaml in the cache
        assert fails(tmp_path).splitlines() == [
            "schemas/big.yaml:2409:9: #/components/schemas/A/properties/x: duplicate key 'x' (first at 2408:9): only "
            "one of them would be read - remove one, or merge them",
            "schemas/big.yaml:2410:5: #/components/schemas/A: duplicate key 'A' (first at 2405:5): only one of them "
            "would be read - remove one, or merge them",
            "schemas/lib.json:1:43: #/definitions/L: duplicate key 'L' (first at 1:18): only one of them would be "
            "read - remove one, or merge them",
        ]


# warnings --------------------------------------------------------------------------------------

def warnings_of(result: object) -> list[str]:
    return [line for line in result.stderr.splitlines() if line.startswith("warning: ")]  # type: ignore[attr-defined]


def test_a_draft07_tuple_warning_names_items_as_written(tmp_path: Path) -> None:
    (tmp_path / "schemas").mkdir()
    shutil.copy(GOLDEN / "arrays_open_tuples" / "input.json", tmp_path / "schemas" / "tuples.json")
    result = run(tmp_path, "generate")
    assert result.returncode == 0, result.stderr
    assert ("warning: schemas/tuples.json: #/properties/short_ok/items: the item positions of `items` are not "
            "enforced") in result.stderr
    assert "prefixItems" not in result.stderr


def test_conflicting_discriminator_mappings_warn(tmp_path: Path) -> None:
    (tmp_path / "schemas").mkdir()
    text = PETS.read_text()
    other = text.split("    Dog:")[0].split("  schemas:\n", 1)[1].replace("Pet:", "Animal:").replace(
        "dog: ", "canine: ").replace("cat: ", "feline: ")
    (tmp_path / "schemas" / "pets.yaml").write_text(text.replace("    Dog:", other + "    Dog:", 1))
    result = run(tmp_path, "generate")
    assert result.returncode == 0, result.stderr
    assert ("warning: schemas/pets.yaml: #/components/schemas/Animal: tags Dog as 'canine' and Cat as 'feline', "
            "where #/components/schemas/Pet tags them 'dog' and 'cat'; a class has one tag, so the msgspec "
            "variant decodes both unions as a plain object") in result.stderr
    assert "Animal = dict[str, Any]" in (tmp_path / "generated" / "pets" / "msgspec_models.py").read_text()


def shared_definitions(project: Path) -> None:
    """Two inputs that read the same file of definitions: an untagged union of 15 models, a `not`."""
    (project / "schemas").mkdir()
    members = {f"Member{i:02d}": {"type": "object", "properties": {"v": {"type": "string"}}} for i in range(15)}
    (project / "schemas" / "common.json").write_text(json.dumps({"$defs": {
        **members, "Big": {"oneOf": [{"$ref": f"#/$defs/{name}"} for name in members]},
        "Loose": {"type": "string", "not": {"const": "x"}}}}))
    for name in ("a", "b"):
        (project / "schemas" / f"{name}.json").write_text(json.dumps({"title": name.upper(), "type": "object", "properties": {
            "big": {"$ref": "common.json#/$defs/Big"}, "loose": {"$ref": "common.json#/$defs/Loose"}}}))
    (project / "pyproject.toml").write_text(
        '[tool.schemagen]\ninputs = [{path = "schemas/a.json"}, {path = "schemas/b.json"}]\n')


def test_each_warning_is_one_short_line_printed_once_then_counted_by_kind(tmp_path: Path) -> None:
    shared_definitions(tmp_path)
    first = run(tmp_path, "generate")
    assert first.returncode == 0, first.stderr
    assert warnings_of(first) == [
        "warning: schemas/common.json: #/$defs/Loose/not: `not` is not supported; it is not enforced",
        "warning: schemas/common.json: #/$defs/Big: no property tells the object types Member00 | Member01 | "
        "Member02 and 12 more apart (no discriminator, no distinct const); the msgspec variant decodes them as a "
        "plain object",
    ]
    assert "2 warnings: 1 unsupported keyword, 1 untagged union\n" in first.stderr
    assert first.stderr.endswith("generated/: 11 written, 0 unchanged, 0 removed, 2 warnings\n")  # (with _runtime.py)
    files = snapshot(tmp_path / "generated")
    again = run(tmp_path, "generate")  # nothing changed: the kept result, with its warnings
    assert again.stderr == first.stderr.replace("11 written, 0 unchanged", "0 written, 11 unchanged")
    assert snapshot(tmp_path / "generated") == files


def test_render_counts_its_warnings_too(tmp_path: Path) -> None:
    shared_definitions(tmp_path)
    result = run(tmp_path, "render", "schemas/a.json", "--variant", "dataclass")
    assert result.returncode == 0, result.stderr
    assert len(warnings_of(result)) == 2 and result.stderr.endswith("2 warnings: 1 unsupported keyword, 1 untagged union\n")


def test_no_warnings_no_count(tmp_path: Path) -> None:
    (tmp_path / "schemas").mkdir()  # (the seed folder schemas/openai has an example its schema rejects)
    shutil.copy(ROOT / "schemas" / "chat_completion_out.json", tmp_path / "schemas")
    result = run(tmp_path, "generate")
    assert result.returncode == 0 and result.stderr.endswith("0 warnings\n") and "warning:" not in result.stderr
