"""The table of docs/semantics.md, "pydantic's lax mode", row by row against the models generated for it
(tests/lax_table.py), with the row's property required and not: so that the table cannot go stale."""

from __future__ import annotations

import json

import pytest

from lax_table import PLACE, Outcome, Row, converted, disagreement, excuses, generate, read, rows
from pydantic_reading import Reading, msgspec_reads, pydantic_reads

TABLE = rows()


def _msgspec(reading: Reading) -> Outcome:
    if reading.refusal is None:
        return Outcome(reads=reading.value.get("value"))
    assert reading.refusal.endswith(" - at `$.value`") or " - at `$.value." in reading.refusal, reading.refusal
    return Outcome(refusal=PLACE.sub("", reading.refusal))


def _pydantic(reading: Reading) -> Outcome:
    if reading.refusal is None:
        return Outcome(reads=reading.value.get("value"))
    types = {error["type"] for error in reading.errors}
    assert len(types) == 1 and all(error["loc"][0] == "value" for error in reading.errors), reading.errors
    return Outcome(refusal=types.pop())


def test_the_table_has_rows_each_way() -> None:
    assert any(r.msgspec.refusal is not None and r.pydantic.refusal is None for r in TABLE)
    assert any(r.msgspec.refusal is None and r.pydantic.refusal is not None for r in TABLE)
    assert all(r.msgspec != r.pydantic for r in TABLE), "a row where both variants read alike is no row"


@pytest.mark.parametrize("optional", [False, True], ids=["required", "optional"])
@pytest.mark.parametrize("n", range(1, len(TABLE) + 1), ids=[r.case for r in TABLE])
def test_each_row_is_what_the_variants_read(n: int, optional: bool) -> None:
    row: Row = TABLE[n - 1]
    ms, py = read(n, optional)
    found = (_msgspec(ms), _pydantic(py))
    assert found == (row.msgspec, row.pydantic), f"{row.case}, {row.text}: {found}"


def test_every_row_gives_its_refusal_a_kind() -> None:
    """What tests/test_pydantic_agreement.py excuses: every row's refusal, by its kind."""
    forward, reverse = excuses()
    assert len(forward) >= 10 and len(reverse) >= 2, (forward, reverse)


SCALARS = {
    "integer": {"type": "integer"}, "number": {"type": "number"}, "boolean": {"type": "boolean"},
    "string": {"type": "string"}, "nullable integer": {"type": ["integer", "null"]},
    "integer or string": {"type": ["integer", "string"]}, "date-time": {"type": "string", "format": "date-time"},
    "date": {"type": "string", "format": "date"}, "time": {"type": "string", "format": "time"},
    "uuid": {"type": "string", "format": "uuid"}, "decimal": {"type": "string", "format": "decimal"},
    "byte": {"type": "string", "format": "byte"}, "integer enum": {"enum": [0, 1, 2]},
    "string enum": {"enum": ["a", "b"]}, "mixed enum": {"enum": ["a", 1]},
    "array": {"type": "array", "items": {"type": "integer"}}, "map": {"additionalProperties": {"type": "integer"}},
}
VALUES = [True, False, 0, 1, 2, -1, 0.0, 1.0, 1.5, 1e300, 3600.5, "1", "0", "1.5", "x", "", "true", "yes",
          "2020-01-02", "10:00", "NaN", [], [1], ["1"], {}, {"a": 1}, {"a": "1"}, None]
"""A value of every JSON type, with the forms some converter reads as another type."""


def test_every_kind_of_refusal_a_simple_type_differs_in_has_a_row() -> None:
    """Each schema of ``SCALARS`` with each of ``VALUES``: the variants refuse alike, or differ as a row does
    (in kind), so that random payloads find no kind the table lacks (tests/test_pydantic_agreement.py)."""
    definitions = {f"Case{n}": {"type": "object", "required": ["value"], "properties": {"value": schema}}
                   for n, schema in enumerate(SCALARS.values())}
    ms, py = generate({"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": definitions})
    problems = []
    for n, name in enumerate(SCALARS):
        ms_type, py_type = getattr(ms, f"Case{n}"), getattr(py, f"Case{n}")
        for value in VALUES:
            raw = json.dumps({"value": value})
            if msgspec_reads(ms_type, raw).read == pydantic_reads(py_type, raw).read:
                continue  # (what both read is compared on real payloads; a number for a decimal is a row)
            if (problem := disagreement(ms_type, py_type, {"value": value})) is not None:
                problems.append(f"{name}, {json.dumps(value)}: {problem}")
    assert not problems, "\n".join(problems)


def test_a_union_whose_limited_member_refuses_is_excused_by_the_member_pydantic_converts_to() -> None:
    """msgspec names the member whose limit fails (``Expected `float` >= 5.0``); pydantic reads ``0`` as the
    ``bool`` member, the row "0 or 1 for a boolean". In a map (msgspec says ``[...]`` for its keys) too;
    a value pydantic reads as it is, with no conversion, is no such excuse."""
    union = {"type": ["string", "number", "boolean"], "minimum": 5}
    definitions = {"Plain": {"type": "object", "required": ["value"], "properties": {"value": union}},
                   "Mapped": {"type": "object", "required": ["value"],
                              "properties": {"value": {"additionalProperties": {"type": "array", "items": union}}}}}
    ms, py = generate({"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": definitions})
    plain = (ms.Plain, py.Plain)
    assert msgspec_reads(ms.Plain, '{"value": 0}').refusal == "Expected `float` >= 5.0 - at `$.value`"
    assert pydantic_reads(py.Plain, '{"value": 0}').value == {"value": False}
    assert disagreement(*plain, {"value": 0}) is None
    assert disagreement(ms.Mapped, py.Mapped, {"value": {"a": [5, 1]}}) is None
    assert disagreement(*plain, {"value": 2}) is None  # (both refuse it: no bool converts 2)
    refused = "Expected `float` >= 5.0 - at `$.value`"
    assert converted(refused, {"value": 7}, {"value": 7}) == set()  # read as it is: no conversion to excuse it
    assert converted(refused, {"value": 0}, {"value": 0.0}) == {"Expected `float`, got `int`"}
    assert "Expected `float`, got `int`" not in excuses()[0]  # (no row converts so: it would be reported)
