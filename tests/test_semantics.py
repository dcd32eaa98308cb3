"""The semantics table, checked on the generated modules at run time (not only as text)."""

from __future__ import annotations

import dataclasses
import importlib
from pathlib import Path

import msgspec

from golden import GOLDEN


def _module(variant: str):  # type: ignore[no-untyped-def]
    return importlib.import_module(f"generated.chat_completion_out.{variant}_models")


def test_typeddict_required_keys_are_right_at_run_time() -> None:
    """``NotRequired`` must be visible to ``__required_keys__`` (it is not inside a string annotation)."""
    out = _module("typeddict").OpenAIChatCompletionOut
    assert out.__required_keys__ == {"model", "choices", "usage"}
    assert out.__optional_keys__ == {"service_tier", "id", "object", "created"}


def test_dataclass_absent_reads_as_none_and_default_as_default() -> None:
    usage = _module("dataclass").UsageInfo()
    assert usage.prompt_tokens == 0 and usage.estimated_cost is None
    fields = {f.name: f for f in dataclasses.fields(_module("dataclass").OpenAIChatCompletionOut)}
    assert fields["model"].default is dataclasses.MISSING
    assert fields["object"].default == "chat.completion"


def test_msgspec_absent_is_unset_null_is_none_default_is_default() -> None:
    m = _module("msgspec")
    usage = msgspec.json.decode(b'{"estimated_cost": 0.5}', type=m.UsageInfo)
    assert usage.prompt_tokens == 0 and usage.prompt_tokens_details is msgspec.UNSET
    assert msgspec.json.encode(usage) == b'{"prompt_tokens":0,"total_tokens":0,"completion_tokens":0,"estimated_cost":0.5}'


def test_extra_keys_are_ignored_unless_closed() -> None:
    m = _module("msgspec")
    msgspec.json.decode(b'{"cached_tokens": 1, "surprise": true}', type=m.PromptTokensDetails)


def test_ref_with_annotating_siblings_is_the_referenced_type() -> None:
    """Seed 000's ``usage`` field is ``UsageInfo`` itself, not a copy named ``Usage``."""
    m = _module("msgspec")
    assert not hasattr(m, "Usage")
    assert m.OpenAIChatCompletionOut.__annotations__["usage"] == "UsageInfo"


def test_golden_cases_cover_every_variant() -> None:
    for case in filter(Path.is_dir, GOLDEN.iterdir()):  # (`_runtime.py` beside them: the converter's golden)
        names = {p.name for p in (case / "expected").iterdir()}
        assert names >= {"dataclass_models.py", "typeddict_models.py", "msgspec_models.py"} or "error.txt" in names, case
