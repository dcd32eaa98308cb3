"""The table of docs/semantics.md, "pydantic's lax mode", row by row against the models generated for it
(tests/lax_table.py), with the row's property required and not: so that the table cannot go stale."""

from __future__ import annotations

import json

import pytest

from lax_table import PLACE, Outcome, Row, excuses, read, rows
from pydantic_reading import Reading

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
    assert found == (row.msgspec, row.pydantic), f"{row.case}, {json.dumps(row.payload)}: {found}"


def test_every_row_gives_its_refusal_a_kind() -> None:
    """What tests/test_pydantic_agreement.py excuses: every row's refusal, by its kind."""
    forward, reverse = excuses()
    assert len(forward) >= 10 and len(reverse) >= 2, (forward, reverse)
