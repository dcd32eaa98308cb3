"""The printer (``schemagen.cache.format.stable``) says "black leaves this" only where black does.

- Each literal, docstring and line width the printer accepts as black's is one black leaves as it
  is: on tables of the cases black's style treats specially, and on random literals (hypothesis).
- Formatting by declaration gives black's bytes on every golden output and generated module, and on
  the raw output of a sample of SchemaStore (the golden cases and OpenAI's description are in
  ``test_performance_contract.py``); most declarations are printed without black.
- Nothing in ``generator/`` imports a module inside black or blib2to3, nor the private modules black's
  wheel installs beside them (``_black_version``): black's public ``format_str``, ``Mode``,
  ``TargetVersion`` and ``InvalidInput`` are all it uses. (``render.format.black_version`` reads the
  version the cache is keyed on off black's ``*.dist-info`` folder name, without importing black.)
"""

from __future__ import annotations

import ast
from pathlib import Path

import black
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from schemagen.cache.format import Session
from schemagen.cache.format.chunks import split
from schemagen.cache.format.stable import _is_black_docstring, _is_black_number, _is_black_string, is_stable
from schemagen.diagnostics import Reporter, SchemaError
from schemagen.project.config import ALL_VARIANTS
from schemagen.project.inputs import Input
from schemagen.project.pipeline import to_ir
from schemagen.render import literals
import schemagen.render as rendering
from schemagen.render.format import format_whole, mode
from golden import ROOT

from conftest import examples, shared

PACKAGE = ROOT / "generator"
OUTPUTS = sorted(ROOT.glob("tests/golden/*/expected/*.py")) + sorted((ROOT / "generated").rglob("*.py"))


def _black_leaves(text: str) -> bool:
    return bool(black.format_str(text, mode=mode()) == text)


def _leaves_literal(text: str) -> bool:
    """Black leaves ``text`` as a value and as the printer meets it: in a list, or as a statement after another."""
    after = f"A = int\n{text}\n\n\nclass B:\n    x: int\n    {text}\n" if text[:3] == '"""' else f"A = [{text}, 1]\n"
    return _black_leaves(f"x = {text}\n") and _black_leaves(after)


def _leaves_docstring(text: str) -> bool:
    return _black_leaves(f"class A:\n    {text}\n")


# --- the acceptors, on tables ----------------------------------------------------------------------

ACCEPTED_STRINGS = ['"plain"', '""', '"it\'s"', "'say \"hi\"'", '"a\\\\b"', '"\\n\\r\\t"', '"\\x1b\\u00e9\\U0001f600"',
                    '"宽 é"', '"""a\\"b"""', '"""two\nlines"""', '"""a""b"""', '"""x\\""""']
REJECTED_STRINGS = ['"\\xAB"', '"\\u00E9"', '"\\N{BULLET}"', "'single'", "'it\\'s'", '"say \\"hi\\""', '"it\\\'s"',
                    'u"u"', 'R"raw"', 'B"b"', 'f"{x}"', '"\\a"', '"\\0"', '"tab\there"', '"nbsp\xa0"', "'''x'''",
                    '"a" "b"', '"""a""" """b"""', '"""a\\\nb"""', '"x', '"']
ACCEPTED_NUMBERS = ["0", "12", "1.5", "1e5", "1e-05", "1.5e10", "10.25e-3"]
REJECTED_NUMBERS = ["1E5", "1e+100", "0xff", "0XFF", "0o17", "0b1", "1_000", "1j", ".5", "5.", "1.e5", "-1"]
ACCEPTED_DOCSTRINGS = ['"""Doc."""', '"""First.\n\n    Second.\n    """', '"""First.\n    more\n        deeper\n    """',
                       '"""One \\"quoted\\" word."""', '"""First.\n    ' + "w" * 81 + '"""',
                       '"""First.\n    last line"""', '"""a\\\\\n    b\n    """']
REJECTED_DOCSTRINGS = ['""""""', '""" """', '"""  padded  """', '""""quoted first"""', '"""ends quoted\\""""',
                       '"""ends \\\\"""', '"""\tTabbed"""', '"""First.\n"""', '"""First.\n    """',
                       '"""First.\n        only deeper\n    """', '"""First.\n  two spaces\n    """',
                       '"""First.\n    \n    x\n    """', '"""First.\n    trailing \n    """',
                       '"""First.\n    x\n        """', '"""First.\n    ' + "w" * 82 + '"""', "'''Doc.'''",
                       '"Doc."', '"""\\xAB"""', '"""Doc. """']


@pytest.mark.parametrize("text", ACCEPTED_STRINGS + REJECTED_STRINGS)
def test_a_string_is_accepted_as_the_table_says_and_then_black_leaves_it(text: str) -> None:
    assert _is_black_string(text) == (text in ACCEPTED_STRINGS)
    if text in ACCEPTED_STRINGS:
        assert _leaves_literal(text)


@pytest.mark.parametrize("text", ACCEPTED_NUMBERS + REJECTED_NUMBERS)
def test_a_number_is_accepted_as_the_table_says_and_then_black_leaves_it(text: str) -> None:
    assert _is_black_number(text) == (text in ACCEPTED_NUMBERS)
    if text in ACCEPTED_NUMBERS:
        assert _leaves_literal(text)


@pytest.mark.parametrize("text", ACCEPTED_DOCSTRINGS + REJECTED_DOCSTRINGS)
def test_a_docstring_is_accepted_as_the_table_says_and_then_black_leaves_it(text: str) -> None:
    assert _is_black_docstring(text) == (text in ACCEPTED_DOCSTRINGS)
    if text in ACCEPTED_DOCSTRINGS:
        assert _leaves_docstring(text)


def test_what_the_generator_writes_is_mostly_accepted() -> None:
    """The subset is the generator's usual output: plain text, escapes, quotes, docstrings of many lines."""
    for text in ["plain", "it's", 'say "hi"', "a\\b", "line\nbreak\ttab", "\x1b\u00e9\U0001f600", "café ’"]:
        assert _is_black_string(literals.string(text)), text
    for text in ["Doc.", "First.\n\nSecond, \"quoted\".\n  indented", "A \\ backslash.", "x" * 200]:
        assert _is_black_docstring(literals.docstring(text, "    ")), text
    for value in [0, 12, 1.5, 1e-05, 123456789.0]:
        assert _is_black_number(literals.value(value))


# --- the acceptors, on random literals ---------------------------------------------------------------

_USUAL = st.sampled_from(["a", "a", " ", '"', "'", "\\\\", "\\n", "\\t", "\\x4a", "\\u00e9", "\\U0001f600", '\\"',
                          "宽", "é", "\n    ", "\n\n    ", "x" * 40])
"""Pieces of the literals the generator writes (most of them in the subset, in one kind of quotes or another)."""
_ODD = st.sampled_from(["\\x4A", "\\u00E9", "\\N{BULLET}", "\\'", "\\a", "\\", "\t", "\xa0", "\u3000", "\u0301",
                        "\n", "\n  ", "\n        ", "  ", "{", '""', '"""'])
"""Pieces black's style treats specially, or that the subset leaves out."""


_USUAL_IN_SINGLE = st.sampled_from(["a", " ", '"', '"', "\\\\", "\\n", "\\x4a", "é", "{"])
"""Pieces of a literal the generator writes in single quotes: it holds a double quote and no single one."""


@st.composite
def _bodies(draw: st.DrawFn, usual: st.SearchStrategy[str] = _USUAL) -> str:
    """Mostly usual pieces, with an odd one or two among them (so that a fair share is accepted)."""
    pieces = draw(st.lists(usual, max_size=8))
    for odd in draw(st.lists(_ODD, max_size=2)):
        pieces.insert(draw(st.integers(0, len(pieces))), odd)
    return "".join(pieces)


_BODIES = _bodies()


@settings(max_examples=examples(400), suppress_health_check=list(HealthCheck))
@given(st.sampled_from(["", "", "", "", "u", "r", "b", "f"]), st.sampled_from(['"', "'", '"""', "'''"]), _BODIES)
def test_a_string_accepted_is_one_black_leaves(prefix: str, quote: str, body: str) -> None:
    text = prefix + quote + body + quote
    if _is_black_string(text):
        assert isinstance(ast.literal_eval(text), str)
        assert _leaves_literal(text)


@settings(max_examples=examples(200), suppress_health_check=list(HealthCheck))
@given(_bodies(_USUAL_IN_SINGLE))
def test_a_single_quoted_string_accepted_is_one_black_leaves(body: str) -> None:
    text = "'" + body + "'"
    if _is_black_string(text):
        assert isinstance(ast.literal_eval(text), str)
        assert _leaves_literal(text)


@settings(max_examples=examples(400), suppress_health_check=list(HealthCheck))
@given(_BODIES)
def test_a_docstring_accepted_is_one_black_leaves(body: str) -> None:
    text = '"""' + body + '"""'
    if _is_black_docstring(text):
        assert _leaves_docstring(text)


@settings(max_examples=examples(400), suppress_health_check=list(HealthCheck))
@given(st.from_regex(r"\A(?:[0-9_]{1,4}(?:\.[0-9_]{0,3})?(?:[eE][-+]?[0-9]{1,3})?[jJ]?|0[xXoObB][0-9a-fA-F]{1,4})\Z"))
def test_a_number_accepted_is_one_black_leaves(text: str) -> None:
    if _is_black_number(text):
        assert _leaves_literal(text)


_WIDE = st.text(st.sampled_from(["a", "宽", "é", "\u0301", "\u200b", "😀", "\U00020000", "ア"]), max_size=60)


@settings(max_examples=examples(300), suppress_health_check=list(HealthCheck))
@given(st.lists(_WIDE, min_size=1, max_size=4), st.integers(0, 50))
def test_a_line_with_wide_characters_said_to_fit_fits(words: list[str], padding: int) -> None:
    """A chunk with non-ASCII lines, said to be stable, is one black leaves (black would split a line too long)."""
    values = ", ".join(literals.string(w) for w in words)
    text = f"class A{'x' * padding}(Struct, tag={literals.string(words[0])}):\n    x: Literal[{values}] | None = None\n"
    if is_stable(text):
        assert _black_leaves(text)


_WORDS = st.text(st.sampled_from("abcdefghij klmnop_`é"), min_size=1, max_size=90)
_VALUES = st.one_of(
    st.sampled_from(["None", "1", "-2.5", "True", "list[str]", 'lambda: ["a", "b"]', 're.compile("^[a-z]+$")']),
    _WORDS.map(literals.string),
    st.lists(_WORDS.map(lambda w: w + "\n"), min_size=2, max_size=4).map("".join).map(literals.text),  # ("…\n" "…\n")
)
_KEYWORDS = st.lists(st.tuples(st.sampled_from(["default", "ge", "validation_alias", "description", "pattern"]),
                               _VALUES), min_size=1, max_size=4)


@settings(max_examples=examples(300), suppress_health_check=list(HealthCheck), deadline=None)
@given(st.integers(1, 40), st.sampled_from(["int", "Omittable[str]", "list[Annotated[str, Field(max_length=3)]]",
                                            'Literal["a", "b"] | None']), _KEYWORDS, st.integers(0, 1))
def test_a_call_split_over_lines_is_laid_out_as_black_lays_it_out(name: int, annotation: str,
                                                                  keywords: list[tuple[str, str]], depth: int) -> None:
    """``name: T = Field(...)`` too long for a line (``calls``): formatting by declaration is black's, from
    the one-line source and from black's own layout, at the margin and in a class."""
    statement = f"{'x' * name}: {annotation} = Field({', '.join(f'{k}={v}' for k, v in keywords)})"
    header = "from pydantic import BaseModel, Field\n\n\n"  # (a module with no imports is formatted whole)
    raw = header + (f"class A(BaseModel):\n    {statement}\n" if depth else statement + "\n")
    expected = black.format_str(raw, mode=mode())
    session = Session()
    assert session.format([raw, expected]) == [expected, expected]
    assert session.stats.modules_whole == 0


_S35, _S70 = '"' + "s" * 31 + '\\n"', '"' + "l" * 68 + '"'
_CALLS = [f"description={_S70}", f"description=({_S35} {_S35})", f"description=({_S70} {_S70})",
          'default=None, ge=1, le=2000000000000, validation_alias="name-of-the-field"',
          f"default=None, description=({_S35} {_S35})", f"default=None, description={_S70}, ge=1",
          f"default=None, description=({_S70} {_S70})"]


@pytest.mark.parametrize("keywords", _CALLS)
def test_the_printer_lays_out_calls_split_over_lines(keywords: str) -> None:
    """Each layout of ``calls``, from the one-line source, as black's, and without black: without this,
    the test above would pass with a planner that sends every such statement to black."""
    raw = ("from pydantic import BaseModel, Field\n\n\nclass A(BaseModel):\n"
           f"    name_of_the_field: Omittable[str] = Field({keywords})\n")
    expected = black.format_str(raw, mode=mode())
    assert expected.count("\n") > raw.count("\n")  # black splits it
    session = Session()
    assert session.format([raw]) == [expected]
    assert (session.stats.statements, session.stats.by_statement) == (0, 1)


# --- black's bytes on outputs and corpora ------------------------------------------------------------

@pytest.mark.parametrize("path", OUTPUTS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_golden_output_and_generated_module_comes_back_as_it_is(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert Session().format([text]) == [text]


def test_the_printer_prints_most_declarations_of_the_outputs() -> None:
    """Without this, the tests above would also pass with a printer that accepts nothing. (The header,
    the first chunk, is imports: black's; so is a statement black has split over lines.)"""
    declarations = [c.text for path in OUTPUTS for c in (split(path.read_text(encoding="utf-8")) or [])[1:]]
    stable = sum(is_stable(c) for c in declarations)
    assert stable >= 0.9 * len(declarations), f"{stable} of {len(declarations)} declarations printed without black"


SCHEMASTORE_EVERY = 10
SCHEMASTORE_LARGEST = 100_000
"""Bytes of a schema of the sample, at most: black on the modules of the four larger ones would take
most of a minute (one of them has 2.7 MB)."""


def test_formatting_by_declaration_is_whole_file_black_on_a_sample_of_schemastore() -> None:
    folder = shared("corpora/schemastore") / "json"
    env = rendering.environment()
    for path in sorted(folder.glob("*.json"))[::SCHEMASTORE_EVERY]:
        if path.stat().st_size > SCHEMASTORE_LARGEST:
            continue
        try:
            module = to_ir(Input("corpus_case", path, path.name), path.parent, Reporter())
        except SchemaError:
            continue  # a schema the generator refuses (the corpus tests count those)
        raws = [rendering.layout(module, variant, path.name, env) for variant in ALL_VARIANTS]
        assert Session().format(raws) == [format_whole(raw) for raw in raws], path.name


# --- no module inside black ---------------------------------------------------------------------------

PUBLIC = {"format_str", "Mode", "TargetVersion", "InvalidInput"}
BLACKS = ("black", "blib2to3", "_black_version", "blackd")
"""The top-level modules black's wheel installs."""


def _black_uses(tree: ast.Module) -> list[str]:
    """What a module takes from black: modules it imports, and attributes of ``black`` it reads."""
    used = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            used += [a.name for a in node.names if a.name.split(".")[0] in BLACKS]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in BLACKS:
            used += [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "black":
            used.append(f"black.{node.attr}")
    return used


def test_nothing_in_the_package_imports_a_module_inside_black() -> None:
    offences = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        used = _black_uses(ast.parse(path.read_text(encoding="utf-8")))
        bad = [u for u in used if u != "black" and u.removeprefix("black.") not in PUBLIC]
        if bad:
            offences[path.relative_to(ROOT).as_posix()] = bad
    assert offences == {}


def test_the_scan_would_see_a_private_import() -> None:
    tree = ast.parse("import black\nfrom black.strings import str_width\nimport blib2to3.pytree\nblack.linegen\n"
                     "from _black_version import version\n")
    assert _black_uses(tree) == ["black", "black.strings.str_width", "blib2to3.pytree", "_black_version.version",
                                 "black.linegen"]


def test_the_cache_is_keyed_on_the_installed_black() -> None:
    from importlib.metadata import version

    from schemagen.render.format import black_version

    assert black_version() == version("black") == black.__version__


@pytest.mark.parametrize(("distribution", "package"), [("black", None), ("jsonschema", None), ("PyYAML", "yaml"),
                                                      ("Jinja2", "jinja2"), ("jsonschema-specifications", "jsonschema_specifications")])
def test_an_installed_version_read_off_its_folder_is_the_metadatas(distribution: str, package: str | None) -> None:
    """What the caches key on (black's and the validator's versions) is read without ``importlib.metadata``."""
    from importlib.metadata import version

    from schemagen import installed

    assert installed.version(distribution, package) == version(distribution)


def test_the_versions_the_caches_key_on_are_read_without_importing_the_metadata_reader() -> None:
    """(``importlib.metadata`` costs some 15 ms to import: more than the reading it saves.)"""
    import subprocess
    import sys

    probe = ("import sys; from schemagen import installed; installed.version('black'); "
             "installed.version('jsonschema'); print(sorted({'importlib.metadata', 'black', 'jsonschema'} & set(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
