"""The templates' code kept across runs (generator/cache/compiled.py): a run after the first compiles
none of the built-in templates again and writes what one that compiles them writes; another generator's
entry, or a damaged one, is compiled again."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jinja2
import pytest

from schemagen import render
from schemagen.cache.compiled import NAMESPACE, bytecode_cache
from schemagen.cache.store import Cache
from schemagen.diagnostics import Reporter
from schemagen.project.config import ALL_VARIANTS
from schemagen.project.inputs import Input
from schemagen.project.pipeline import to_ir
from schemagen.render.options import RenderOptions

SCHEMA = {"definitions": {"Color": {"enum": ["red", "green"]},
                          "Item": {"type": "object", "required": ["id"], "properties": {
                              "id": {"type": "integer"}, "color": {"$ref": "#/definitions/Color", "default": "red"},
                              "tags": {"type": "array", "items": {"type": "string"}}}}}}


def _rendered(env: jinja2.Environment, folder: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], list[str]]:
    """The templates ``env`` compiled, and each variant's module of ``SCHEMA`` it wrote."""
    path = folder / "s.json"
    path.write_text(json.dumps(SCHEMA), encoding="utf-8")
    module = to_ir(Input("s", path, "s.json"), folder, Reporter())
    compiled: list[str] = []
    original = jinja2.Environment.compile

    def compiling(self: jinja2.Environment, source: Any, name: str | None = None, *args: Any, **kwargs: Any) -> Any:
        compiled.append(str(name))
        return original(self, source, name, *args, **kwargs)

    monkeypatch.setattr(jinja2.Environment, "compile", compiling)
    texts = [render.render(module, variant, "s.json", env, RenderOptions()) for variant in ALL_VARIANTS]
    monkeypatch.undo()
    return sorted(set(compiled)), texts


def test_a_template_compiled_once_is_not_compiled_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = Cache(tmp_path / "cache")
    compiled, expected = _rendered(render.environment(), tmp_path, monkeypatch)
    assert compiled  # (the oracle: a plain environment compiles them)
    assert _rendered(render.environment(compiled=bytecode_cache(store, "salt")), tmp_path, monkeypatch) == \
        (compiled, expected)
    assert _rendered(render.environment(compiled=bytecode_cache(store, "salt")), tmp_path, monkeypatch) == \
        ([], expected)


@pytest.mark.parametrize("damage", [None, b"salt\nnot bytecode", b"", b"salt"])
def test_another_generators_entry_or_a_damaged_one_is_compiled_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: bytes | None) -> None:
    store = Cache(tmp_path / "cache")
    compiled, expected = _rendered(render.environment(compiled=bytecode_cache(store, "salt")), tmp_path, monkeypatch)
    salt = "other" if damage is None else "salt"
    if damage is not None:
        original = store.get
        monkeypatch.setattr(store, "get", lambda namespace, key: damage if namespace == NAMESPACE
                            else original(namespace, key))
    env = render.environment(compiled=bytecode_cache(store, salt))
    assert _rendered(env, tmp_path, monkeypatch) == (compiled, expected)
