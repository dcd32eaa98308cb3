"""The table of docs/semantics.md, "pydantic's lax mode", row by row against the models generated for it
(tests/lax_table.py), with the row's property required and not: so that the table cannot go stale."""

from __future__ import annotations

import json

import pytest

from lax_table import PLACE, Outcome, Row, disagreement, excuses, generate, read, rows
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
