"""``enums = "class"``: enum definitions become StrEnum/IntEnum classes that decode by value."""

from __future__ import annotations

import json
import sys
import types
from enum import IntEnum, StrEnum
from pathlib import Path
from types import ModuleType

import msgspec
import pytest

from conftest import bench_module
from schemagen import render
from schemagen.diagnostics import Reporter
from schemagen.project.inputs import Input
from schemagen.project.pipeline import to_ir
from schemagen.render.options import RenderOptions
from golden import GOLDEN


def _load(variant: str) -> ModuleType:
    path = GOLDEN / "enum_classes" / "expected" / f"{variant}_models.py"
    return bench_module("modules").exec_module(path.read_text(encoding="utf-8"), f"golden enum_classes {variant}")


def test_msgspec_and_dataclass_decode_values_into_members() -> None:
    for variant in ("msgspec", "dataclass"):
        m = _load(variant)
        assert issubclass(m.FinishReason, StrEnum) and issubclass(m.Priority, IntEnum)
        choice = msgspec.json.decode(b'{"finish_reason": "content-filter", "tier": null}', type=m.Choice)
        assert choice.finish_reason is m.FinishReason.CONTENT_FILTER
        assert choice.priority is m.Priority.VALUE_2 and choice.tier is None
        assert msgspec.json.decode(b'{"finish_reason": "stop"}', type=m.Choice).tier is m.Tier.DEFAULT


def test_pydantic_reads_values_into_members_as_msgspec_does() -> None:
    import pydantic

    m = _load("pydantic")
    assert issubclass(m.FinishReason, StrEnum) and issubclass(m.Priority, IntEnum)
    choice = m.Choice.model_validate_json(b'{"finish_reason": "content-filter", "tier": null}')
    assert choice.finish_reason is m.FinishReason.CONTENT_FILTER
    assert choice.priority is m.Priority.VALUE_2 and choice.tier is None
    assert m.Choice.model_validate_json(b'{"finish_reason": "stop"}').tier is m.Tier.DEFAULT
    with pytest.raises(pydantic.ValidationError, match="finish_reason"):
        m.Choice.model_validate_json(b'{"finish_reason": "malformed"}')


def test_a_value_outside_the_enum_is_rejected() -> None:
    m = _load("msgspec")
    try:
        msgspec.json.decode(b'{"finish_reason": "malformed"}', type=m.Choice)
    except msgspec.ValidationError as exc:
        assert "finish_reason" in str(exc)
    else:
        raise AssertionError("decoded a value outside the enum")


def test_typeddict_keeps_the_literal() -> None:
    m = _load("typeddict")
    assert not isinstance(m.FinishReason, type)


def test_an_enum_class_beside_another_member_of_its_kind_decodes(tmp_path: Path) -> None:
    """msgspec takes one string-like (and one int-like) member per union, and an enum class is one:
    beside ``str``, another enum or an ``int``, it is written as the ``Literal`` of its values."""
    schema = {"title": "Holder", "type": "object", "properties": {
        "a": {"anyOf": [{"$ref": "#/definitions/Color"}, {"type": "string"}]},
        "b": {"anyOf": [{"$ref": "#/definitions/Color"}, {"$ref": "#/definitions/Shade"}]},
        "c": {"anyOf": [{"$ref": "#/definitions/Level"}, {"type": "integer", "minimum": 10}]},
        "d": {"anyOf": [{"$ref": "#/definitions/Color"}, {"$ref": "#/definitions/Level"}]}},
        "definitions": {"Color": {"enum": ["red", "green"]}, "Shade": {"enum": ["dark", "light"]},
                        "Level": {"enum": [1, 2]}}}
    path = tmp_path / "e.json"
    path.write_text(json.dumps(schema))
    module = to_ir(Input("e", path, "e.json"), tmp_path, Reporter())
    source = render.render(module, "msgspec", "e.json", render.environment(), RenderOptions(enums="class"))
    m = types.ModuleType("_enum_union_case")
    sys.modules[m.__name__] = m  # msgspec resolves the string annotations through it
    try:
        exec(compile(source, "e.py", "exec"), m.__dict__)
        decoder = msgspec.json.Decoder(m.Holder)
        got = decoder.decode(b'{"a": "blue", "b": "dark", "c": 1, "d": 2}')
        assert (got.a, got.b, got.c, got.d) == ("blue", "dark", 1, m.Level.VALUE_2)
        assert decoder.decode(b'{"a": "red", "d": "green"}').d is m.Color.GREEN
    finally:
        del sys.modules[m.__name__]
