"""Fuzzing: random schemas and mutations of the seed schemas either give good code or a clean error.

For every input hypothesis makes (tests/fuzz_strategies.py), the generator must either report a
clean ``SchemaError`` or write, for each variant, code that compiles and imports, whose msgspec
variant lets msgspec build a decoder for every type it defines, and that passes ``mypy --strict``.
Any other exception is a bug (which a long run shrinks to a small schema).

mypy on every example is slow, so each test writes the modules of its passing examples into one
package and runs mypy once at the end (on a sample of at most ``MYPY_SAMPLE`` examples).

``make test`` runs a bounded, derandomized profile (``EXAMPLES`` per test, no shrinking); ``make fuzz`` sets
``SCHEMAGEN_FUZZ_EXAMPLES`` (e.g. 2000) for a long, random run whose failures hypothesis shrinks, keeps in
``$TMPDIR/schemagen-hypothesis`` and replays first next time (the profiles: tests/conftest.py).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis.strategies import SearchStrategy
from mypy import api

from conftest import bench_module, examples, output_package
from fuzz_strategies import Case, documents, mutations
from schemagen.diagnostics import SchemaError
from schemagen.project.config import ALL_VARIANTS
from schemagen.project.pipeline import Renderer
from schemagen.render.options import RenderOptions

RENDERER = Renderer(None, RenderOptions())
"""As ``generate`` renders: black's work shared between the examples."""


corpus = bench_module("corpus")
"""bench/corpus.py, for ``exec_module`` and ``check_msgspec_types``."""

EXAMPLES = examples(50)
MYPY_SAMPLE = int(os.environ.get("SCHEMAGEN_FUZZ_MYPY_SAMPLE", "300"))

PROFILE = settings(max_examples=EXAMPLES, suppress_health_check=list(HealthCheck))
"""The rest (derandomized or not, database, deadline, shrinking) is tests/conftest.py's profile."""


class Batch:
    """The modules of one test's passing examples, laid out as a package for one mypy run."""

    def __init__(self, root: Path, name: str) -> None:
        self.root = root
        self.package = output_package(root, name)
        self.cases: dict[str, Case] = {}
        self.seen: set[str] = set()

    def add(self, case: Case, sources: dict[str, str]) -> None:
        digest = hashlib.sha256("\0".join(sources.values()).encode()).hexdigest()[:16]
        if digest in self.seen:
            return
        self.seen.add(digest)
        folder = self.package / f"case_{len(self.cases):05d}"
        folder.mkdir()
        (folder / "__init__.py").write_text("")
        for variant, source in sources.items():
            (folder / f"{variant}_models.py").write_text(source)
        (folder / "input.json").write_text(case.describe())
        self.cases[folder.name] = case

    def check_mypy(self) -> None:
        """``mypy --strict`` on (a sample of) the batch; the failure names each failing example's input."""
        if not self.cases:
            pytest.skip("no example generated code (all clean errors)")
        names = sorted(self.cases)
        if len(names) > MYPY_SAMPLE:
            step = len(names) / MYPY_SAMPLE
            names = [names[int(i * step)] for i in range(MYPY_SAMPLE)]
        targets = [str(self.package.name + "/" + n) for n in names]
        old = Path.cwd()
        os.chdir(self.root)
        try:
            stdout, stderr, status = api.run(["--strict", "--no-incremental", "--python-version", "3.11",
                                              "--config-file", "", "--cache-dir", os.devnull,
                                              "--explicit-package-bases", *targets])
        finally:
            os.chdir(old)
        if status == 0:
            return
        failing: dict[str, list[str]] = {}
        for line in stdout.splitlines():
            if ": error:" in line:
                case = line.split("/")[1] if "/" in line else "?"
                failing.setdefault(case, []).append(line)
        report = [f"mypy --strict fails on {len(failing)} of {len(names)} generated examples"]
        for case, lines in list(failing.items())[:5]:
            source = self.cases.get(case)
            report += [f"--- {case} ({source.label if source else '?'}): input", source.describe() if source else "?"]
            report += lines[:6]
        pytest.fail("\n".join(report) + ("\n" + stderr if stderr else ""), pytrace=False)


def generate(case: Case, folder: Path) -> dict[str, str] | None:
    """Run the generator on ``case``: ``None`` for a clean error, else the module of each variant.

    Raises (so hypothesis shrinks the input) when a variant crashes, does not compile or import, or
    has a type msgspec cannot decode.
    """
    module = case.lowered(folder)
    if module is None:
        return None
    sources: dict[str, str] = {}
    for variant in ALL_VARIANTS:
        try:
            source = RENDERER.render(module, variant, case.input_name)
        except SchemaError:
            return None
        namespace = corpus.exec_module(source, f"fuzz {variant}")
        try:
            if variant == "msgspec":
                problems = corpus.check_msgspec_types(namespace, source)
                assert not problems, f"msgspec cannot decode: {problems}"
        finally:
            corpus.forget_module(namespace)
        sources[variant] = source
    return sources


@pytest.fixture
def batch(tmp_path: Path) -> Iterator[Batch]:
    yield Batch(tmp_path, "fuzzed")


def _run(strategy: SearchStrategy[Case], batch: Batch, tmp_path: Path) -> None:
    counter = iter(range(10**9))

    @PROFILE
    @given(strategy)
    def example(case: Case) -> None:
        sources = generate(case, tmp_path / "inputs" / f"{next(counter):06d}")
        if sources is not None:
            batch.add(case, sources)

    example()
    batch.check_mypy()


FOUND: list[tuple[str, dict[str, object]]] = [
    # (what broke, the minimal input): crashes the fuzzer found, kept as regression cases
    ("an empty type list inside prefixItems: list[]", {
        "prefixItems": [{"items": {"type": []}}], "items": False, "minItems": 1}),
    ("an alias of null beside null: None | None at run time", {
        "title": "H", "type": "object", "definitions": {"N": {"type": "null"}},
        "properties": {"a": {"anyOf": [{"$ref": "#/definitions/N"}, {"type": "null"}]}}}),
    ("a default for an alias that is itself: endless fits()", {
        "title": "R", "type": "object", "definitions": {"A": {"anyOf": [{"$ref": "#/definitions/A"}, {"type": "integer"}]}},
        "properties": {"x": {"$ref": "#/definitions/A", "default": "s"}}}),
    ("a tuple beside a map with minProperties: msgspec segfaults building the decoder", {"anyOf": [
        {"type": "array", "prefixItems": [{"type": "integer"}], "items": False, "minItems": 1},
        {"type": "object", "additionalProperties": {"type": "integer"}, "minProperties": 1}]}),
    ("docstring of three quotes: black cannot parse", {"type": "string", "description": '"""'}),
    ("field docstring of three quotes", {"properties": {"a": {"description": '"""'}}}),
    ("definition named '_': empty class name", {"definitions": {"_": {}}}),
    ("minimum and exclusiveMinimum: Meta(ge, gt)", {"type": "number", "minimum": 1, "exclusiveMinimum": 0}),
    ("maximum and exclusiveMaximum: Meta(le, lt)", {"type": "integer", "maximum": 5, "exclusiveMaximum": 6}),
    ("1e400 reads as inf: int(inf)", {"type": "integer", "minimum": float("inf")}),
    ("-1e400 as a bound: Meta(le=-inf)", {"type": "number", "maximum": float("-inf")}),
    ("tags of int and str in one union", {"oneOf": [
        {"type": "object", "properties": {"k": {"const": 1}}, "required": ["k"]},
        {"type": "object", "properties": {"k": {"const": "a"}}, "required": ["k"]}]}),
    ("a definition that is a list", {"definitions": {"A": []}}),
    ("a definition that is a number", {"definitions": {"minProperties": 0}}),
    ("`definitions: true`", {"definitions": True}),
    ("a property named format whose schema is a string", {"properties": {"format": "x"}}),
    ("maxLength on a time", {"type": "string", "format": "time", "maxLength": 3}),
    ("minLength on a uuid", {"type": "string", "format": "uuid", "minLength": 3}),
    ("pattern on a date-time", {"type": "string", "format": "date-time", "pattern": "^2"}),
    ("maxLength on a decimal", {"type": "string", "format": "decimal", "maxLength": 3}),
    ("pattern on base64 bytes", {"type": "string", "format": "byte", "pattern": "^a"}),
    ("maxLength 2**64 - 1: Meta out of range", {"type": "string", "maxLength": 2**64 - 1}),
    ("a $ref with a sibling inside its own target: lowering never ended",
     {"definitions": {"A": {"properties": {"a": {"$ref": "#/definitions/A", "minimum": 0}}}}}),
    ("the same, folded to a model or a list", {"definitions": {"A": {
        "type": ["object", "array"], "properties": {"a": {"$ref": "#/definitions/A", "minimum": 0}}}}}),
    ("the same through anyOf", {"definitions": {"A": {"type": "object", "anyOf": [
        {"properties": {"a": {"$ref": "#/definitions/A", "maxProperties": 2}}}, {"required": ["b"]}]}}}),
    ("the same, an anyOf beside properties: folded afresh at each level", {"definitions": {"A": {
        "type": "object", "properties": {"p": {"type": "object"}}, "anyOf": [{"properties": {"p": {"$ref": "#/definitions/A"}}}]}}}),
    ("Swagger 2.0, the same, nullable", {"swagger": "2.0", "info": {"title": "t", "version": "1"}, "paths": {},
                                         "definitions": {'"': {"properties": {'"': {
                                             "$ref": '#/definitions/"', "minimum": 0, "x-nullable": True,
                                             "propertyNames": {}, "dependentRequired": {}}}}}}),
    ("a required key listed twice: two fields of one name", {"properties": {"a%20b": {}, "a": {}},
                                                             "required": ["a%20b", "a%20b", "x", "x"]}),
    ("definitions named like what the output imports: Annotated, datetime", {"definitions": {
        "Annotated": {"type": "object", "maxProperties": 1},
        "datetime": {"type": "object", "properties": {"t": {"type": "string", "format": "date-time"}}}}}),
    ("a definition of type null: `N = None` is a variable to mypy",
     {"definitions": {"N": {"type": "null"}, "L": {"items": {"$ref": "#/definitions/N"}}},
      "properties": {"n": {"$ref": "#/definitions/N"}}}),
    ("an object default where msgspec widens the union to dict[str, Any]: a Struct for a dict", {
        "properties": {"a": {"anyOf": [{"type": "object", "properties": {"x": {"type": "integer"}}},
                                       {"type": "object", "properties": {"y": {"type": "string"}}}],
                             "default": {"y": "s"}}}}),
]
"""Inputs the generator crashed on: each must now give good code or a clean error."""

MUST_GENERATE: list[tuple[str, dict[str, object]]] = [
    # valid schemas the generator refused ("unresolved reference") although the target is there
    ("draft-07 root $ref beside definitions", {"$schema": "http://json-schema.org/draft-07/schema#",
                                               "$ref": "#/definitions/A", "definitions": {"A": {"type": "string"}}}),
    ("$ref into a container that is not a schema", {"properties": {"a": {"$ref": "#/definitions/B/x"}},
                                                    "definitions": {"B": {"x": {"type": "string"}}}}),
    ("$ref into a non-standard keyword", {"properties": {"a": {"$ref": "#/defs/x"}},
                                          "defs": {"x": {"type": "string"}}}),
    ("a list whose items fold a $ref to it: refused as 64 levels deep",
     {"definitions": {"A": {"items": {"$ref": "#/definitions/A", "minItems": 1}}}}),
]
"""Valid inputs the generator refused: each must now generate."""


@pytest.mark.parametrize(("what", "schema"), FOUND, ids=[w for w, _ in FOUND])
def test_found_crash_is_fixed(what: str, schema: dict[str, object], tmp_path: Path) -> None:
    generate(Case({"schema.json": schema}, label=what), tmp_path / "case")


def test_found_crashes_give_code_mypy_accepts(batch: Batch, tmp_path: Path) -> None:
    for i, (what, schema) in enumerate(FOUND):
        case = Case({"schema.json": schema}, label=what)
        sources = generate(case, tmp_path / "inputs" / f"{i:03d}")
        if sources is not None:
            batch.add(case, sources)
    batch.check_mypy()


@pytest.mark.parametrize(("what", "schema"), MUST_GENERATE, ids=[w for w, _ in MUST_GENERATE])
def test_found_refusal_is_fixed(what: str, schema: dict[str, object], tmp_path: Path) -> None:
    assert generate(Case({"schema.json": schema}, label=what), tmp_path / "case") is not None


def test_random_schemas(batch: Batch, tmp_path: Path) -> None:
    """Random JSON Schema, OpenAPI 3.0/3.1, Swagger 2.0 documents and component folders."""
    _run(documents(), batch, tmp_path)


def test_mutated_seed_schemas(batch: Batch, tmp_path: Path) -> None:
    """schemas/chat_completion_out.json and schemas/openai/ with random edits."""
    _run(mutations(), batch, tmp_path)
