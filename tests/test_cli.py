"""The command line as a user meets it: a temporary project, real subprocesses, real exit codes."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from golden import ROOT
from schemagen import arguments

SEED_CHOICE = ROOT / "tests" / "golden" / "seed_dangling_ref" / "input" / "ChatCompletionChoice.json"


def user_env(**extra: str) -> dict[str, str]:
    """The environment of a user's shell: output to a pipe is block-buffered there (CI may set
    ``PYTHONUNBUFFERED``), so a run that ended before it flushed would lose its last lines (``cli.run``)."""
    return {**{k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}, "PYTHONPATH": str(ROOT), **extra}


def run(project: Path, *args: str, seed: str = "0") -> subprocess.CompletedProcess[str]:
    env = user_env(PYTHONHASHSEED=seed)
    return subprocess.run([sys.executable, "-m", "schemagen", "--project", str(project), *args],
                          capture_output=True, text=True, env=env, cwd=project)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of this project's schemas and configuration (its Makefile, which the headers name), without its
    output."""
    shutil.copytree(ROOT / "schemas", tmp_path / "schemas")
    for name in ("pyproject.toml", "Makefile"):
        shutil.copy(ROOT / name, tmp_path / name)
    return tmp_path


def snapshot(folder: Path) -> dict[str, bytes]:
    """The files of ``folder`` but Python's byte code (a test that imports generated modules writes it
    there unless PYTHONDONTWRITEBYTECODE is set; git ignores it)."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and "__pycache__" not in p.parts}


def test_generate_writes_the_package_and_check_agrees(project: Path) -> None:
    first = run(project, "generate")
    assert first.returncode == 0, first.stderr
    files = snapshot(project / "generated")
    assert {"__init__.py", "py.typed", "openai/__init__.py", "openai/msgspec_models.py",
            "chat_completion_out/dataclass_models.py", "chat_completion_out/typeddict_models.py"} <= set(files)
    assert run(project, "generate", "--check").returncode == 0
    again = run(project, "generate")
    assert "0 written" in again.stderr and snapshot(project / "generated") == files


def test_output_is_identical_under_other_hash_seeds(project: Path, tmp_path: Path) -> None:
    outputs = []
    for seed in ("1", "2", "random"):
        run(project, "generate", seed=seed)
        outputs.append(snapshot(project / "generated"))
        shutil.rmtree(project / "generated")
    assert outputs[0] == outputs[1] == outputs[2]
    assert outputs[0] == snapshot(ROOT / "generated"), "generated/ is not what a fresh run writes"


def test_warnings_are_in_the_order_of_the_document_under_any_hash_seed(tmp_path: Path) -> None:
    """The meta-schema's validator visits the properties it checks as a set (``additionalProperties``),
    whose order changes with the hash seed: its warnings are put in the document's order."""
    names = [f"p{i}" for i in range(12)]
    (tmp_path / "schemas").mkdir()
    (tmp_path / "schemas" / "things.json").write_text(json.dumps({
        "type": "object", "properties": {n: {"type": "string", "examples": n} for n in names}}))
    said = [run(tmp_path, "lint", seed=seed).stderr for seed in ("1", "2", "3", "random")]
    assert said[0] == said[1] == said[2] == said[3]
    assert re.findall(r"#/properties/(p\d+)/examples: not a valid schema", said[0]) == names


def test_check_reports_a_stale_file_with_a_diff(project: Path) -> None:
    run(project, "generate")
    target = project / "generated" / "openai" / "msgspec_models.py"
    target.write_text(target.read_text().replace("index: int", "index: str"))
    result = run(project, "generate", "--check")
    assert result.returncode == 1
    assert "-    index: str" in result.stdout and "+    index: int" in result.stdout


def test_dangling_reference_is_a_clear_error_and_writes_nothing(tmp_path: Path) -> None:
    (tmp_path / "schemas" / "openai").mkdir(parents=True)
    shutil.copy(SEED_CHOICE, tmp_path / "schemas" / "openai" / "ChatCompletionChoice.json")
    result = run(tmp_path, "generate")
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert ("schemas/openai/ChatCompletionChoice.json:18:15: #/properties/message/$ref: "
            "unresolved reference '#/components/schemas/ChatCompletionAssistantMessage'") in result.stderr
    assert "'#/components/schemas/TokenLogprob'" in result.stderr
    assert not (tmp_path / "generated").exists()


def test_a_failing_input_leaves_the_output_untouched(project: Path) -> None:
    run(project, "generate")
    before = snapshot(project / "generated")
    (project / "schemas" / "openai" / "TokenLogprob.json").unlink()
    result = run(project, "generate")
    assert result.returncode == 1 and "TokenLogprob" in result.stderr
    assert snapshot(project / "generated") == before


def test_render_and_ir_print_one_input(project: Path) -> None:
    rendered = run(project, "render", "schemas/openai", "--variant", "msgspec")
    assert rendered.returncode == 0, rendered.stderr
    assert rendered.stdout == (ROOT / "generated" / "openai" / "msgspec_models.py").read_text()
    ir = run(project, "ir", "schemas/chat_completion_out.json")
    assert ir.returncode == 0, ir.stderr
    module = json.loads(ir.stdout)
    assert module["root"] == "OpenAIChatCompletionOut"
    assert ir.stdout == run(project, "ir", "schemas/chat_completion_out.json", seed="7").stdout


def bare(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The command line without ``--project``, run in ``cwd``."""
    env = user_env()
    return subprocess.run([sys.executable, "-m", "schemagen", *args], capture_output=True, text=True, env=env, cwd=cwd)


def test_ir_and_render_name_paths_from_the_project_root_wherever_they_run(project: Path) -> None:
    """The project is the folder above PATH whose pyproject.toml holds [tool.schemagen], not the working directory."""
    schemas = project / "schemas"
    runs = [bare(project, "ir", "schemas/chat_completion_out.json"), bare(schemas, "ir", "chat_completion_out.json"),
            bare(project.parent, "ir", str(schemas / "chat_completion_out.json"))]
    assert [r.returncode for r in runs] == [0, 0, 0], [r.stderr for r in runs]
    assert runs[0].stdout == runs[1].stdout == runs[2].stdout
    assert '"path": "schemas/chat_completion_out.json"' in runs[0].stdout
    generated = (ROOT / "generated" / "openai" / "msgspec_models.py").read_text()
    assert bare(schemas / "openai", "render", ".", "--variant", "msgspec").stdout == generated


def test_a_file_outside_any_project_is_named_from_its_folder(tmp_path: Path) -> None:
    """No pyproject.toml with [tool.schemagen] above it: paths are relative to the folder that holds the input."""
    (tmp_path / "loose").mkdir()
    (tmp_path / "loose" / "thing.json").write_text(json.dumps(
        {"title": "Thing", "type": "object", "properties": {"a": {"type": "string", "not": {"const": "x"}}}}))
    inside, beside = bare(tmp_path / "loose", "ir", "thing.json"), bare(tmp_path, "ir", "loose/thing.json")
    assert inside.returncode == beside.returncode == 0, inside.stderr + beside.stderr
    assert inside.stdout == beside.stdout and '"path": "thing.json"' in inside.stdout
    assert inside.stderr == beside.stderr == ("warning: thing.json: #/properties/a/not: `not` is not supported; "
                                              "it is not enforced\n1 warning: 1 unsupported keyword\n")


def test_wrong_usage_exits_2(project: Path) -> None:
    assert run(project, "render", "schemas/openai", "--variant", "attrs").returncode == 2


QUICK = [["generate"], ["generate", "--check"], ["--debug", "generate"], ["--strict", "--debug", "generate", "--check"],
         ["--project", "x", "generate"], ["--project=x", "--strict", "generate"], ["--project=", "generate"],
         ["--project", "a", "--project", "b", "generate", "--check", "--check"], ["--project", "generate", "generate"],
         ["--debug", "--debug", "--project", "", "generate"]]
NOT_QUICK = [[], ["--debug"], ["-h"], ["--help"], ["--version"], ["generate", "-h"], ["generate", "--debug"],
             ["generate", "--"], ["--", "generate"], ["--proj", "x", "generate"], ["--deb", "generate"],
             ["--project", "-x", "generate"], ["--project"], ["generate", "--che"], ["generate", "x"],
             ["lint"], ["render", "x.json", "--variant", "msgspec"], ["Generate"], ["-project", "x", "generate"],
             ["generate", "-j", "2"], ["generate", "--jobs=2"]]


@pytest.mark.parametrize("argv", QUICK, ids=" ".join)
def test_the_quick_reading_of_generate_gives_what_the_parser_gives(argv: list[str]) -> None:
    assert arguments.quick(argv) == arguments.argument_parser().parse_args(argv, arguments.Arguments())


@pytest.mark.parametrize("argv", NOT_QUICK, ids=" ".join)
def test_any_other_call_is_left_to_the_parser(argv: list[str]) -> None:
    assert arguments.quick(argv) is None


def test_invalid_json_names_line_and_column(project: Path) -> None:
    (project / "schemas" / "broken.json").write_text('{\n  "type": "object",\n  "properties": {,}\n}\n')
    result = run(project, "generate")
    assert result.returncode == 1
    assert "schemas/broken.json:3:" in result.stderr and "invalid JSON" in result.stderr
    assert "Traceback" not in result.stderr


def test_config_lists_inputs_names_packages_and_forces_a_dialect(tmp_path: Path) -> None:
    (tmp_path / "specs").mkdir()
    (tmp_path / "specs" / "thing.json").write_text(json.dumps({
        "title": "Thing", "type": "object", "required": ["label"],
        "properties": {"label": {"type": "string", "nullable": True}},
    }))
    (tmp_path / "pyproject.toml").write_text(
        '[tool.schemagen]\nvariants = ["msgspec"]\noutput = "models"\n'
        '[[tool.schemagen.inputs]]\npath = "specs/thing.json"\nname = "things"\ndialect = "openapi"\n')
    result = run(tmp_path, "generate")
    assert result.returncode == 0, result.stderr
    assert sorted(snapshot(tmp_path / "models")) == ["__init__.py", "py.typed", "things/__init__.py", "things/msgspec_models.py"]
    assert "label: str | None\n" in (tmp_path / "models" / "things" / "msgspec_models.py").read_text()


def test_unknown_setting_is_reported(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.schemagen]\nschema = "typo"\n')
    result = run(tmp_path, "generate")
    assert result.returncode == 1 and "unknown setting 'schema'" in result.stderr


def test_a_wrong_input_setting_is_reported_at_its_line(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.schemagen]\n\n[[tool.schemagen.inputs]]\npath = "schemas/openai"\n'
                                            '\n[[tool.schemagen.inputs]]\npath = "schemas/chat_completion_out.json"\n'
                                            'dialect = "yaml"\n')
    result = run(project, "generate")
    assert result.returncode == 1
    assert result.stderr == ("pyproject.toml:8:1: #/tool/schemagen/inputs/1/dialect: dialect must be one of: auto, "
                             "jsonschema, openapi, not 'yaml'\n")


def test_a_template_folder_in_config_overrides_the_built_in_templates(project: Path) -> None:
    (project / "my_templates").mkdir()
    (project / "my_templates" / "msgspec.py.jinja").write_text(
        '{% extends "_module.py.jinja" %}\n{% block class %}\n'
        'class {{ d.name }}(Struct, frozen=True{% for option in d.options %}, {{ option }}{% endfor %}):\n'
        '{{ m.class_body(d) -}}\n{% endblock %}\n')
    text = (project / "pyproject.toml").read_text().replace('output = "generated"', 'output = "generated"\ntemplates = "my_templates"')
    (project / "pyproject.toml").write_text(text)
    result = run(project, "generate")
    assert result.returncode == 0, result.stderr
    msgspec_models = (project / "generated" / "openai" / "msgspec_models.py").read_text()
    assert "class ChatCompletionChoice(Struct, frozen=True, kw_only=True):" in msgspec_models
    assert "@dataclass(kw_only=True)" in (project / "generated" / "openai" / "dataclass_models.py").read_text()


def test_console_script_is_installed() -> None:
    script = Path(sys.executable).parent / "schemagen"
    result = subprocess.run([str(script), "--help"], capture_output=True, text=True)
    assert result.returncode == 0 and "generate" in result.stdout


def test_strict_turns_warnings_into_errors_and_writes_nothing(project: Path) -> None:
    (project / "schemas" / "loose.json").write_text(json.dumps(
        {"title": "Loose", "type": "object", "properties": {"a": {"type": "string", "not": {"const": "x"}}}}))
    assert run(project, "generate").returncode == 0
    shutil.rmtree(project / "generated")
    result = run(project, "--strict", "generate")
    assert result.returncode == 1 and "#/properties/a/not: `not` is not supported" in result.stderr
    assert not (project / "generated").exists()


def test_an_invalid_schema_is_an_error_with_line_and_column(project: Path) -> None:
    (project / "schemas" / "typo.json").write_text('{\n  "title": "Typo",\n  "properties": {\n    "a": {"type": "strng"}\n  }\n}\n')
    result = run(project, "generate")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "schemas/typo.json:4:19: #/properties/a/type: not a valid schema" in result.stderr


def documented_forms() -> list[tuple[str, int]]:
    """The lines of the example under "Where global options go" in docs/command-line.md, each with
    the exit status its comment states (0 when it states none)."""
    text = (ROOT / "docs" / "command-line.md").read_text()
    section = text.split("### Where global options go\n", 1)[1]
    block = section.split("```sh\n", 1)[1].split("```", 1)[0]
    forms = []
    for line in block.splitlines():
        command, _, comment = line.partition("#")
        status = re.search(r"exit status (\d)", comment)
        forms.append((command.strip(), int(status.group(1)) if status else 0))
    return forms


def test_global_options_go_where_the_documentation_says(project: Path) -> None:
    """Each documented invocation, run in a project with one warning, exits as documented."""
    (project / "schemas" / "loose.json").write_text(json.dumps(
        {"title": "Loose", "type": "object", "properties": {"a": {"type": "string", "not": {"const": "x"}}}}))
    forms = documented_forms()
    assert len(forms) >= 3 and {status for _, status in forms} >= {0, 1, 2}
    for command, status in forms:
        words = shlex.split(command)
        assert words[0] == "schemagen", command
        done = bare(project, *words[1:])
        assert done.returncode == status, (command, done.stderr)
        assert "Traceback" not in done.stderr


def test_strict_fails_a_check_and_ir_but_not_diff(project: Path) -> None:
    """What the documentation says of `--strict` beyond `generate`."""
    (project / "schemas" / "loose.json").write_text(json.dumps(
        {"title": "Loose", "type": "object", "properties": {"a": {"type": "string", "not": {"const": "x"}}}}))
    assert run(project, "generate").returncode == 0
    check = run(project, "--strict", "generate", "--check")
    assert check.returncode == 1 and "up to date" not in check.stderr
    assert check.stderr.startswith("schemas/loose.json:1:")
    ir = run(project, "--strict", "ir", "schemas/loose.json")
    assert ir.returncode == 1 and ir.stdout == ""


def test_a_pyproject_whose_tool_is_no_table_is_no_project_of_ours(tmp_path: Path) -> None:
    """``render`` looks for the project above its input; ``tool = [1]`` is another tool's business."""
    (tmp_path / "pyproject.toml").write_text("tool = [1]\n")
    (tmp_path / "a.json").write_text('{"title": "A", "type": "string"}')
    done = bare(tmp_path, "render", "--variant", "msgspec", "a.json")
    assert done.returncode == 0 and done.stdout.rstrip().endswith("A = str"), done.stderr


def test_a_reader_that_goes_away_ends_the_run_quietly(project: Path) -> None:
    """``schemagen ir … | head``: the rest is not wanted; exit 1, no traceback."""
    big = {"title": "Big", "type": "object",  # (its IR is far more than a pipe holds)
           "properties": {f"field_{i}": {"type": "string", "description": "words " * 20} for i in range(2000)}}
    (project / "big.json").write_text(json.dumps(big), encoding="utf-8")
    child = subprocess.Popen([sys.executable, "-m", "schemagen", "--project", str(project), "ir", "big.json"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=user_env(), cwd=project)
    assert child.stdout is not None and child.stderr is not None
    child.stdout.read(10)
    child.stdout.close()
    errors = child.stderr.read().decode()
    assert child.wait() == 1 and "Traceback" not in errors, errors


def test_a_reader_gone_before_the_output_is_flushed_ends_the_run_quietly(project: Path) -> None:
    """The output still in the buffer when the command ends (``cli.run`` flushes it), the reader gone:
    exit 1, and not Python's own complaint (``Exception ignored … BrokenPipeError``, exit 120)."""
    (project / "small.json").write_text('{"title": "Small", "type": "string"}', encoding="utf-8")  # (a short IR)
    child = subprocess.Popen([sys.executable, "-m", "schemagen", "--project", str(project), "ir", "small.json"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=user_env(), cwd=project)
    assert child.stdout is not None and child.stderr is not None
    child.stdout.close()  # (long before the command has read its schema)
    errors = child.stderr.read().decode()
    assert child.wait() == 1 and "Traceback" not in errors and "Exception" not in errors, errors
