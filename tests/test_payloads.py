"""Real payloads through the generated modules: valid ones decode, invalid ones are refused.

Fixtures: ``tests/fixtures/payloads/<package>/<RootType>/{valid,invalid}/*.json``. The msgspec
variant decodes with ``msgspec.json.decode``, the dataclass variant with its own ``from_dict``, the
TypedDict variant with msgspec where it can build a decoder for it, else with the structural check
of ``structural.py``.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import tomllib

import msgspec
import pytest

from structural import Mismatch, check

PAYLOADS = Path(__file__).resolve().parent / "fixtures" / "payloads"
VARIANTS = ("dataclass", "typeddict", "msgspec")
LENIENT: dict[str, dict[str, str]] = tomllib.loads((PAYLOADS / "lenient.toml").read_text())


def _fixtures() -> list[tuple[str, str, str, Path]]:
    found = []
    for path in sorted(PAYLOADS.glob("*/*/*/*.json")):
        expect, root, package = path.parent.name, path.parent.parent.name, path.parent.parent.parent.name
        assert expect in ("valid", "invalid"), path
        found.extend((package, root, variant, path) for variant in VARIANTS)
    return found


def _decoder(package: str, root: str, variant: str) -> Callable[[bytes], Any]:
    module = importlib.import_module(f"generated.{package}.{variant}_models")
    target = getattr(module, root)
    if variant == "dataclass":
        return lambda data: target.from_dict(json.loads(data))
    try:
        decoder = msgspec.json.Decoder(target)
    except TypeError:
        if variant == "msgspec":
            raise  # every msgspec-variant type must build a decoder
        return lambda data: check(json.loads(data), target)
    return decoder.decode


def test_fixtures_exist() -> None:
    kinds = {(p.parent.parent.parent.name, p.parent.name) for _, _, _, p in _fixtures()}
    assert {("chat_completion_out", "valid"), ("chat_completion_out", "invalid"),
            ("openai", "valid"), ("openai", "invalid")} <= kinds


@pytest.mark.parametrize(("package", "root", "variant", "path"), _fixtures(),
                         ids=lambda v: v.name if isinstance(v, Path) else str(v))
def test_payload(package: str, root: str, variant: str, path: Path) -> None:
    decode = _decoder(package, root, variant)
    data = path.read_bytes()
    lenient = path.relative_to(PAYLOADS).as_posix() in LENIENT.get(variant, {})
    if path.parent.name == "valid" or lenient:
        decode(data)
    else:
        module = importlib.import_module(f"generated.{package}.{variant}_models")
        refusals = (module.DecodeError,) if variant == "dataclass" else (msgspec.ValidationError, Mismatch)
        with pytest.raises(refusals):  # (not any ValueError: msgspec's, json's and a crash's are ValueErrors too)
            decode(data)


def test_lenient_entries_name_real_invalid_fixtures() -> None:
    for variant, entries in LENIENT.items():
        assert variant in VARIANTS
        for rel in entries:
            assert (PAYLOADS / rel).is_file() and "/invalid/" in rel, rel


def test_structural_fallback_is_used_for_the_tool_call_union() -> None:
    """The dataclass variant of OpenAI's tool-call union is one msgspec refuses: the fallback runs."""
    module = importlib.import_module("generated.openai.dataclass_models")
    with pytest.raises(TypeError):
        msgspec.json.Decoder(module.ChatCompletionChoice)


def test_msgspec_tool_calls_decode_to_their_own_struct() -> None:
    module = importlib.import_module("generated.openai.msgspec_models")
    calls = msgspec.json.decode(
        b'[{"id": "a", "type": "function", "function": {"name": "f", "arguments": "{}"}},'
        b' {"id": "b", "type": "custom", "custom": {"name": "g", "input": "x"}}]',
        type=module.ChatCompletionMessageToolCalls,
    )
    assert [type(c).__name__ for c in calls] == ["ChatCompletionMessageToolCall", "ChatCompletionMessageCustomToolCall"]
    assert b'"type":"custom"' in msgspec.json.encode(calls[1])
