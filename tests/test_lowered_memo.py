"""An input's IR and its modules' text kept across runs (generator/cache/lowered.py, texts.py): an edit of
one input of a project lowers that input and those that refer to it, lays out their modules alone, and
the run writes and reports what a run without a cache does."""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from schemagen.cache import lowered as memo
from schemagen.cache.memo import Memo
from schemagen.cache.store import Cache
from schemagen.diagnostics import SchemaError
from schemagen.project import config as configuration, link
from schemagen.project.plan import Result, plan

CONFIG = '[tool.schemagen]\nschemas = "schemas"\noutput = "generated"\n'


def _write(project: Path, name: str, document: dict[str, Any]) -> None:
    path = project / "schemas" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document), encoding="utf-8")


def _model(description: str, **properties: Any) -> dict[str, Any]:
    return {"type": "object", "description": description, "properties": properties or {"x": {"type": "string"}}}


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Three inputs: ``b.json`` refers to ``a.json``; ``c.json`` stands alone (and warns: a `not`)."""
    root = tmp_path / "project"
    (root / "schemas").mkdir(parents=True)
    (root / "pyproject.toml").write_text(CONFIG, encoding="utf-8")
    _write(root, "a.json", {"definitions": {"Shared": _model("Shared.")}})
    _write(root, "b.json", {"definitions": {"User": _model("A user.", shared={"$ref": "a.json#/definitions/Shared"})}})
    _write(root, "c.json", {"definitions": {"Alone": _model("Alone.", y={"type": "integer", "not": {"const": 3}})}})
    monkeypatch.setenv("SCHEMAGEN_CACHE_DIR", str(tmp_path / "cache"))
    return root


@pytest.fixture
def lowered(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The inputs lowered (not found kept), in order."""
    found: list[str] = []
    original = link.to_ir

    def counted(source: Any, *args: Any, **kwargs: Any) -> Any:
        found.append(source.display)
        return original(source, *args, **kwargs)

    monkeypatch.setattr(link, "to_ir", counted)
    return found


def _run(project: Path, command: str) -> Result:
    """A run that renders (another command in the header each time: not the last run's result)."""
    config = configuration.load(project)
    return plan(replace(config, options=replace(config.options, command=command)))


def _uncached(project: Path, command: str, monkeypatch: pytest.MonkeyPatch) -> Result:
    with monkeypatch.context() as m:
        m.setenv("SCHEMAGEN_CACHE_DIR", "off")
        return _run(project, command)


def _kept(cache: Path) -> dict[str, bytes]:
    """The IR entries the cache in ``cache`` holds, by slot."""
    with Cache(cache) as store:
        db = store._connect()
        assert db is not None
        return dict(db.execute("SELECT key, value FROM entries WHERE namespace = ?", (memo.NAMESPACE,)))


def _same(project: Path, command: str, monkeypatch: pytest.MonkeyPatch, lowered: list[str]) -> list[str]:
    """A run through the cache writes and warns what one without it does; the inputs it lowered."""
    lowered.clear()
    result = _run(project, command)
    done = list(lowered)
    expected = _uncached(project, command, monkeypatch)
    assert dict(result.files) == dict(expected.files)
    assert result.warnings == expected.warnings and any("not" in str(w) for w in result.warnings)
    return done


def test_an_edit_lowers_the_input_edited_and_those_that_refer_to_it(project: Path, lowered: list[str],
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    assert _same(project, "one", monkeypatch, lowered) == ["schemas/a.json", "schemas/b.json", "schemas/c.json"]
    assert _same(project, "two", monkeypatch, lowered) == []  # the variants' text changed, no input
    _write(project, "c.json", {"definitions": {"Alone": _model("Edited.", y={"type": "integer", "not": {}})}})
    assert _same(project, "three", monkeypatch, lowered) == ["schemas/c.json"]
    _write(project, "b.json", {"definitions": {"User": _model("Edited.", shared={"$ref": "a.json#/definitions/Shared"})}})
    assert _same(project, "four", monkeypatch, lowered) == ["schemas/b.json"]
    _write(project, "a.json", {"definitions": {"Shared": _model("Edited.", z={"type": "boolean"})}})
    assert _same(project, "five", monkeypatch, lowered) == ["schemas/a.json", "schemas/b.json"]


def test_the_modules_of_an_input_kept_are_not_written_again(project: Path, lowered: list[str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Nor laid out, nor formatted: their text is kept by what the IR was made from."""
    laid_out: list[str] = []
    original = Memo.plan

    def counted(self: Memo, module: Any, variant: str, source: str, *args: Any) -> Any:
        laid_out.append(f"{source} {variant}")
        return original(self, module, variant, source, *args)

    monkeypatch.setattr(Memo, "plan", counted)
    _same(project, "one", monkeypatch, lowered)
    laid_out.clear()
    _write(project, "c.json", {"definitions": {"Alone": _model("Edited.", y={"type": "integer", "not": {}})}})
    _same(project, "one", monkeypatch, lowered)  # (the same options: only c's modules change)
    assert sorted({line.split()[0] for line in laid_out}) == ["schemas/c.json"]
    laid_out.clear()
    _same(project, "two", monkeypatch, lowered)  # other options: every module's header changes
    assert len({line.split()[0] for line in laid_out}) == 3


def test_an_input_whose_texts_are_kept_is_not_read(project: Path, lowered: list[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Its warnings are enough; its IR is read only when a module of it is to be written."""
    read: list[int] = []
    original = memo.Kept.module
    monkeypatch.setattr(memo.Kept, "module", lambda self: read.append(1) or original(self))
    _same(project, "one", monkeypatch, lowered)
    _write(project, "c.json", {"definitions": {"Alone": _model("Edited.", y={"type": "integer", "not": {}})}})
    _same(project, "one", monkeypatch, lowered)
    assert read == []  # a and b: kept, texts too
    _same(project, "two", monkeypatch, lowered)
    assert len(read) == 3  # other options: every module is written again, from the IR kept


def test_an_ir_that_cannot_be_read_is_lowered_again(project: Path, lowered: list[str], tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    _same(project, "one", monkeypatch, lowered)
    damaged = {}
    for slot, value in _kept(tmp_path / "cache").items():
        key, kept = pickle.loads(value)
        damaged[slot] = pickle.dumps((key, memo.Kept(kept.warnings, kept.referred, kept.read, b"not an IR")))
    with Cache(tmp_path / "cache") as store:
        store.put_many(memo.NAMESPACE, damaged)
    assert sorted(_same(project, "two", monkeypatch, lowered)) == ["schemas/a.json", "schemas/b.json", "schemas/c.json"]


def test_what_b_refers_to_is_followed_through_the_inputs_it_refers_to(project: Path, lowered: list[str],
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """``d`` refers to ``b``, which refers to ``a``: an edit of ``a`` that renames what ``b`` declares makes
    ``d`` lowered again too, although ``b``'s own files did not change."""
    _write(project, "d.json", {"definitions": {"Team": _model("A team.", lead={"$ref": "b.json#/definitions/User"})}})
    _same(project, "one", monkeypatch, lowered)
    _write(project, "a.json", {"definitions": {"Shared": _model("Edited.")}})
    assert _same(project, "two", monkeypatch, lowered) == ["schemas/a.json", "schemas/b.json", "schemas/d.json"]


def test_a_file_an_input_reads_makes_that_input_lowered_again(project: Path, lowered: list[str],
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A file of the schema folder that is no input, read by an input's reference, is kept with the IR
    of the inputs that read it; an edit of it makes those lowered again, and no other."""
    (project / "pyproject.toml").write_text(CONFIG + '\n[[tool.schemagen.inputs]]\npath = "schemas/a.json"\n'
                                            '\n[[tool.schemagen.inputs]]\npath = "schemas/c.json"\n', encoding="utf-8")
    _write(project, "a.json", {"definitions": {"Shared": _model("Shared.", more={"$ref": "parts/more.json"})}})
    _write(project, "parts/more.json", _model("More."))
    _same(project, "one", monkeypatch, lowered)
    _write(project, "parts/more.json", _model("More, edited.", n={"type": "number"}))
    assert _same(project, "two", monkeypatch, lowered) == ["schemas/a.json"]
    _write(project, "parts/other.json", _model("Read by no input."))
    assert _same(project, "three", monkeypatch, lowered) == []


def test_an_edit_of_a_file_of_a_folder_input_lowers_that_input(project: Path, lowered: list[str],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A folder of component files (each ``$id`` is ``#/components/schemas/<Name>``) is one input."""
    def component(name: str, description: str, **properties: Any) -> dict[str, Any]:
        return {"$id": f"#/components/schemas/{name}", **_model(description, **properties)}

    _write(project, "folder/One.json", component("One", "One."))
    _write(project, "folder/Two.json", component("Two", "Two.", one={"$ref": "#/components/schemas/One"}))
    assert "schemas/folder/" in _same(project, "one", monkeypatch, lowered)
    _write(project, "folder/One.json", component("One", "One, edited."))
    assert _same(project, "two", monkeypatch, lowered) == ["schemas/folder/"]


def test_an_edit_of_an_overlay_lowers_the_input_it_mends(project: Path, lowered: list[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    def overlay(description: str) -> str:
        return ("overlay: 1.0.0\ninfo: {title: mends, version: 1.0.0}\nextends: c.json\nactions:\n"
                f"  - target: $.definitions.Alone\n    update: {{description: {description!r}}}\n")

    (project / "schemas" / "c.overlay.yaml").write_text(overlay("Mended."), encoding="utf-8")
    assert "schemas/c.json" in _same(project, "one", monkeypatch, lowered)
    (project / "schemas" / "c.overlay.yaml").write_text(overlay("Mended again."), encoding="utf-8")
    assert _same(project, "two", monkeypatch, lowered) == ["schemas/c.json"]


def test_an_input_with_errors_is_lowered_and_reported_in_every_run(project: Path, lowered: list[str]) -> None:
    _write(project, "c.json", {"definitions": {"Alone": {"$ref": "#/definitions/Missing"}}})
    for command in ("one", "two"):
        lowered.clear()
        with pytest.raises(SchemaError) as caught:
            _run(project, command)
        assert "schemas/c.json" in lowered and "Missing" in str(caught.value.diagnostics[0])


def test_one_input_alone_is_not_kept(project: Path, tmp_path: Path) -> None:
    for name in ("b.json", "c.json"):
        (project / "schemas" / name).unlink()
    _run(project, "one")
    assert _kept(tmp_path / "cache") == {}


def test_a_damaged_entry_is_lowered_again(project: Path, lowered: list[str], tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    _same(project, "one", monkeypatch, lowered)
    slots = list(_kept(tmp_path / "cache"))
    assert len(slots) == 3
    with Cache(tmp_path / "cache") as store:
        store.put_many(memo.NAMESPACE, {slots[0]: b"damaged", slots[1]: pickle.dumps(("key", "no IR"))})
    assert len(_same(project, "two", monkeypatch, lowered)) == 2


def test_the_key_does_not_change_with_the_hash_seed(project: Path, tmp_path: Path) -> None:
    """Computed in processes of random hash seeds (none set), an input's key is the same: sets of names
    are said in a fixed order. (Six inputs: orders that happen to agree are one in 720.)"""
    for name in "defg":
        _write(project, f"{name}.json", {"definitions": {name.upper(): _model(name)}})
    script = ("import sys; from pathlib import Path; from schemagen.cache.lowered import Lowered; "
              "from schemagen.cache.store import Cache; from schemagen.project import config; "
              "from schemagen.project.inputs import discover; from schemagen.project.link import Linker; "
              "from schemagen.project.pipeline import Stages; c = config.load(Path(sys.argv[1])); s = discover(c); "
              "l = Linker(s, c, Stages(lowered=Lowered(Cache(Path(sys.argv[2])), 'salt', ''))); "
              "print([l._key(i) for i in s])")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONHASHSEED"}
    keys = {subprocess.run([sys.executable, "-c", script, str(project), str(tmp_path / "c")], env=env, check=True,
                           capture_output=True, text=True).stdout for _ in range(3)}
    assert len(keys) == 1 and "None" not in keys.pop()
