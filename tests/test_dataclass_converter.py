"""The converter each dataclass module carries, as code: black's output already (the formatter takes
it as it is), its names reserved as class names, the standard library only, and safe to start using
from several threads at once. What it reads and writes: tests/test_dataclass_convert.py.
"""

from __future__ import annotations

import ast
import threading

import pytest

from conftest import bench_module
from schemagen.names import MODULE_NAMES, OUTPUT_NAMES
from schemagen.render import dataclass as dataclass_variant
from schemagen.render.format import format_whole
from golden import GOLDEN, ROOT

modules = bench_module("modules")


def _parts() -> list[tuple[tuple[str, ...], str]]:
    return [dataclass_variant.converter(f) for f in ("dataclass_runtime.py", "dataclass_formats.py")]


def test_the_converter_is_black_stable_and_its_names_are_reserved() -> None:
    """A schema's class of the same name would replace a name the converter uses: the naming pass
    renames such a class (``OUTPUT_NAMES``)."""
    for prelude in dataclass_variant.converters():
        source = "import typing\n\n\n" + prelude + "\n"
        assert format_whole(source) == source
    names = {m for imported, _ in _parts() for m in imported}
    for _, text in _parts():
        for node in ast.parse(text).body:
            targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
            names |= {t.id for t in targets if isinstance(t, ast.Name)}
            names |= {t.id for t in targets if isinstance(t, ast.Tuple) for t in t.elts if isinstance(t, ast.Name)}
            names |= {node.name} if isinstance(node, (ast.ClassDef, ast.FunctionDef)) else set()
    assert {"DecodeError", "_Model", "re"} <= names
    assert names <= OUTPUT_NAMES | MODULE_NAMES, sorted(names - OUTPUT_NAMES - MODULE_NAMES)


def test_another_thread_never_uses_a_plan_being_worked_out() -> None:
    """A class's plan is worked out on first use, together with those of the classes its fields
    hold (``Company`` → ``Person`` → ``Company``); until all are complete, no other thread may find
    them. Checked where it would show: each plan begins while every published plan is complete;
    and eight threads reading at once on first use read alike."""
    source = (GOLDEN / "recursive" / "expected" / "dataclass_models.py").read_text()
    payload = {"name": "c", "employees": [{"name": "p", "employer": {"name": "d", "employees": []}}], "ceo": None}
    dc = modules.exec_module(source, "recursive")
    try:
        began: list[str] = []

        class Watched(dc._Plan):  # type: ignore[name-defined,misc]
            def __init__(self, cls: type) -> None:
                assert all(getattr(p, "done", False) for p in dc._PLANS.values()), cls
                began.append(cls.__name__)
                super().__init__(cls)
                self.done = True

        dc._Plan = Watched
        assert dc.Company.from_dict(payload).to_dict() == payload
        assert began == ["Company", "Person"] and not dc._NEW
    finally:
        modules.forget_module(dc)
    dc = modules.exec_module(source, "recursive")
    try:
        barrier, results = threading.Barrier(8), []

        def run() -> None:
            barrier.wait()
            results.append(dc.Company.from_dict(payload).to_dict())

        threads = [threading.Thread(target=run) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert results == [payload] * 8
    finally:
        modules.forget_module(dc)


def test_the_error_is_a_value_error_that_ends_with_the_json_path() -> None:
    """One exception type per module, a ``ValueError``, in msgspec's words with the path at the end."""
    from generated.openai import dataclass_models as dc

    assert issubclass(dc.DecodeError, ValueError)
    choice = {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": 1}}
    with pytest.raises(dc.DecodeError) as raised:
        dc.ChatCompletionChoice.from_dict(choice)
    assert str(raised.value) == "Expected `str | null`, got `int` - at `$.message.content`"


def test_a_generated_dataclass_module_imports_the_standard_library_only() -> None:
    """Standalone: nothing from ``generated/`` but another input's module, whose classes carry their own
    ``from_dict`` (and which the converter reads as its own)."""
    stdlib = {"__future__", "base64", "dataclasses", "datetime", "decimal", "enum", "re", "threading", "typing",
              "uuid"}
    for path in sorted([*(ROOT / "generated").glob("*/dataclass_models.py"), *GOLDEN.glob("*/expected/dataclass_*.py")]):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.Import):
                assert {a.name for a in node.names} <= stdlib, path
            elif isinstance(node, ast.ImportFrom):
                assert node.module in stdlib or (node.level == 2 and [a.name for a in node.names] == ["dataclass_models"]), path
