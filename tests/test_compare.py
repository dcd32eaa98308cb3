"""``compare``: each rule in both directions, through lists, maps, unions and ``$ref`` chains; the
pairing of declarations named differently; a schema compared with itself; and every witness decoded
by both sides' real msgspec models (the accepting side decodes it, the other refuses it where the
difference is).
"""

from __future__ import annotations

import datetime
import decimal
import re
import uuid
from pathlib import Path
from typing import Any

import msgspec
import pytest

from compare_tools import compared, lines, models, run, shows, side_of
from schemagen.compare import Comparison, where
from schemagen import ir
from schemagen.compare.shapes import scalar_fits
from schemagen.compare.sides import load

from golden import ROOT

OPENAI_API = ROOT / "examples" / "openai" / "schemas" / "openai_api.yaml"


def _object(properties: dict[str, Any], required: tuple[str, ...] = (), title: str = "Root", **more: Any) -> dict[str, Any]:
    return {"title": title, "type": "object", "properties": properties, "required": list(required), **more}


def payload_lines(found: Comparison) -> list[str]:
    return lines(found, "a->b", "b->a")


# The rules, each one way and its mirror ------------------------------------------------------


VALUES = [
    ({"x": {"type": "string"}}, {"x": {"type": "string"}},
     []),
    ({"x": {"type": "string"}, "r": {"type": "string"}}, {"x": {"type": "string"}},
     ["b->a r: required in A, absent in B"]),
    ({"x": {"type": "string", "enum": ["stop", "length", "malformed_function_call"]}},
     {"x": {"type": "string", "enum": ["stop", "length", "function_call"]}},
     ["a->b x: value 'malformed_function_call' only in A", "b->a x: value 'function_call' only in B"]),
    ({"x": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}, {"x": {"type": "string"}},
     ["a->b x: member int only in A"]),
    ({"x": {"type": "string"}}, {"x": {"type": "integer"}},
     ["a->b x: str in A, int in B", "b->a x: int in B, str in A"]),
    ({"x": {"type": "number"}}, {"x": {"type": "integer"}},
     ["a->b x: float in A, int in B"]),
    ({"x": {"type": ["string", "null"]}}, {"x": {"type": "string"}},
     ["a->b x: null only in A"]),
    ({"x": {"type": "string"}}, {"x": {"type": "string", "enum": ["a", "b"]}},
     ["a->b x: any string in A, only 'a', 'b' in B"]),
    ({"x": {"type": "string"}}, {"x": {"type": "string", "format": "date-time"}},
     ["a->b x: str in A, str (date-time) in B"]),
    ({"x": {}}, {"x": {"type": "boolean"}},
     ["a->b x: any value in A, bool in B"]),
]
VALUE_IDS = ["same", "required", "enum", "member", "type", "number", "nullable", "literal", "format", "any"]


@pytest.mark.parametrize(("a", "b", "expected"), VALUES, ids=VALUE_IDS)
def test_values_types_and_members(tmp_path: Path, a: dict[str, Any], b: dict[str, Any], expected: list[str]) -> None:
    assert payload_lines(compared(tmp_path, _with_r(a), _with_r(b))) == expected


def _with_r(properties: dict[str, Any]) -> dict[str, Any]:
    """The object of ``properties``, requiring ``r`` where it is one of them."""
    return _object(properties, tuple(k for k in ("r",) if k in properties))


def test_required_optional_and_absent_both_ways(tmp_path: Path) -> None:
    a = _object({"id": {"type": "string"}, "usage": {"type": "integer"}}, ("usage",))
    b = _object({"id": {"type": "string"}, "created": {"type": "integer"}, "usage": {"type": "integer"}},
                ("id", "created"))
    assert payload_lines(compared(tmp_path, a, b)) == [
        "a->b created: required in B, absent in A",
        "a->b id: required in B, optional in A",
        "b->a usage: required in A, optional in B",
    ]


LIMITS = [
    ({"type": "string", "maxLength": 5}, {"type": "string", "maxLength": 3, "minLength": 1},
     ["a->b x: min_length 1 in B, none in A", "a->b x: max_length 3 in B, 5 in A"]),
    ({"type": "integer", "minimum": 0}, {"type": "integer", "exclusiveMinimum": 0, "maximum": 10},
     ["a->b x: gt 0 in B, ge 0 in A", "a->b x: le 10 in B, none in A"]),
    ({"type": "integer", "exclusiveMinimum": 0}, {"type": "integer", "minimum": 1},
     []),
    ({"type": "integer", "multipleOf": 4}, {"type": "integer", "multipleOf": 2},
     ["b->a x: multiple_of 4 in A, 2 in B"]),
    ({"type": "string", "pattern": "^[a-z]+$"}, {"type": "string"},
     ["b->a x: pattern '^[a-z]+$' in A, none in B"]),
    ({"type": "array", "items": {"type": "string"}}, {"type": "array", "items": {"type": "string"}, "minItems": 1},
     ["a->b x: min_length 1 in B, none in A"]),
]
LIMIT_IDS = ["lengths", "bounds", "same-integer-bound", "multiple", "pattern", "items"]


@pytest.mark.parametrize(("a", "b", "expected"), LIMITS, ids=LIMIT_IDS)
def test_limits(tmp_path: Path, a: dict[str, Any], b: dict[str, Any], expected: list[str]) -> None:
    found = compared(tmp_path, _object({"x": a}), _object({"x": b}))
    assert payload_lines(found) == expected
    assert all(d.witness is not None for d in found.differences if d.direction != "docs")


def mirrored(line: str) -> str:
    """The line A against B gives, as B against A says it: the directions and the letters swapped."""
    swap = {"A": "B", "B": "A", "a->b": "b->a", "b->a": "a->b"}
    return re.sub(r"\b[AB]\b|a->b|b->a", lambda m: swap[m.group(0)], line)


STRING = {"type": "string"}
MIRRORED = [
    *((_with_r(a), _with_r(b)) for a, b, _ in VALUES),
    *((_object({"x": a}), _object({"x": b})) for a, b, _ in LIMITS),
    (_object({"x": STRING, "extra": {"type": "integer"}}), _object({"x": STRING}, additionalProperties=False)),
    (_object({"x": STRING}), _object({"x": STRING, "fingerprint": STRING})),
]


@pytest.mark.parametrize(("a", "b"), MIRRORED, ids=[*VALUE_IDS, *LIMIT_IDS, "unknown-keys", "untyped-key"])
def test_each_rule_the_other_way_round_is_its_mirror(tmp_path: Path, a: dict[str, Any], b: dict[str, Any]) -> None:
    """B against A reports each line of A against B, the other way round, and no other. (``compare`` runs
    one checker each way, so this holds the rest to that symmetry: which pair is met first, the docs
    pass only A against B runs, and whether a witness is found, which each line says.)"""
    forward = payload_lines(compared(tmp_path / "ab", a, b))
    backward = payload_lines(compared(tmp_path / "ba", b, a))
    assert sorted(map(mirrored, forward)) == sorted(backward)


def test_a_limit_msgspec_does_not_check_or_a_pattern_no_string_is_found_for_has_no_witness(tmp_path: Path) -> None:
    a = _object({"tags": {"type": "array", "items": {"type": "string"}},
                 "code": {"type": "string", "pattern": "^(?=.*#)[a-z#]{2}$"}})
    b = _object({"tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
                 "code": {"type": "string", "pattern": "^[a-z]+$"}})
    found = compared(tmp_path, a, b)
    assert payload_lines(found) == [
        "a->b code: pattern '^[a-z]+$' in B, '^(?=.*#)[a-z#]{2}$' in A (no witness: no string was found that A's "
        "model takes and B's pattern refuses)",
        "a->b tags: unique items in B, not in A (no witness: B's msgspec model does not check unique items)",
        "b->a code: pattern '^(?=.*#)[a-z#]{2}$' in A, '^[a-z]+$' in B",
    ]
    assert [d.witness is None for d in found.differences] == [True, True, False]


def test_an_object_or_a_list_too_big_to_build_has_no_witness(tmp_path: Path) -> None:
    """Found by the random pairs: a large minProperties or minItems made compare add keys or items one
    by one, for ever."""
    many = {"type": "object", "additionalProperties": {"type": "string"}, "minProperties": 10**12}
    short = {**many, "additionalProperties": {"type": "string", "maxLength": 1}}
    long = {"type": "array", "minItems": 10**12, "items": _object({"s": {"type": "string"}})}
    found = compared(tmp_path, _object({"m": many, "l": long}),
                     _object({"m": short, "l": {**long, "items": _object({"s": {"type": "string", "maxLength": 1}})}}))
    assert payload_lines(found) == [
        "a->b l[].s: max_length 1 in B, none in A (no witness: no payload could be built: a list of at least "
        "1000000000000 items is more than a witness holds (1000))",
        "a->b m{}: max_length 1 in B, none in A (no witness: no payload could be built: an object of at least "
        "1000000000000 keys is more than a witness holds (1000))"]


def test_unknown_keys_where_one_side_forbids_them(tmp_path: Path) -> None:
    a = _object({"x": {"type": "string"}, "extra": {"type": "integer"}})
    b = _object({"x": {"type": "string"}}, additionalProperties=False)
    found = compared(tmp_path, a, b)
    assert payload_lines(found) == [
        "a->b (root): unknown fields pass in A, B forbids them",
        "a->b extra: field only in A; B forbids unknown fields",
    ]
    assert found.differences[0].witness == {"unknown": None}
    assert found.differences[1].witness == {"extra": 0}


@pytest.mark.parametrize(("extra", "witness"), [
    ({"$ref": "#/$defs/Id"}, "00000000-0000-0000-0000-000000000000"),
    ({"type": ["string", "null"]}, None),
    ({"$ref": "#/$defs/Either"}, 0),
    ({"minimum": 1, "maxProperties": 0}, None),  # null first, as everywhere
], ids=["alias", "nullable", "alias-of-a-union", "kinds-without-a-type"])
def test_a_key_only_one_side_has_holds_a_value_of_any_member(tmp_path: Path, extra: dict[str, Any], witness: Any) -> None:
    """The value of a key only in A may be an alias or a union: its members give the witness (before,
    building it assumed a model and failed an assertion: the long compare fuzz run found it)."""
    defs = {"Id": {"type": "string", "format": "uuid"}, "Either": {"type": ["integer", "string"]}}
    a = _object({"x": {"type": "string"}, "extra": extra}, **{"$defs": defs})
    b = _object({"x": {"type": "string"}}, additionalProperties=False)
    found = compared(tmp_path, a, b)
    assert payload_lines(found)[-1] == "a->b extra: field only in A; B forbids unknown fields"
    assert found.differences[-1].witness == {"extra": witness}


def test_a_key_one_side_types_and_the_other_lets_through(tmp_path: Path) -> None:
    a = _object({"x": {"type": "string"}})
    b = _object({"x": {"type": "string"}, "fingerprint": {"type": "string"}})
    found = compared(tmp_path, a, b)
    assert payload_lines(found) == ["a->b fingerprint: not a field of A (any value passes), str in B"]
    assert found.differences[0].witness == {"fingerprint": None}


# Through lists, maps, unions and references ------------------------------------------------


def test_through_lists_maps_and_ref_chains(tmp_path: Path) -> None:
    a = _object({"m": {"type": "object", "additionalProperties": {"$ref": "#/definitions/V"}},
                 "l": {"type": "array", "items": {"$ref": "#/definitions/Chain"}}},
                definitions={"Chain": {"$ref": "#/definitions/ChainEnd"},
                             "ChainEnd": {"type": "array", "items": {"type": "integer", "maximum": 9}},
                             "V": {"type": "object", "properties": {"s": {"enum": ["a", "b"]},
                                                                    "n": {"type": ["integer", "null"]}}}})
    b = _object({"m": {"type": "object", "additionalProperties": {"$ref": "#/definitions/W"}},
                 "l": {"type": "array", "items": {"type": "array", "items": {"type": "integer", "maximum": 5}}}},
                definitions={"W": {"type": "object", "required": ["s"],
                                   "properties": {"s": {"enum": ["a"]}, "n": {"type": "integer"}}}})
    found = compared(tmp_path, a, b)
    assert payload_lines(found) == [
        "a->b l[][]: le 5 in B, le 9 in A",
        "a->b m{}.n: null only in A",
        "a->b m{}.s: required in B, optional in A",
        "a->b m{}.s: value 'b' only in A",
    ]
    assert found.differences[0].witness == {"l": [[6]]}
    assert found.differences[3].witness == {"m": {"unknown": {"s": "b"}}}
    assert ("V", "W") in found.pairs


SHAPES = {
    "Circle": {"type": "object", "required": ["kind", "r"], "properties": {"kind": {"const": "circle"},
                                                                          "r": {"type": "number"}}},
    "Square": {"type": "object", "required": ["kind", "side"], "properties": {"kind": {"const": "square"},
                                                                             "side": {"type": "integer"}}},
}


def test_tagged_union_members_pair_by_tag_whatever_their_names(tmp_path: Path) -> None:
    a = _object({"items": {"type": "array", "items": {"$ref": "#/definitions/Shape"}}}, ("items",),
                definitions={"Shape": {"$ref": "#/definitions/AnyShape"},
                             "AnyShape": {"oneOf": [{"$ref": "#/definitions/Circle"}, {"$ref": "#/definitions/Square"}]},
                             **SHAPES})
    b = _object({"items": {"type": "array", "items": {"oneOf": [
        {"$ref": "#/definitions/Round"}, {"$ref": "#/definitions/Box"}, {"$ref": "#/definitions/Tri"}]}}}, ("items",),
        title="Top", definitions={
            "Round": {**SHAPES["Circle"], "properties": {"kind": {"const": "circle"}, "r": {"type": "integer"}}},
            "Box": {**SHAPES["Square"], "properties": {"kind": {"const": "square"},
                                                       "side": {"type": "integer", "minimum": 1}}},
            "Tri": {"type": "object", "required": ["kind"], "properties": {"kind": {"const": "tri"}}}})
    found = compared(tmp_path, a, b)
    assert payload_lines(found) == [
        "a->b items[]<kind='circle'>.r: float in A, int in B",
        "a->b items[]<kind='square'>.side: ge 1 in B, none in A",
        "b->a items[]: member Tri (kind='tri') only in B",
    ]
    assert found.pairs == [("Root", "Top"), ("Circle", "Round"), ("Square", "Box")]
    assert found.differences[0].witness == {"items": [{"kind": "circle", "r": 0.5}]}


def test_the_tag_a_tagged_union_needs_is_required_by_msgspec(tmp_path: Path) -> None:
    loose = {**SHAPES, "Circle": {**SHAPES["Circle"], "required": ["r"]}, "Square": {**SHAPES["Square"], "required": ["side"]}}
    a = _object({"s": {"$ref": "#/definitions/Circle"}}, definitions=loose)
    b = _object({"s": {"oneOf": [{"$ref": "#/definitions/Circle"}, {"$ref": "#/definitions/Square"}]}},
                definitions=loose)
    found = compared(tmp_path, a, b)
    assert payload_lines(found) == [
        "a->b s<kind='circle'>.kind: required in B (its union's tag), optional in A",
        "b->a s<kind='square'>.kind: value 'square' only in B",
        "b->a s<kind='square'>.r: required in A, absent in B (no witness: hidden by s<kind='square'>.kind)",
    ]
    assert found.differences[0].witness == {"s": {"r": 0}}


def test_untagged_union_members_pair_by_shape(tmp_path: Path) -> None:
    a = _object({"x": {"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "array", "items": {"type": "string"}}]}})
    b = _object({"x": {"anyOf": [{"type": "string", "pattern": "^[a-z]+$"}, {"type": "number", "maximum": 5}]}})
    assert payload_lines(compared(tmp_path, a, b)) == [
        "a->b x: pattern '^[a-z]+$' in B, none in A",
        "a->b x: le 5 in B, none in A",
        "a->b x: member list[str] only in A",
        "b->a x: member float only in B",
    ]


def test_recursive_models_end(tmp_path: Path) -> None:
    a = {"title": "Node", "type": "object", "properties": {"children": {"type": "array", "items": {"$ref": "#"}},
                                                           "name": {"type": "string"}}}
    b = {"title": "Tree", "type": "object", "required": ["name"],
         "properties": {"children": {"type": "array", "items": {"$ref": "#"}}, "name": {"type": "string"}}}
    found = compared(tmp_path, a, b)
    assert payload_lines(found) == ["a->b name: required in B, optional in A"]
    assert found.pairs == [("Node", "Tree")]


def test_descriptions_are_docs(tmp_path: Path) -> None:
    a = _object({"x": {"type": "string", "description": "The X."}, "y": {"type": "string", "description": "Why"}},
                description="A root.")
    b = _object({"x": {"type": "string", "description": "the x"}, "y": {"type": "string", "description": "Why not"}})
    assert lines(compared(tmp_path, a, b)) == ["docs (root): description only in A", "docs y: description differs"]


# Themselves -------------------------------------------------------------------------------


def test_a_limited_member_beside_the_same_type_unlimited_is_no_difference(tmp_path: Path) -> None:
    """``float | float in [0, 0]`` is ``float`` (``ir.union``): compared with itself, the limited member
    of one side was paired with the other side's plain one and reported as a looser limit. (The
    compare fuzz test found it.)"""
    either = _object({"x": {"type": "number", "anyOf": [{"minimum": 0, "maximum": 0}, {}]}})
    assert lines(compared(tmp_path, either, either)) == []
    assert payload_lines(compared(tmp_path / "plain", either, _object({"x": {"type": "number"}}))) == []


@pytest.mark.parametrize("name", ["chat_completion_out.json", "openai"])
def test_a_seed_compared_with_itself_reports_nothing(name: str) -> None:
    if name == "openai":
        module = load(str(ROOT / "schemas" / "openai") + "#ChatCompletionChoice", ROOT).modules["openai"]
        roots = [d.name for d in module.declarations]
    else:
        module = load(str(ROOT / "schemas" / name), ROOT).modules["chat_completion_out"]
        roots = [d.name for d in module.declarations]
    package = "openai" if name == "openai" else "chat_completion_out"
    for root in roots:
        s = side_of(module, package, root)
        assert run(s, s).differences == [], root


def test_where_quotes_keys_that_are_no_plain_word() -> None:
    assert where((("field", "choices"), ("item", None), ("field", "finish_reason"))) == "choices[].finish_reason"
    assert where((("field", "a.b"), ("value", None), ("index", 0), ("member", "type='x'"))) == '["a.b"]{}[0]<type=\'x\'>'


def test_every_witness_of_the_provider_against_openai_is_shown_by_the_real_models() -> None:
    """The example of docs/compare.md: each witness decoded by both sides' msgspec models (OpenAI's whole
    description, vendored in examples/openai)."""
    provider = load(str(ROOT / "schemas" / "chat_completion_out.json"), None)
    openai = load(str(OPENAI_API) + "#CreateChatCompletionResponse", None)
    found = run(provider, openai)
    a, b = models(provider), models(openai)
    shown = [d for d in found.differences if d.witness is not None]
    assert len(shown) == found.count("a->b") + found.count("b->a")
    for d in shown:
        problem = shows(d, a, b) if d.direction == "a->b" else shows(d, b, a)
        assert problem is None, f"{d.direction} {d.where}: {d.what}: {problem}; witness {d.witness}"



TRICKY: dict[str, tuple[type, list[str]]] = {  # strings near the edge of what msgspec reads as each format
    "date-time": (datetime.datetime, [
        "2024-01-02T03:04:05Z", "2024-01-02T03:04:05", "2024-01-02 03:04:05+01:00", "2024-01-02t03:04:05z",
        "2024-01-02T03:04:05.123456789Z", "2024-01-02T03:04", "2024-1-02T03:04:05Z", "20240102T030405Z"]),
    "date": (datetime.date, ["2024-01-02", "2024-1-2", "20240102", "2024-02-30"]),
    "time": (datetime.time, ["03:04:05", "03:04", "03:04:05.5+01:00", "3:04:05", "03:04:05Z", "030405"]),
    "uuid": (uuid.UUID, ["12345678-1234-5678-1234-567812345678", "12345678123456781234567812345678",
                         "{12345678-1234-5678-1234-567812345678}", "urn:uuid:12345678-1234-5678-1234-567812345678"]),
    "decimal": (decimal.Decimal, ["1.50", " 1.5", "NaN", "Infinity", "1e3", "1_000", "abc"]),
    "base64": (bytes, ["aGVsbG8=", "aGVsbG8", "aGVs bG8=", "aGVsbG8=\n", "!!!!"]),
}


@pytest.mark.parametrize("fmt", sorted(TRICKY))
def test_a_formatted_string_fits_in_compare_exactly_where_msgspec_reads_it(fmt: ir.Format) -> None:
    """``compare`` decides from the IR which side refuses a witness; for a formatted string it asks the
    dataclass converter, which tests/test_dataclass_convert.py holds to msgspec. (Before, ``compare``
    parsed with the standard library, and ``uuid.UUID`` takes braces and a ``urn:`` prefix.)"""
    target, values = TRICKY[fmt]
    for value in values:
        try:
            msgspec.json.decode(msgspec.json.encode(value), type=target)
            reads = True
        except msgspec.ValidationError:
            reads = False
        assert scalar_fits(value, ir.Scalar("str", fmt)) is reads, (value, reads)
