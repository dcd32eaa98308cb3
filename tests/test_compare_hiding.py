"""``compare``: a difference with no witness because every payload reaching it is refused first at
another names that one (``hidden_by``), the nearest; and taking the hider away gives the hidden ones
their witnesses, decoded by both sides' real msgspec models (``compared``).

The fixture tests/fixtures/compare/mistral/ is the case a user met: OpenAI's assistant message has a
``refusal`` Mistral's closed message lacks, under the choices list, so Mistral's models refuse every
OpenAI response with a choice, and whatever else differs under a choice has no witness.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from compare_tools import compared
from schemagen.compare import Comparison, Difference, report

from golden import ROOT

MISTRAL = ROOT / "tests" / "fixtures" / "compare" / "mistral"


def _fixture(name: str) -> dict[str, Any]:
    return json.loads((MISTRAL / name).read_text())  # type: ignore[no-any-return]


def _hidden(found: Comparison) -> dict[str, str]:
    """``direction where: fact`` → where its hider is, for each hidden difference."""
    return {f"{d.direction} {d.where}: {d.fact}": d.hidden_by.where for d in found.differences if d.hidden_by}


def _one(found: Comparison, direction: str, where: str) -> Difference:
    [d] = [d for d in found.differences if (d.direction, d.where) == (direction, where) and d.hidden_by is None]
    return d


HIDDEN_A_TO_B = [
    "a->b choices[].finish_reason: value 'content_filter' only in A",
    "a->b choices[].finish_reason: value 'function_call' only in A",
    "a->b choices[].message: unknown fields pass in A, B forbids them",
    "a->b choices[].message.annotations: field only in A; B forbids unknown fields",
    "a->b choices[].message.audio: field only in A; B forbids unknown fields",
    "a->b choices[].message.prefix: not a field of A (any value passes), bool in B",
    "a->b choices[].message.tool_calls[].id: max_length 9 in B, none in A",
    "a->b choices[].message.tool_calls[].index: not a field of A (any value passes), int in B",
]


def test_a_property_a_closed_object_lacks_hides_what_differs_around_it(tmp_path: Path) -> None:
    found = compared(tmp_path, _fixture("openai.json"), _fixture("mistral.json"))
    hidden = _hidden(found)
    assert [k for k, v in hidden.items() if k.startswith("a->b")] == HIDDEN_A_TO_B
    assert set(hidden.values()) == {"choices[].message.refusal"}
    refusal = _one(found, "a->b", "choices[].message.refusal")
    assert refusal.what == "field only in A; B forbids unknown fields"
    assert refusal.witness["choices"][0]["message"] == {"role": "assistant", "content": None, "refusal": None}
    missing = _one(found, "b->a", "choices[].message.refusal")  # Mistral's messages lack it, OpenAI's require it
    assert missing.what == "required in A, absent in B" and missing.witnessed
    assert sum(d.hidden_by is missing for d in found.differences) == 10
    for d in found.differences:  # a difference is hidden, witnessed, or a docs line
        assert d.witnessed or d.hidden_by is not None or d.direction == "docs", d.what
        if d.hidden_by is not None:
            assert d.hidden_by.direction == d.direction and d.hidden_by.witnessed
            assert d.what == f"{d.fact} (no witness: hidden by {d.hidden_by.where})"


def test_without_the_hider_the_hidden_differences_have_witnesses(tmp_path: Path) -> None:
    """What "hidden by" claims, checked with the real models: once OpenAI's message has no ``refusal``,
    each difference it hid has a witness that Mistral's msgspec models refuse where it is."""
    openai = copy.deepcopy(_fixture("openai.json"))
    message = openai["$defs"]["Message"]
    del message["properties"]["refusal"]
    message["required"].remove("refusal")
    before = _hidden(compared(tmp_path / "before", _fixture("openai.json"), _fixture("mistral.json")))
    after = compared(tmp_path / "after", openai, _fixture("mistral.json"))
    witnessed = {f"{d.direction} {d.where}: {d.fact}" for d in after.differences if d.witnessed}
    assert set(before) <= witnessed
    assert _hidden(after) == {}


def _closed(properties: dict[str, Any], required: list[str], **more: Any) -> dict[str, Any]:
    return {"type": "object", "additionalProperties": False, "properties": properties, "required": required, **more}


STRING = {"type": "string"}


def test_the_nearest_hider_is_named_and_hiders_are_hidden_in_turn(tmp_path: Path) -> None:
    """A root whose required constant differs hides everything under it, the message's own hider
    included; what is under the message is hidden by the message's key, the nearer."""
    message_a = _closed({"refusal": STRING, "text": {"type": "integer"}}, ["refusal"])
    message_b = _closed({"text": STRING}, [])
    a = {"title": "R", **_closed({"object": {"const": "a"}, "m": message_a, "n": {"type": "integer"}}, ["object"])}
    b = {"title": "R", **_closed({"object": {"const": "b"}, "m": message_b, "n": STRING}, ["object"])}
    found = compared(tmp_path, a, b)
    assert _hidden(found) == {
        "a->b m.refusal: field only in A; B forbids unknown fields": "object",
        "a->b m.text: int in A, str in B": "m.refusal",
        "a->b n: int in A, str in B": "object",
        "b->a m.refusal: required in A, absent in B": "object",
        "b->a m.text: str in B, int in A": "m.refusal",
        "b->a n: str in B, int in A": "object",
    }
    assert _one(found, "a->b", "object").witness == {"object": "a"}


def test_two_keys_every_payload_holds_and_the_other_side_refuses_hide_each_other(tmp_path: Path) -> None:
    """Where the root also requires the message, the root's constant and the message's key are each
    met by every payload: neither has a witness alone. The cycle is broken at the first in report order."""
    message_a = _closed({"refusal": STRING}, ["refusal"])
    a = {"title": "R", **_closed({"object": {"const": "a"}, "m": message_a}, ["object", "m"])}
    b = {"title": "R", **_closed({"object": {"const": "b"}, "m": _closed({"text": STRING}, [])}, ["object"])}
    found = compared(tmp_path, a, b)
    assert _hidden(found)["a->b object: value 'a' only in A"] == "m.refusal"
    assert _one(found, "a->b", "m.refusal").hidden_by is None


def test_two_keys_each_refused_by_the_other_side_hide_each_other_and_the_first_is_kept(tmp_path: Path) -> None:
    """A requires ``x`` that B forbids, B requires ``y`` that A forbids: no payload shows either alone.
    The cycle is broken at the first in report order, which keeps why it has no witness."""
    a = {"title": "R", **_closed({"x": STRING, "n": {"type": "integer"}}, ["x"])}
    b = {"title": "R", **_closed({"y": STRING, "n": STRING}, ["y"])}
    found = compared(tmp_path, a, b)
    assert _hidden(found) == {"a->b n: int in A, str in B": "x", "a->b y: required in B, absent in A": "x",
                              "b->a n: str in B, int in A": "y", "b->a y: field only in B; A forbids unknown fields": "x"}
    first = _one(found, "a->b", "x")
    assert first.what == ("field only in A; B forbids unknown fields (no witness: no payload could be built: key 'y' "
                          "is required on one side and refused on the other)")


def test_a_pair_of_models_met_again_is_hidden_where_the_pair_was_compared(tmp_path: Path) -> None:
    """Each pair of models is compared once, at the first place: the refusal inside the second place
    is reported (and named) at the first."""
    defs_a = {"M": _closed({"refusal": STRING, "text": STRING}, ["refusal"])}
    defs_b = {"M": _closed({"text": STRING}, [])}
    a = {"title": "R", "type": "object", "required": ["second"], "$defs": defs_a,
         "properties": {"first": {"$ref": "#/$defs/M"}, "second": {"$ref": "#/$defs/M"}, "n": {"type": "integer"}}}
    b = {"title": "R", "type": "object", "$defs": defs_b,
         "properties": {"first": {"$ref": "#/$defs/M"}, "second": {"$ref": "#/$defs/M"}, "n": STRING}}
    found = compared(tmp_path, a, b)
    assert _hidden(found)["a->b n: int in A, str in B"] == "first.refusal"


def test_a_difference_no_payload_shows_for_its_own_reason_is_hidden_by_none(tmp_path: Path) -> None:
    """Unique items, which B's msgspec model does not check, under the message OpenAI's refusal hides:
    its own reason is kept."""
    openai, mistral = _fixture("openai.json"), _fixture("mistral.json")
    openai["$defs"]["Message"]["properties"]["tool_calls"]["uniqueItems"] = False
    mistral["$defs"]["AssistantMessage"]["properties"]["tool_calls"]["uniqueItems"] = True
    found = compared(tmp_path, openai, mistral)
    [unique] = [d for d in found.differences if "unique items" in d.what]
    assert unique.hidden_by is None
    assert unique.what.endswith("(no witness: B's msgspec model does not check unique items)")


# As printed --------------------------------------------------------------------------------


def test_the_report_opens_with_the_root_causes_and_lists_the_hidden_under_them(tmp_path: Path) -> None:
    found = compared(tmp_path, _fixture("openai.json"), _fixture("mistral.json"))
    lines = report.text(found).splitlines()
    assert lines[0] == ("root causes: 2 differences hide 18 others; a payload that reaches a hidden one is refused "
                        "first at the one it is listed under")
    assert lines[1] == "a->b  choices[].message.refusal: field only in A; B forbids unknown fields (hides 8)"
    assert lines[2].startswith('      witness: {"id": "", "object": "chat.completion", ')
    assert lines[3] == "b->a  choices[].message.refusal: required in A, absent in B (hides 10)"
    assert lines[5] == ""
    body = lines[6:]
    at = body.index("a->b  choices[].message.refusal: field only in A; B forbids unknown fields")
    assert body[at + 1:at + 1 + len(HIDDEN_A_TO_B)] == ["      " + h.replace(" ", "  ", 1) for h in HIDDEN_A_TO_B]
    assert body[at + 1 + len(HIDDEN_A_TO_B)] == "a->b  usage: required in B, optional in A"
    assert len(body) == len(found.differences) and "no witness" not in report.text(found)


def test_markdown_marks_the_hidden_rows_and_json_names_the_hider(tmp_path: Path) -> None:
    found = compared(tmp_path, _fixture("openai.json"), _fixture("mistral.json"))
    rows = report.markdown(found).splitlines()
    assert rows[0].startswith("**Root causes**: 2 differences hide 18 others")
    assert rows[2:4] == ["| direction | where | what | hides | witness |", "| --- | --- | --- | --- | --- |"]
    assert rows[4].startswith("| **a->b** | `choices[].message.refusal` | field only in A; B forbids unknown fields | 8 | ")
    table = rows[rows.index("| direction | where | A | B | what |"):]
    at = table.index("| **a->b** | `choices[].message.refusal` | `Message` | `AssistantMessage` | field only in A; B "
                     "forbids unknown fields |")
    assert table[at + 1] == ("| ↳ **a->b** | `choices[].finish_reason` | `Choice` | `ChatCompletionChoice` | value "
                             "'content\\_filter' only in A |")
    document = json.loads(report.as_json(found))
    hidden = [d for d in document["differences"] if d["hidden_by"] is not None]
    assert len(hidden) == 18 and {d["hidden_by"] for d in hidden} == {"choices[].message.refusal"}
    assert [(c["direction"], c["where"], c["hides"]) for c in document["root_causes"]] == [
        ("a->b", "choices[].message.refusal", 8), ("b->a", "choices[].message.refusal", 10)]
    assert document["root_causes"][0]["witness"] == _one(found, "a->b", "choices[].message.refusal").witness


def test_a_hidden_hider_is_listed_under_its_own_and_counted_in_the_root_cause(tmp_path: Path) -> None:
    message_a = _closed({"refusal": STRING, "text": {"type": "integer"}}, ["refusal"])
    a = {"title": "R", **_closed({"object": {"const": "a"}, "m": message_a}, ["object"])}
    b = {"title": "R", **_closed({"object": {"const": "b"}, "m": _closed({"text": STRING}, [])}, ["object"])}
    lines = report.text(compared(tmp_path, a, b)).splitlines()
    assert lines[:2] == ["root causes: 2 differences hide 4 others; a payload that reaches a hidden one is refused "
                         "first at the one it is listed under",
                         "a->b  object: value 'a' only in A (hides 2)"]
    at = lines.index("a->b  object: value 'a' only in A")
    assert lines[at + 1:at + 3] == ["      a->b  m.refusal: field only in A; B forbids unknown fields",
                                    "            a->b  m.text: int in A, str in B"]


def test_a_line_that_says_what_one_before_it_says_once_it_names_its_hider_is_left_out() -> None:
    """Two findings of one difference that had no witness for different reasons read the same once
    both are hidden by one: the line is printed once."""
    from schemagen.compare import _hidden

    place = (("field", "m"), ("field", "refusal"))
    hider = Difference("a->b", "m.refusal", "M", "N", "refusal", "field only in A", {"m": {"refusal": ""}}, True,
                       place, "field only in A")
    twice = [Difference("a->b", "n", "R", "S", "n", f"int in A, str in B (no witness: {why})", None, False,
                        (("field", "n"),), "int in A, str in B", blocked=place) for why in ("one", "other")]
    kept = _hidden([hider, *twice], {})
    assert [d.what for d in kept] == ["field only in A", "int in A, str in B (no witness: hidden by m.refusal)"]
    assert kept[1].hidden_by is kept[0]
