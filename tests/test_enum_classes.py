"""``enums = "class"``: enum definitions become StrEnum/IntEnum classes that decode by value."""

from __future__ import annotations

import importlib.util
import sys
from enum import IntEnum, StrEnum
from types import ModuleType

import msgspec

from golden import GOLDEN


def _load(variant: str) -> ModuleType:
    path = GOLDEN / "enum_classes" / "expected" / f"{variant}_models.py"
    name = f"golden_enum_classes_{variant}"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def test_msgspec_and_dataclass_decode_values_into_members() -> None:
    for variant in ("msgspec", "dataclass"):
        m = _load(variant)
        assert issubclass(m.FinishReason, StrEnum) and issubclass(m.Priority, IntEnum)
        choice = msgspec.json.decode(b'{"finish_reason": "content-filter", "tier": null}', type=m.Choice)
        assert choice.finish_reason is m.FinishReason.CONTENT_FILTER
        assert choice.priority is m.Priority.VALUE_2 and choice.tier is None
        assert msgspec.json.decode(b'{"finish_reason": "stop"}', type=m.Choice).tier is m.Tier.DEFAULT


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
