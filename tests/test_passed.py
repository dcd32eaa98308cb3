"""The passes' record kept across runs (``cache.passed``): after an edit, the passes run again over what
it changed and what reaches it, and the run writes what a run without the cache writes; a record that
is not whole, or of other settings, is not used. (``tests/test_passes_recorded.py`` checks ``again``
itself; the edit oracle, random edits of OpenAI's description through every cache.)"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from schemagen import ir
from schemagen.cache import passed, store as caching
from schemagen.diagnostics import Reporter

from conftest import generated

CONFIG = '[tool.schemagen]\nschemas = "schemas"\noutput = "generated"\nvariants = ["dataclass", "msgspec"]\n'
SCHEMA = {"$defs": {
    "Chat": {"type": "object", "description": "A chat.", "required": ["choices"],
             "properties": {"choices": {"type": "array", "items": {"$ref": "#/$defs/Choice"}},
                            "temperature": {"type": "number", "default": 1}}},
    "Choice": {"type": "object", "description": "A choice.",
               "properties": {"index": {"type": "integer"}, "message": {"$ref": "#/$defs/Message"}}},
    "Message": {"type": "object", "description": "A message.",
                "properties": {"role": {"const": "assistant"}, "content": {"type": ["string", "null"]}}},
    "Usage": {"type": "object", "description": "Tokens.", "properties": {"total": {"type": "integer", "default": "x"}}},
}, "$ref": "#/$defs/Chat"}


def _project(tmp_path: Path, schema: dict[str, Any], extra: str = "") -> Path:
    project = tmp_path / "project"
    (project / "schemas").mkdir(parents=True, exist_ok=True)
    (project / "pyproject.toml").write_text(CONFIG + extra, encoding="utf-8")
    (project / "schemas" / "chat.json").write_text(json.dumps(schema), encoding="utf-8")
    return project


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """How the passes ran in each run with the cache: ``again`` (from the record), ``refused`` (``again``
    gave ``None``), ``whole``."""
    seen: list[str] = []
    again, recorded = passed.passes.again, passed.passes.recorded

    def spied_again(*args: Any) -> Any:
        done = again(*args)
        seen.append("refused" if done is None else "again")
        return done

    def spied_recorded(*args: Any) -> Any:
        seen.append("whole")
        return recorded(*args)

    monkeypatch.setattr(passed.passes, "again", spied_again)
    monkeypatch.setattr(passed.passes, "recorded", spied_recorded)
    return seen


def _edited(schema: dict[str, Any], name: str, words: str) -> dict[str, Any]:
    edited = json.loads(json.dumps(schema))
    edited["$defs"][name]["description"] = words
    return edited


def test_an_edit_runs_the_passes_again_and_writes_what_a_run_without_the_cache_writes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, runs: list[str]) -> None:
    project = _project(tmp_path, SCHEMA)
    cache = str(tmp_path / "cache")
    generated(project, cache, monkeypatch)
    for i, name in enumerate(["Message", "Usage", "Chat"]):
        (project / "schemas" / "chat.json").write_text(json.dumps(_edited(SCHEMA, name, f"Edited {i}.")))
        assert generated(project, cache, monkeypatch) == generated(project, "off", monkeypatch)
    assert runs == ["whole", "again", "again", "again"]  # (a run without the cache has no record)


def test_a_record_not_whole_or_of_other_settings_is_not_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             runs: list[str]) -> None:
    project = _project(tmp_path, SCHEMA)
    cache = tmp_path / "cache"
    generated(project, str(cache), monkeypatch)
    with sqlite3.connect(cache / caching.FILE) as db:  # one bucket of the record lost
        db.execute("DELETE FROM entries WHERE rowid = (SELECT MAX(rowid) FROM entries WHERE namespace = 'passes')")
    (project / "schemas" / "chat.json").write_text(json.dumps(_edited(SCHEMA, "Message", "Edited.")))
    assert generated(project, str(cache), monkeypatch) == generated(project, "off", monkeypatch)
    _project(tmp_path, SCHEMA, 'required_defaults = "optional"\n')
    assert generated(project, str(cache), monkeypatch) == generated(project, "off", monkeypatch)
    assert runs == ["whole", "whole", "whole"]


def _wide(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` and 200 definitions more, which refer to none of it."""
    wide = json.loads(json.dumps(schema))
    wide["$defs"].update({f"Filler{i}": {"type": "object", "properties": {"n": {"type": "integer"}}} for i in range(200)})
    return wide


def test_an_edit_reads_back_the_summaries_of_the_declarations_it_redoes_alone(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, runs: list[str]) -> None:
    """The summaries the passes that decide over the whole module read are unpickled by the bucket, when asked
    for: an edit of ``Message`` asks for those of what it redoes (``Message``, and what reaches it), not for the 200 others'."""
    asked: list[str] = []
    get = passed._Summaries.__getitem__

    def spied(self: passed._Summaries, name: str) -> Any:
        asked.append(name)
        return get(self, name)

    monkeypatch.setattr(passed._Summaries, "__getitem__", spied)
    project = _project(tmp_path, _wide(SCHEMA))
    cache = str(tmp_path / "cache")
    generated(project, cache, monkeypatch)
    (project / "schemas" / "chat.json").write_text(json.dumps(_edited(_wide(SCHEMA), "Message", "Edited.")))
    assert generated(project, cache, monkeypatch) == generated(project, "off", monkeypatch)
    assert runs == ["whole", "again"]
    redone = {"Chat_2", "Chat", "Choice", "Message"}  # (``Chat_2``: the file's root, which refers to ``Chat``)
    assert redone <= set(asked)
    assert {passed._bucket(n) for n in asked} == {passed._bucket(n) for n in redone}  # (4 buckets of 64)


def test_summaries_that_do_not_read_back_run_the_passes_whole(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, runs: list[str]) -> None:
    project = _project(tmp_path, _wide(SCHEMA))
    cache = tmp_path / "cache"
    generated(project, str(cache), monkeypatch)
    with caching.Cache(cache) as store, store._connect() as db:  # type: ignore[union-attr]
        rows = db.execute("SELECT key, value FROM entries WHERE namespace = 'passes'").fetchall()
        for key, value in rows:
            if value[16:17] == b" ":  # (a bucket of summaries: its token, a space, the pickle)
                store.put("passes", key, value[:17] + b"not a pickle")
    (project / "schemas" / "chat.json").write_text(json.dumps(_edited(_wide(SCHEMA), "Message", "Edited.")))
    assert generated(project, str(cache), monkeypatch) == generated(project, "off", monkeypatch)
    assert runs == ["whole", "whole"]


def test_what_it_tells_the_render_memo_is_of_the_module_it_made(tmp_path: Path) -> None:
    with caching.Cache(tmp_path) as store:
        keeper = passed.Passed(store, "salt", "scope")
        module = ir.Module((ir.Model("A", (ir.Field("b", "b", ir.Ref("B"), True),)), ir.Alias("B", ir.Scalar("int")),
                            ir.Alias("C", ir.Scalar("int"))))
        first = keeper.run(module, Reporter(), None, "schema", "a.json")
        edited = ir.Module((*module.declarations[:2], ir.Alias("C", ir.Scalar("str"))))
        again = passed.Passed(store, "salt", "scope")
        second = again.run(edited, Reporter(), None, "schema", "a.json")
        for made, (known, _) in ((first, keeper.told(first)), (second, again.told(second))):
            assert known == {d.name: caching.digest_of(d) for d in made.declarations}
        assert again.told(first) == (None, None)
        _, unchanged = again.told(second)
        assert unchanged is not None and unchanged.names == {"A", "B"} and unchanged.before == keeper.told(first)[1].now
