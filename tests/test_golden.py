"""Every golden case, every input of it, against its expected files (``make golden`` rewrites them)."""

from __future__ import annotations

import difflib
import os

import pytest

from golden import GOLDEN, ROOT, Case, cases, generate
from schemagen import render
from schemagen.project.command import regenerate
from schemagen.project.plan import package_init

UPDATE = os.environ.get("SCHEMAGEN_UPDATE_GOLDEN") == "1"
RUNTIME = GOLDEN / "_runtime.py"
"""The converter module of an output package with dataclass modules (every case's imports it)."""


def test_the_packages_converter_module() -> None:
    text = render.runtime(package_init(regenerate(ROOT)).rstrip("\n"))
    if UPDATE:
        RUNTIME.write_text(text, encoding="utf-8")
    expected = RUNTIME.read_text(encoding="utf-8")
    assert expected == text, ("tests/golden/_runtime.py differs (run `make golden` if the change is intended, and "
                              "read the diff):\n" + "".join(difflib.unified_diff(
                                  expected.splitlines(keepends=True), text.splitlines(keepends=True))))


def test_there_are_cases() -> None:
    assert len(cases()) >= 3, "no golden cases found under tests/golden/"


@pytest.mark.parametrize("case", cases(), ids=lambda c: c.name)
def test_golden(case: Case) -> None:
    assert case.inputs, f"{case.folder} has no input"
    expected_dir = case.folder / "expected"
    for source in case.inputs:
        actual = generate(case, source)
        if UPDATE and source == case.inputs[0]:
            expected_dir.mkdir(exist_ok=True)
            for old in expected_dir.iterdir():
                old.unlink()
            for name, text in actual.items():
                (expected_dir / name).write_text(text, encoding="utf-8")
        expected = {p.name: p.read_text(encoding="utf-8") for p in sorted(expected_dir.iterdir())} if expected_dir.is_dir() else {}
        problems = []
        for name in sorted(set(expected) | set(actual)):
            if expected.get(name) != actual.get(name):
                problems.extend(difflib.unified_diff(
                    expected.get(name, "").splitlines(keepends=True), actual.get(name, "").splitlines(keepends=True),
                    f"expected/{name}", f"{source.name} → {name}"))
        assert not problems, (
            f"golden case {case.name}: {source.name} differs from expected/ "
            "(run `make golden` if the change is intended, and read the diff):\n" + "".join(problems))
