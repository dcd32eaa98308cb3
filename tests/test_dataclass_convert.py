"""The dataclass variant's ``from_dict``/``to_dict`` against msgspec reading the msgspec variant.

For a payload both accept, ``to_dict(from_dict(x))`` is ``msgspec.to_builtins`` of msgspec's reading
(types too: ``1`` is not ``1.0``); a payload msgspec refuses for a type, a missing required field,
an enum value, an unknown field, a tag or a format is refused with msgspec's message (so at the same
JSON path). Limits (``minLength``…) are not checked by the dataclass variant: what msgspec refuses
for them is left out. Checked on the payload fixtures, on formatted strings (every format of the
IR), on random payloads (tests/payload_strategies.py) of every golden case's classes and of random
schemas (tests/fuzz_strategies.py), broken or not. Where the msgspec variant widens a union or
drops a key it cannot rename, it reads what the dataclass variant refuses, or reads it otherwise:
there (the classes that hold such a place) only that neither crashes is checked. The converter as
code (black's, standalone, names reserved, threads): tests/test_dataclass_converter.py.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import bench_module, examples
from fuzz_strategies import documents, model_documents
from schemagen import ir, render
from schemagen.diagnostics import Reporter
from schemagen.ir.walk import reachable, top_types
from schemagen.names import portable_wire_name
from schemagen.project.inputs import Input
from schemagen.project.pipeline import Renderer, to_ir
from schemagen.render.msgspec_unions import Widening, legal
from schemagen.render.options import RenderOptions
from golden import ROOT, Case, cases
from payload_strategies import class_payloads, lowered_classes

modules = bench_module("modules")
PAYLOADS = ROOT / "tests" / "fixtures" / "payloads"
CHECKED = re.compile(r"Expected `[^`]*`, got `|Expected `(str|int)`( - at |$)|Expected `array` of length \d+( - at |$)"
                     r"|Object missing required field|Object contains unknown field|Invalid enum value|Invalid value "
                     r"|Invalid (RFC3339|ISO8601|UUID|decimal|base64)|Only units|Duration is out")
"""msgspec's messages for what the dataclass variant checks too (not limits: ``Expected `str` of length >= 1``)."""


def read(msgspec_class: Any, dataclass_class: Any, payload: Any) -> tuple[Any, str | None, Any, str | None]:
    """msgspec's builtins or message, and ``to_dict(from_dict(...))`` or the ``DecodeError``'s message."""
    data = json.dumps(payload)
    try:
        expected, refused = msgspec.to_builtins(msgspec.json.decode(data, type=msgspec_class)), None
    except msgspec.ValidationError as exc:
        expected, refused = None, str(exc)
    error = __import__(dataclass_class.__module__, fromlist=["DecodeError"]).DecodeError
    try:
        got, failed = dataclass_class.from_dict(json.loads(data)).to_dict(), None
    except error as exc:
        got, failed = None, str(exc)
    return expected, refused, got, failed


def same(a: Any, b: Any) -> bool:
    """Equal, and of the same types all the way down (``1`` is not ``1.0``; key order aside)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(v, b[k]) for k, v in a.items())
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(map(same, a, b))
    return bool(a == b)


def agree(msgspec_class: Any, dataclass_class: Any, payload: Any) -> str | None:
    """``None`` when both variants read ``payload`` alike (as the module docstring says), else why not."""
    expected, refused, got, failed = read(msgspec_class, dataclass_class, payload)
    if refused is not None and not CHECKED.search(refused):
        return None  # a limit: not the dataclass variant's to check
    if refused is None and failed is None:
        return None if same(got, expected) else f"to_dict gives {got!r}, msgspec {expected!r}"
    if refused != failed:
        return f"msgspec: {refused}; from_dict: {failed}"
    return None


# --- fixtures and formats -----------------------------------------------------------------------------

def _fixtures() -> list[Path]:
    found = sorted(PAYLOADS.glob("*/*/*/*.json"))
    assert found
    return found


@pytest.mark.parametrize("fixture", _fixtures(), ids=lambda p: p.relative_to(PAYLOADS).as_posix())
def test_every_payload_fixture_reads_as_msgspec_reads_it(fixture: Path) -> None:
    package, root = fixture.parent.parent.parent.name, fixture.parent.parent.name
    ms = getattr(__import__(f"generated.{package}.msgspec_models", fromlist=[root]), root)
    dc = getattr(__import__(f"generated.{package}.dataclass_models", fromlist=[root]), root)
    expected, refused, got, failed = read(ms, dc, json.loads(fixture.read_bytes()))
    assert (refused is None) == (fixture.parent.name == "valid"), refused
    assert failed == refused and same(got, expected)


FORMAT_FIELDS = {"created": "date-time", "day": "date", "at": "time", "id": "uuid", "amount": "decimal",
                 "timeout": "duration", "blob": "base64"}
"""Every format the IR has (the front end makes no ``duration``, nor a ``decimal`` number: built here)."""


@pytest.fixture(scope="module")
def formats() -> Iterator[tuple[ModuleType, ModuleType]]:
    fields = [ir.Field(name, name, ir.Scalar("str", fmt), False) for name, fmt in FORMAT_FIELDS.items()]  # type: ignore[arg-type]
    fields.append(ir.Field("rate", "rate", ir.Scalar("float", "decimal"), False))
    module = ir.Module((ir.Model("Formats", tuple(fields)),))
    pair = [modules.exec_module(render.render(module, v, "formats", render.environment())) for v in ("msgspec", "dataclass")]
    yield pair[0], pair[1]
    for module_ in pair:
        modules.forget_module(module_)


FORMATTED = {
    "created": ["2020-01-02T03:04:05Z", "2020-01-02T03:04:05", "2020-01-02t03:04:05z", "2020-01-02 03:04:05Z",
                "2020-01-02T03:04:05.123Z", "2020-01-02T03:04:05.1234567891Z", "2020-01-02T03:04:05+01:00",
                "2020-01-02T03:04:05-00:00", "2020-01-02T03:04:05+0100", "2020-01-02T03:04:05-01:30",
                "2020-01-02T03:04:05.9999995Z", "2020-12-31T23:59:59.9999999Z", "9999-12-31T23:59:59.9999999Z",
                "2020-01-02T03:04Z", "2020-01-02", "2020-01-02T24:00:00Z", "2020-01-02T23:59:60Z",
                "2020-02-30T00:00:00Z", "20200102T030405Z", "2020-01-02T03:04:05.Z", "2020-01-02T03:04:05,5Z",
                "2020-01-02T03:04:05+01", "2020-01-02T03:04:05+24:00", "2020-01-02T03:04:05+00:60",
                "0000-01-01T00:00:00Z", "٢٠٢٠-01-02T03:04:05Z", 1577934245],
    "day": ["2020-01-02", "2020-1-02", "20200102", "2020-01-02T00:00:00", "2020-02-30", "0000-01-01", "2020-W01-1", 5],
    "at": ["03:04:05", "03:04:05Z", "03:04:05z", "03:04:05+01:00", "03:04:05-00:00", "03:04:05+0130", "03:04:05.5",
           "03:04:05.1234567", "23:59:59.9999999", "03:04", "24:00:00", "030405"],
    "timeout": ["P1D", "PT1H", "P1DT2H3M4.5S", "-P1D", "+P1D", "pt1h", "PT36H", "P1.5D", "PT0.5M", "P1DT1.5H",
                "PT1.1234567S", "PT0S", "-PT0S", "P01D", "P999999999D", "P1000000000D", "P1W", "P1Y", "P1M", "P",
                "PT", "P1DT", "P1D1H", "PT1S1M", "P-1D", "P1,5D", "PT.5S", "PT5.S", 1.5, 3],
    "id": ["c9bf9e57-1685-4c89-bafb-ff5af830be8a", "C9BF9E57-1685-4C89-BAFB-FF5AF830BE8A",
           "c9bf9e5716854c89bafbff5af830be8a", "{c9bf9e57-1685-4c89-bafb-ff5af830be8a}",
           "urn:uuid:c9bf9e57-1685-4c89-bafb-ff5af830be8a", "c9bf9e57-16854c89-bafb-ff5af830be8a", 7],
    "amount": ["1.5", 1.5, 3, 10**22, "NaN", "inf", "1e5", " 1.5", "1_000", "0.10", "-0", "abc", True, None],
    "rate": ["1.5", 1.5, 3],
    "blob": ["aGVsbG8=", "YQ==", "YW==", "", "aGVsbG8", "aGVs bG8=", "aGVsbG8==", "a-_b", "a", "====", 3],
}


@pytest.mark.parametrize(("key", "value"), [(k, v) for k, values in FORMATTED.items() for v in values],
                         ids=lambda v: repr(v)[:40])
def test_a_formatted_string_reads_and_writes_as_msgspec_does(formats: tuple[ModuleType, ModuleType], key: str,
                                                               value: Any) -> None:
    expected, refused, got, failed = read(formats[0].Formats, formats[1].Formats, {key: value})
    assert failed == refused and same(got, expected)


@pytest.mark.parametrize("payload", [{"type": "a", "x": 1}, {"x": 1}, {"type": "b"}, {"type": 3}, {"type": None},
                                     {"type": "a", "x": "1"}, [], {"type": "a", "y": 2},
                                     {"type": "it's"}, {"type": 'say "b"'}, {"type": "back\\slash"}])
@pytest.mark.parametrize("closed", [False, True])
def test_a_tag_that_no_field_holds_is_checked_as_msgspec_checks_it(payload: Any, closed: bool) -> None:
    """A discriminator mapping can tag a member that has no such property: its class has no field for
    the tag, but the tag is its own all the same (a random schema found ``{"type": "\\x90"}`` read).
    msgspec quotes a string it does not know as a tag as it is (``Invalid value 'it's'``), not as its repr."""
    tagged = [ir.Model(n, (ir.Field("x", "x", ir.Scalar("int"), False),), closed=closed, tag=ir.Tag("type", n.lower()))
              for n in ("A", "B")]
    shape = ir.Field("shape", "shape", ir.Union((ir.Ref("A"), ir.Ref("B")), "type"), True)
    module = ir.Module((*tagged, ir.Model("Holder", (shape,))))
    ms, dc = (modules.exec_module(render.render(module, v, "tag", render.environment())) for v in ("msgspec", "dataclass"))
    try:
        for name, data in (("A", payload), ("Holder", {"shape": payload})):
            expected, refused, got, failed = read(getattr(ms, name), getattr(dc, name), data)
            assert failed == refused and same(got, expected), (name, refused, failed)
    finally:
        modules.forget_module(ms)
        modules.forget_module(dc)


@pytest.mark.parametrize("payload", [{"a": [None], "m": {"k": None}, "t": [1, None]}, {"a": [1]}, {"m": {"k": 0}},
                                     {"t": [1, 2]}, {"t": [1]}, {"a": None}])
def test_null_inside_a_container_reads_as_msgspec_reads_it(payload: Any) -> None:
    """``list[None]`` holds ``None`` itself, not ``NoneType`` (a random schema found the crash)."""
    fields = (ir.Field("a", "a", ir.Array(ir.Null()), False), ir.Field("m", "m", ir.Map(ir.Null()), False),
              ir.Field("t", "t", ir.Tuple((ir.Scalar("int"), ir.Null())), False))
    module = ir.Module((ir.Model("Nulls", fields),))
    ms, dc = (modules.exec_module(render.render(module, v, "nulls", render.environment())) for v in ("msgspec", "dataclass"))
    try:
        expected, refused, got, failed = read(ms.Nulls, dc.Nulls, payload)
        assert failed == refused and same(got, expected), (refused, failed, expected, got)
    finally:
        modules.forget_module(ms)
        modules.forget_module(dc)


UNTAGGED_BESIDE_TAGGED = {
    "$defs": {
        "A": {"type": "object", "properties": {"t": {"const": "a"}, "x": {"type": "string"}}, "required": ["t", "x"]},
        "C": {"type": "object", "properties": {"t": {"const": "c"}}, "required": ["t"]},
        "B": {"type": "object", "properties": {"x": {"type": "string"}, "y": {"type": "integer"}},
              "required": ["x", "y"]},
        "Holder": {"type": "object", "properties": {"u": {"anyOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}]},
                                                    "v": {"oneOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/C"}]}}},
    },
}
"""``A`` has its tag from ``v``'s union (``tag_field="t", tag="a"``) and is a member of ``u``'s, which
has none (the msgspec variant widens it to ``dict[str, Any]``)."""


@pytest.mark.parametrize(("payload", "member", "written"), [
    ({"x": "1", "y": 2}, "B", {"x": "1", "y": 2}),
    ({"x": "1"}, None, None),
    ({"t": "a", "x": "1", "y": 2}, "A", {"t": "a", "x": "1"}),
    ({"t": "c", "x": "1", "y": 2}, "B", {"x": "1", "y": 2}),
    ({"t": "c", "x": "1"}, None, None),
])
def test_in_an_untagged_union_a_tag_is_a_required_key(tmp_path: Path, payload: Any, member: str | None,
                                                      written: Any) -> None:
    """A member of an untagged union is chosen only when its required keys are there, its tag among
    them: ``{"x": "1", "y": 2}`` is a ``B`` (it was read as ``A`` and written ``{"t": "a", "x": "1"}``),
    ``{"x": "1"}`` neither. ``A`` read on its own still takes an absent tag as its own, as msgspec does."""
    source = tmp_path / "input" / "tags.json"
    source.parent.mkdir()
    source.write_text(json.dumps(UNTAGGED_BESIDE_TAGGED))
    ms, dc = _generated(to_ir(Input("tags", source, "tags.json"), tmp_path, Reporter()), "tags")
    try:
        assert dc.A.__schemagen__[:2] == ("t", "a")
        if member is None:
            with pytest.raises(dc.DecodeError, match=r"^`object` fits no member of `A \| B` - at `\$\.u`$"):
                dc.Holder.from_dict({"u": payload})
        else:
            read = dc.Holder.from_dict({"u": payload})
            assert type(read.u).__name__ == member and read.to_dict() == {"u": written}
        alone = msgspec.to_builtins(msgspec.json.decode(b'{"x": "1"}', type=ms.A))
        assert dc.A.from_dict({"x": "1"}).to_dict() == alone == {"t": "a", "x": "1"}
    finally:
        modules.forget_module(ms)
        modules.forget_module(dc)


# --- random payloads: of the golden cases' classes, of random schemas -----------------------------------

GOLDEN_CASES = [c for c in cases() if (c.folder / "expected" / "dataclass_models.py").exists()]


@pytest.mark.parametrize("case", GOLDEN_CASES, ids=lambda c: c.name)
def test_the_golden_cases_classes_read_random_payloads_alike(case: Case) -> None:
    """Every class of every golden case (its expected modules), with payloads of its IR, broken or not."""
    source = case.inputs[0]
    module = to_ir(Input("case", source, source.relative_to(ROOT).as_posix(), case.dialect), ROOT,  # type: ignore[arg-type]
                   Reporter())
    declarations = {d.name: d for d in module.declarations}
    models = [d for d in module.declarations if isinstance(d, ir.Model)]
    ms, dc = (modules.exec_module((case.folder / "expected" / f"{v}_models.py").read_text(), case.name)
              for v in ("msgspec", "dataclass"))

    differs = {m.name: _differs(m, declarations) for m in models}
    strictly = Counter[str]()

    @settings(max_examples=40, suppress_health_check=list(HealthCheck))
    @given(st.data())
    def check(data: st.DataObject) -> None:
        [(model, payload)] = class_payloads(data, module, rounds=1)
        problem = agree(getattr(ms, model.name), getattr(dc, model.name), payload)
        assert problem is None or differs[model.name], f"{model.name} {json.dumps(payload)}: {problem}"
        strictly[model.name] += not differs[model.name]

    try:
        check()
        assert strictly or all(differs.values()), "no payload was held to agree"
    finally:
        modules.forget_module(ms)
        modules.forget_module(dc)



RENDERER = Renderer(None, RenderOptions())


def _generated(module: ir.Module, label: str) -> tuple[ModuleType, ModuleType]:
    """The msgspec and dataclass modules of ``module``."""
    ms, dc = (modules.exec_module(RENDERER.render(module, v, label), label) for v in ("msgspec", "dataclass"))
    return ms, dc


def _differs(model: ir.Model, declarations: dict[str, ir.Declaration]) -> bool:
    """Whether the msgspec variant widens a union, or drops a key it cannot rename, somewhere in what
    ``model`` holds (there it reads what the dataclass variant refuses, or reads it otherwise); or
    holds a class whose tag field or value is not ASCII: msgspec's JSON decoder refuses a Struct its own
    non-ASCII tag when read alone, and misses a non-ASCII tag field in a union."""
    held = reachable(ir.Module(tuple(declarations.values())), [model.name]).declarations
    for d in held:
        if isinstance(d, ir.Model) and not all(portable_wire_name(f.wire_name) for f in d.fields):
            return True
        if isinstance(d, ir.Model) and d.tag and not all(str(t).isascii() for t in (d.tag.field, d.tag.value)):
            return True  # msgspec 0.23's JSON decoder misreads such a tag: alone (value) or in a union (field)
        for t in top_types(d):
            widening = Widening()
            legal(t, declarations, widening)
            if widening.widened:
                return True
    return False


"""Set (as ``make fuzz`` sets it for tests/test_fuzz.py): that many random examples, not the same 150."""


def test_random_schemas_and_payloads_read_alike() -> None:
    """Random documents, mostly of objects; payloads of their classes' IR, broken or not."""
    strict: Counter[str] = Counter()

    @settings(max_examples=examples(150), suppress_health_check=list(HealthCheck))
    @given(st.data())
    def check(data: st.DataObject) -> None:
        drawn = lowered_classes(data, st.one_of(model_documents(), model_documents(), model_documents(), documents()))
        if drawn is None:
            return
        case, module = drawn
        ms, dc = _generated(module, case.input_name)
        try:
            declarations = {d.name: d for d in module.declarations}
            for model, payload in class_payloads(data, module):
                problem = agree(getattr(ms, model.name), getattr(dc, model.name), payload)  # always: no crash
                if not _differs(model, declarations):
                    assert problem is None, f"{model.name} {json.dumps(payload)}: {problem}"
                    _, refused, _, _ = read(getattr(ms, model.name), getattr(dc, model.name), payload)
                    strict["accepted" if refused is None else "refused" if CHECKED.search(refused) else "limit"] += 1
        finally:
            modules.forget_module(ms)
            modules.forget_module(dc)

    check()
    assert strict["accepted"] >= 40 and strict["refused"] >= 10, f"too few payloads checked strictly: {strict}"


def test_a_member_reached_through_two_aliases_is_kept_once_not_dropped() -> None:
    """``Id | MaybeId`` with ``MaybeId = Id | None`` meets ``Id``'s very members twice; widening
    the strings must keep the ``int`` (a review found it dropped, with no warning)."""
    pattern = ir.Constrained(ir.Scalar("str"), ir.Constraints(pattern="^a"))
    declarations: dict[str, ir.Declaration] = {
        "Id": ir.Alias("Id", ir.union(pattern, ir.Scalar("int")), None, False, None),
        "MaybeId": ir.Alias("MaybeId", ir.union(ir.Ref("Id"), ir.Null()), None, False, None)}
    widened = legal(ir.union(ir.Ref("Id"), ir.Ref("MaybeId")), declarations)
    assert widened == ir.Union((ir.Scalar("str"), ir.Scalar("int"), ir.Null()))
