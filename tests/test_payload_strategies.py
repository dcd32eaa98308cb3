"""tests/payload_strategies.py on types that admit no value: a list of them is empty, never an error.

Hypothesis refuses ``st.lists(st.nothing(), max_size=2)`` when a test draws from it; a random schema
that made one (a list of another input's type, of a class past the depth limit) failed the compare
fuzz test now and then, and the failure then shrank for minutes.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from payload_strategies import lists, payloads
from schemagen import ir

ELSEWHERE = ir.Ref("Other", "other_models")
"""Another input's type: payloads makes none."""
NEEDS_ELSEWHERE = ir.Model("Holder", (ir.Field("other", "other", ELSEWHERE, required=True),))
DECLARATIONS: dict[str, ir.Declaration] = {"Holder": NEEDS_ELSEWHERE}


@pytest.mark.parametrize("item", [ELSEWHERE, ir.Ref("Holder"), ir.Union((ELSEWHERE, ir.Ref("Holder")))],
                         ids=["other input", "model that needs one", "union of both"])
def test_a_list_of_a_type_with_no_value_is_empty(item: ir.Type) -> None:
    @settings(max_examples=5)
    @given(payloads(ir.Array(item), DECLARATIONS))
    def check(value: Any) -> None:
        assert value == []

    check()


def test_a_list_that_needs_an_item_of_no_value_has_none() -> None:
    assert lists(st.nothing(), min_size=1).is_empty
    assert not lists(st.integers(), min_size=1).is_empty


@pytest.mark.parametrize("value", [ELSEWHERE, ir.Ref("Holder")], ids=["other input", "model that needs one"])
def test_a_map_of_a_type_with_no_value_is_empty(value: ir.Type) -> None:
    @settings(max_examples=5)
    @given(payloads(ir.Map(value), DECLARATIONS))
    def check(found: Any) -> None:
        assert found == {}

    check()
