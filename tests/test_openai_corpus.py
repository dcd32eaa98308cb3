"""The generator on OpenAI's full API description (../shared/corpora/openai/openapi.yaml, ~1,400 component schemas).

Generation runs once per module (it is slow); each test then checks one thing about the result, so one broken
variant does not hide the others. Run with ``-s`` to see the timings and the warnings summary.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import re
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, get_args, get_type_hints

import msgspec
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from mypy import api

from conftest import bench_module, examples, output_package, shared
from corpus_tools import (defined_names, error_kind, group, mypy_errors, offending_type, source_line,
                          summarise_warnings, union_fields)
from schemagen import ir
from schemagen.diagnostics import Reporter, SchemaError
from schemagen.ir.walk import refs
from schemagen.frontend import validate
from schemagen.project.inputs import Input
from schemagen.project.pipeline import Renderer, Stages, to_ir
from schemagen.render.options import RenderOptions
from payload_strategies import mutated, payloads
from schema_oracle import Oracle
from test_dataclass_convert import CHECKED, _differs, agree

PACKAGE = "openai_full"
OUT = "openai_out"
"""The output package the input's package is in, with the converter its dataclass module imports."""
VARIANTS = ("dataclass", "typeddict", "msgspec")
RecordProperty = Callable[[str, object], None]
MYPY_SLOW = 180.0
"""Seconds; slower mypy runs are called out in the output."""


@dataclass
class Corpus:
    root: Path
    """Holds the package: the folder put on ``sys.path`` and mypy's working directory."""
    reporter: Reporter
    ir: Any = None
    """The IR module, when lowering succeeded."""
    ir_error: str | None = None
    schemas: Any = None
    """The canonical ``SchemaSet`` the IR was lowered from (tests/schema_oracle.py reads it)."""
    crashes: dict[str, str] = field(default_factory=dict)
    """Variant → traceback of rendering it."""
    modules: dict[str, ModuleType] = field(default_factory=dict)
    import_errors: dict[str, str] = field(default_factory=dict)
    timings: dict[str, float] = field(default_factory=dict)

    @property
    def package(self) -> Path:
        return self.root / OUT / PACKAGE

    def path(self, variant: str) -> Path:
        return self.package / f"{variant}_models.py"

    def timed(self, phase: str, seconds: float) -> None:
        self.timings[phase] = seconds
        print(f"\n[openai corpus] {phase}: {seconds:.1f}s", flush=True)

    def require_ir(self) -> None:
        if self.ir_error is not None:
            pytest.fail(f"to_ir failed, nothing was generated (see test_to_ir): {self.ir_error.splitlines()[0]}",
                        pytrace=False)


def _tail(text: str, lines: int = 15) -> str:
    return "\n".join(text.rstrip().splitlines()[-lines:])


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Corpus]:
    yaml_path = shared("corpora/openai/openapi.yaml")
    result = Corpus(tmp_path_factory.mktemp("openai_corpus"), Reporter())
    output_package(result.root, OUT)
    result.package.mkdir()
    (result.package / "__init__.py").write_text("")

    start = time.perf_counter()
    try:
        def check(schemas: Any, reporter: Reporter, made_from: Any) -> None:
            result.schemas = schemas
            validate.check(schemas, reporter)

        module = result.ir = to_ir(Input(PACKAGE, yaml_path, "openapi.yaml"), yaml_path.parent, result.reporter,
                                   stages=Stages(check=check))
    except SchemaError as exc:
        distinct = list(dict.fromkeys(map(str, exc.diagnostics)))
        result.ir_error = (f"SchemaError ({len(exc.diagnostics)} errors, {len(distinct)} distinct)\n"
                           + "\n".join(distinct[:40]))
    except Exception:
        result.ir_error = traceback.format_exc()
    result.timed("to_ir (load, lower, passes)", time.perf_counter() - start)

    if result.ir_error is None:
        renderer = Renderer(None, RenderOptions())  # as `generate` renders (black's work shared between modules)
        for variant in VARIANTS:
            start = time.perf_counter()
            try:
                text = renderer.render(module, variant, "openapi.yaml")
            except Exception:
                result.crashes[variant] = traceback.format_exc()
            else:
                result.path(variant).write_text(text)
            result.timed(f"render {variant}", time.perf_counter() - start)

    sys.path.insert(0, str(result.root))
    importlib.invalidate_caches()
    try:
        for variant in VARIANTS:
            if not result.path(variant).exists():
                continue
            start = time.perf_counter()
            try:
                result.modules[variant] = importlib.import_module(f"{OUT}.{PACKAGE}.{variant}_models")
            except Exception:
                result.import_errors[variant] = traceback.format_exc()
            result.timed(f"import {variant}", time.perf_counter() - start)
        yield result
    finally:
        sys.path.remove(str(result.root))
        for name in [n for n in sys.modules if n == OUT or n.startswith(OUT + ".")]:
            del sys.modules[name]
        print("\n[openai corpus] timings:\n" + "\n".join(f"  {k:<32}{v:8.1f}s" for k, v in result.timings.items()))


def test_to_ir(corpus: Corpus) -> None:
    if corpus.ir_error is not None:
        pytest.fail(f"to_ir failed, nothing was generated:\n{corpus.ir_error}", pytrace=False)


@pytest.mark.parametrize("variant", VARIANTS)
def test_generates(corpus: Corpus, variant: str) -> None:
    corpus.require_ir()
    if variant in corpus.crashes:
        pytest.fail(f"render({variant!r}) crashed:\n{_tail(corpus.crashes[variant])}", pytrace=False)
    assert corpus.path(variant).stat().st_size > 0


@pytest.mark.parametrize("variant", VARIANTS)
def test_imports(corpus: Corpus, variant: str) -> None:
    corpus.require_ir()
    if variant in corpus.crashes:
        pytest.fail(f"not generated (render crashed): {corpus.crashes[variant].splitlines()[-1]}", pytrace=False)
    if variant in corpus.import_errors:
        pytest.fail(f"importing {variant}_models failed:\n{_tail(corpus.import_errors[variant])}", pytrace=False)
    assert variant in corpus.modules


def test_every_msgspec_type_builds_a_decoder(corpus: Corpus, record_property: RecordProperty) -> None:
    corpus.require_ir()
    module = corpus.modules.get("msgspec")
    if module is None:
        pytest.fail("the msgspec module was not generated or did not import (see test_generates / test_imports)",
                    pytrace=False)
    classes, aliases = defined_names(corpus.path("msgspec").read_text())
    assert classes, "the msgspec module defines no class"

    start = time.perf_counter()
    failures: list[tuple[str, str]] = []
    for name in classes + aliases:
        kind = "class" if name in classes else "alias"
        try:
            msgspec.json.Decoder(getattr(module, name))
        except Exception as exc:
            failures.append((f"{name} ({kind})", f"{type(exc).__name__}: {exc}"))
    seconds = time.perf_counter() - start
    corpus.timed(f"decoders ({len(classes)} classes, {len(aliases)} aliases)", seconds)
    record_property("seconds", round(seconds, 2))

    if failures:
        grouped = group((f"{message.split(':', 1)[0]}: {error_kind(message.split(': ', 1)[-1])}", name)
                        for name, message in failures)
        # A class fails when any field's type fails: the distinct offending types are the root causes.
        roots = group((_short(offending_type(message, module.__name__) or message), name.split(" ")[0])
                      for name, message in failures)
        listing = "\n".join(f"{name}: {message}" for name, message in failures)
        pytest.fail(f"{len(failures)} of {len(classes) + len(aliases)} types build no msgspec.json.Decoder\n"
                    f"by kind:\n{grouped}\n\nby offending type:\n{roots}\n\nall:\n{listing}", pytrace=False)


def _short(text: str, width: int = 160) -> str:
    return text if len(text) <= width else text[:width] + " …"


def test_mypy_strict(corpus: Corpus, monkeypatch: pytest.MonkeyPatch, record_property: RecordProperty) -> None:
    corpus.require_ir()
    missing = [v for v in VARIANTS if not corpus.path(v).exists()]
    # mypy stops at the first module with a syntax error; check the others so their errors still show.
    unparsable: dict[str, str] = {}
    for variant in VARIANTS:
        if variant not in missing:
            try:
                compile(corpus.path(variant).read_text(), str(corpus.path(variant)), "exec", dont_inherit=True)
            except SyntaxError as exc:
                unparsable[variant] = f"{exc.msg} (line {exc.lineno}: {(exc.text or '').strip()})"
    checked = [v for v in VARIANTS if v not in missing and v not in unparsable]
    problems = [f"not generated, so not checked: {', '.join(missing)}"] if missing else []
    problems += [f"{v}_models.py does not parse, so not checked: {why}" for v, why in unparsable.items()]
    if not checked:
        pytest.fail("\n".join(problems) or "nothing to check", pytrace=False)
    targets = ["-p", OUT] if len(checked) == len(VARIANTS) else [
        arg for v in checked for arg in ("-m", f"{OUT}.{PACKAGE}.{v}_models")]
    monkeypatch.chdir(corpus.root)

    start = time.perf_counter()
    stdout, stderr, status = api.run(["--strict", "--no-incremental", "--config-file", "", *targets])
    seconds = time.perf_counter() - start
    corpus.timed(f"mypy --strict ({', '.join(checked)})", seconds)
    record_property("seconds", round(seconds, 2))
    if seconds > MYPY_SLOW:
        print(f"[openai corpus] NOTE: mypy took {seconds:.0f}s (> {MYPY_SLOW:.0f}s)")

    if status != 0:
        errors = mypy_errors(stdout)
        by_code = Counter(code for *_, code in errors)
        shown = []
        for file, line, text, code in errors[:40]:
            shown.append(f"{file}:{line}: {text}  [{code}]\n      | {source_line(corpus.root, file, line)}")
        problems.append(
            f"mypy --strict: exit {status}, {len(errors)} errors\n"
            f"by code: {', '.join(f'{c}={n}' for c, n in by_code.most_common())}\n"
            f"by kind:\n{group((f'[{c}] {error_kind(t)}', f'{Path(f).stem}:{n}') for f, n, t, c in errors)}\n\n"
            f"first {len(shown)}:\n" + "\n".join(shown) + ("\n" + stderr if stderr else "")
            + (f"\n(last line: {stdout.strip().splitlines()[-1]})" if stdout.strip() else ""))
    if problems:
        pytest.fail("\n\n".join(problems), pytrace=False)


def test_warnings_summary(corpus: Corpus, request: pytest.FixtureRequest,
                          record_property: RecordProperty) -> None:
    """Reports, never fails: what the generator says it could not express (test_to_ir fails on errors)."""
    summary = summarise_warnings(corpus.reporter.warnings)
    print(f"\n[openai corpus] warnings by kind:\n{summary}")
    request.node.add_report_section("call", "openai corpus warnings", summary)
    record_property("warnings_summary", summary)


def _steps(path: str) -> list[str]:
    return re.findall(r"\.([^.\[]+)|\[(?:\d+|\.\.\.)\]", path.removeprefix("$")) if path != "$" else []


def _first_difference(a: Any, b: Any, steps: tuple[str, ...] = ()) -> list[str] | None:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in [*a, *(k for k in b if k not in a)]:
            found = _first_difference(a.get(key), b.get(key), (*steps, key))
            if found is not None:
                return found
        return None
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) and len(a) == len(b):
        return next((f for f in (_first_difference(x, y, (*steps, "")) for x, y in zip(a, b)) if f is not None), None)
    return None if a == b and type(a) is type(b) else list(steps)


def _widened_on(value: Any, dataclasses_module: ModuleType, steps: list[str]) -> bool:
    """Whether, on the way along ``steps`` through msgspec's reading, a plain ``dict`` stands where the
    dataclass variant has classes: a union the msgspec variant widens to ``dict[str, Any]``."""
    hint: Any = None
    for step in steps:
        if isinstance(value, msgspec.Struct):
            names = {f.encode_name: f.name for f in msgspec.structs.fields(value)}
            name = names.get(step)
            if name is None:
                return False
            hint = get_type_hints(getattr(dataclasses_module, type(value).__name__))[name]
            value = getattr(value, name)
        else:
            hint = next((a for a in get_args(hint) if get_args(a)), hint)  # list[X] / dict[str, X] in a union
            value = (value[int(step)] if step.isdigit() else None) if isinstance(value, list) else None
            hint = get_args(hint)[-1] if get_args(hint) else hint
        members = get_args(hint) or (hint,)
        if isinstance(value, dict) and any(dataclasses.is_dataclass(m) for m in members):
            return True
    return False


def test_the_dataclass_variant_reads_every_example_as_msgspec_reads_it(corpus: Corpus,
                                                                        record_property: RecordProperty) -> None:
    """Every example object the description holds, for a component that is a class: where msgspec reads
    it, ``to_dict(from_dict(x))`` is msgspec's builtins; where msgspec refuses it (type, required
    field, enum), ``from_dict`` refuses it with msgspec's message. Except under a union the msgspec
    variant widens to ``dict[str, Any]`` (not checked there): the dataclass variant checks its members."""
    from schemagen.frontend.read import read_document

    corpus.require_ir()
    ms, dc = corpus.modules.get("msgspec"), corpus.modules.get("dataclass")
    if ms is None or dc is None:
        pytest.fail("a module was not generated or did not import", pytrace=False)
    openai_examples = bench_module("openai_examples")
    classes = openai_examples.component_classes(corpus.ir)
    document = read_document(shared("corpora/openai/openapi.yaml"), "openapi.yaml")
    outcomes: Counter[str] = Counter()
    problems = []
    for where, component, value in openai_examples.examples(document):
        name = classes.get(component)
        if name is None:
            outcomes["not a class"] += 1
            continue
        data = json.dumps(value)
        try:
            decoded = msgspec.json.decode(data, type=getattr(ms, name))
            expected, refused = msgspec.to_builtins(decoded), None
        except msgspec.ValidationError as exc:
            decoded, expected, refused = None, None, str(exc)
        try:
            got, failed = getattr(dc, name).from_dict(json.loads(data)).to_dict(), None
        except dc.DecodeError as exc:
            got, failed = None, str(exc)
        same = failed == refused and got == expected and _first_difference(got, expected) is None
        outcomes[("accepted" if refused is None else "refused") + ("" if same else ", differently")] += 1
        if same:
            continue
        if refused is None and failed is not None:
            steps = _steps(failed.split(" - at `", 1)[1][:-1] if " - at `" in failed else "$")
        elif refused is None:
            steps = _first_difference(got, expected) or []
        else:
            steps = []
        if not (decoded is not None and _widened_on(decoded, dc, steps)):
            problems.append(f"{where} ({name}): msgspec {refused or 'reads it'}; from_dict {failed or 'reads it'}"
                            + ("" if failed or refused else f"; first difference at {steps}"))
    record_property("examples", dict(outcomes))
    print(f"\n[openai corpus] examples: {dict(outcomes)}")
    assert outcomes["accepted"] > 300 and outcomes["refused"] > 0
    assert not problems, f"{len(problems)} examples read otherwise:\n" + "\n".join(problems[:30])


"""Set: that many random examples (and a random seed), not the same 40."""
FORMATS = re.compile(r"Invalid (RFC3339|ISO8601|UUID|decimal|base64)|Only units|Duration is out")
"""The dataclass variant's messages for a format: the oracle asserts none."""


def _inside(message: str, wire: str) -> bool:
    """Whether a ``DecodeError``'s or msgspec's message is about the value of ``wire`` (or within it)."""
    return re.search(rf" - at `\$\.{re.escape(wire)}([.\[]|`$)", message) is not None


def test_every_union_reads_as_the_schema_says(corpus: Corpus, record_property: RecordProperty) -> None:
    """Random values of every field that holds a union (tests/payload_strategies.py; broken or not), each in a
    random object of its class, read by both variants and judged by jsonschema (tests/schema_oracle.py: limits
    taken as met, formats not asserted). As docs/semantics.md says: ``from_dict`` takes what the schema takes
    (formats aside) and nothing else, and reads a class member only where the schema takes the value as that
    member; the msgspec variant takes what the schema takes (limits aside) and, where it widens no union in
    what the class holds, reads as ``from_dict`` does (tests/test_dataclass_convert.py's ``agree``); where it
    widens one, it may take more. A tagged union refuses a value without its tag, in both variants, also where
    the schema does not require the tag's property (its one value in each member is tag enough)."""
    corpus.require_ir()
    ms, dc = corpus.modules.get("msgspec"), corpus.modules.get("dataclass")
    if ms is None or dc is None or corpus.schemas is None:
        pytest.fail("a module was not generated or did not import", pytrace=False)
    oracle, declarations = Oracle(corpus.schemas), {d.name: d for d in corpus.ir.declarations}
    def declared(m: ir.Model, f: ir.Field) -> bool:  # by its class's schema (not one it was merged with)
        schema = oracle.schema(m.origin)
        return schema is not None and f.wire_name in schema.get("properties", ())

    places = list({u: (m, f, u) for m, f, u in reversed(union_fields(corpus.ir)) if declared(m, f)}.values())[::-1]
    widens: dict[str, bool] = {}
    outcomes: Counter[str] = Counter()
    problems: list[str] = []

    @settings(max_examples=examples(40), deadline=None,
              suppress_health_check=list(HealthCheck), phases=[Phase.explicit, Phase.generate])
    @given(st.data())
    def check(data: st.DataObject) -> None:
        model, f, union = data.draw(st.sampled_from(places), label="field")
        tags = {d.tag.field for m in union.members if isinstance(m, ir.Ref)
                and isinstance(d := declarations.get(m.name), ir.Model) and d.tag is not None}
        untagged = f"Object missing required field `{min(tags)}` - at `$.{f.wire_name}`" if len(tags) == 1 else ""
        value = data.draw(payloads(f.type, declarations), label="value")
        if data.draw(st.booleans(), label="break it"):
            value = data.draw(mutated(value), label="broken")
        elif isinstance(value, dict) and value and data.draw(st.booleans(), label="drop a key"):
            value.pop(data.draw(st.sampled_from(sorted(value)), label="key"))  # a member's tag, say
        payload = {**data.draw(payloads(ir.Ref(model.name), declarations), label="object"), f.wire_name: value}
        schema = oracle.schema(model.origin)
        assert schema is not None
        errors = oracle.errors(payload, schema)
        if any(not e or e[0] != f.wire_name for e in errors):
            outcomes["the schema refuses the rest of the object"] += 1
            return
        where = f"{model.name}.{f.name} {json.dumps(value)[:300]}"
        try:
            read, failed = getattr(dc, model.name).from_dict(json.loads(json.dumps(payload))), None
        except dc.DecodeError as exc:
            read, failed = None, str(exc)
        if failed is not None and not _inside(failed, f.wire_name):
            outcomes["from_dict refuses the rest of the object"] += 1  # (its unions are drawn as fields too)
            return
        outcomes[("schema takes it" if not errors else "schema refuses it")
                 + (", from_dict too" if (failed is None) == (not errors) else ", from_dict not")] += 1
        if failed is not None and not errors and failed != untagged \
                and not _format(dc, f, value, declarations, oracle):
            problems.append(f"{where}: the schema takes it, from_dict: {failed}")
        if failed is None and errors:
            problems.append(f"{where}: the schema refuses it ({errors[:3]}), from_dict reads it")
        member = getattr(read, f.name, None)
        if dataclasses.is_dataclass(member) and isinstance(declared := declarations[type(member).__name__],
                                                           ir.Model):
            chosen = oracle.schema(declared.origin)
            if chosen is not None and oracle.errors(value, chosen):
                problems.append(f"{where}: from_dict reads it as {type(member).__name__}, which the schema "
                                f"refuses: {oracle.errors(value, chosen)[:3]}")
        try:
            msgspec.json.decode(json.dumps(payload), type=getattr(ms, model.name))
        except msgspec.ValidationError as exc:
            if not errors and CHECKED.search(str(exc)) and str(exc) != untagged and _inside(str(exc), f.wire_name):
                problems.append(f"{where}: the schema takes it, msgspec: {exc}")
        if model.name not in widens:
            widens[model.name] = _differs(model, declarations)
        if not widens[model.name] and (problem := agree(getattr(ms, model.name), getattr(dc, model.name), payload)):
            problems.append(f"{where}: msgspec and from_dict differ: {problem}")

    check()
    record_property("union reads", dict(outcomes))
    print(f"\n[openai corpus] {len(places)} unions held by fields; reads: {dict(outcomes)}")
    if problems:
        pytest.fail(f"{len(problems)} union values read otherwise:\n" + "\n".join(dict.fromkeys(problems)), pytrace=False)
    assert sum(n for k, n in outcomes.items() if k.startswith("schema takes it")) >= 5, outcomes
    assert sum(n for k, n in outcomes.items() if k.startswith("schema refuses it")) >= 5, outcomes


def _format(dc: ModuleType, f: ir.Field, value: Any, declarations: dict[str, ir.Declaration], oracle: Oracle) -> bool:
    """Whether a class member the schema takes ``value`` as refuses it for a format (which the oracle does not
    assert), read on its own."""
    names, seen = list(refs(f.type)), set[str]()
    while names and isinstance(value, dict):
        declared, schema = declarations.get(name := names.pop()), None
        if name in seen:
            continue
        seen.add(name)
        if isinstance(declared, ir.Alias):
            names.extend(refs(declared.type))
        elif isinstance(declared, ir.Model) and (schema := oracle.schema(declared.origin)) is not None \
                and not oracle.errors(value, schema):
            try:
                getattr(dc, name).from_dict(value)
            except dc.DecodeError as exc:
                if FORMATS.search(str(exc)):
                    return True
    return False
