"""What the speed-ups (``schemagen.cache``: the formatter, the store, the no-op run) promise, checked.

- Cutting a module along chunks met before (``known.cut``) gives the chunks ``split`` gives, whatever
  part of them is known.
- Formatting declaration by declaration gives the bytes black gives on the whole module: on every
  golden case and variant, on handmade modules meant to trip it, on random declarations, and on a part
  of OpenAI's description (all of it with ``SCHEMAGEN_CONTRACT_FULL=1``: black on three 1.4 MB
  modules takes minutes).
- Every golden output and every generated file is as black leaves it.
- A damaged cache (an entry, or the whole file) is ignored; a write is all or nothing.
- With nothing changed, ``plan`` lowers, renders and formats nothing, and the command does not even
  import black; any change to an input, a template or the options is seen.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from typing import Any
from pathlib import Path

import black
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from schemagen.cache import fingerprint, store as caching
from schemagen.cache.format import Session
from schemagen.cache.format.chunks import split
from schemagen.cache.format.known import cut, pieces
from schemagen.cache.format.stable import is_stable
from schemagen.diagnostics import Reporter
from schemagen.project import config as configuration, link, pipeline, plan as generate, write
from schemagen.project.config import ALL_VARIANTS
from schemagen.project.inputs import Input
from schemagen.project.pipeline import to_ir
from schemagen.render import literals
import schemagen.render as rendering
from schemagen.render.format import FormatError, format_whole, mode
from schemagen.render.options import RenderOptions
from golden import ROOT, Case, cases

from conftest import bench_module, examples, shared

closed_subset = bench_module("subset").closed_subset

GOLDEN_MODULES = sorted(ROOT.glob("tests/golden/*/expected/*.py"))
GENERATED_MODULES = sorted((ROOT / "generated").rglob("*.py"))


def _raw(source: Input, variant: str, options: RenderOptions = RenderOptions()) -> str:
    module = to_ir(source, ROOT, Reporter())
    return rendering.layout(module, variant, source.display, rendering.environment(), options)


# --- the same bytes as whole-file black ---------------------------------------------------------------

@pytest.mark.parametrize("path", GOLDEN_MODULES + GENERATED_MODULES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_golden_output_and_generated_file_is_black_stable(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert black.format_str(text, mode=mode()) == text


@pytest.mark.parametrize("case", [c for c in cases() if not (c.folder / "expected" / "error.txt").exists()],
                         ids=lambda c: c.name)
def test_formatting_by_declaration_is_whole_file_black_on_golden_cases(case: Case) -> None:
    for source in case.inputs:
        item = Input("case", source, source.relative_to(ROOT).as_posix(), case.dialect)  # type: ignore[arg-type]
        for variant in ALL_VARIANTS:
            raw = _raw(item, variant, case.options)
            session = Session()
            assert session.format([raw]) == [format_whole(raw)], f"{source.name} → {variant}"
            # by chunks: the splitter knows the declarations, the session the prelude's chunks
            assert session.stats.modules_whole == 0, "the formatter should know generated modules"
            _cut_along_known_chunks(raw)


def _cut_along_known_chunks(text: str) -> None:
    """Whichever of its chunks are known (all, every other one, none, those of an edited copy),
    ``known.cut`` gives what ``split`` gives, or leaves it to ``split``."""
    chunks = split(text) or []
    kinds = {c.text: (c.first, c.last) for c in chunks}
    edited = text.replace('"""', '"""Edited. ', 1)
    for known in (kinds, dict(list(kinds.items())[::2]), dict(list(kinds.items())[1::2]), {},
                  {c.text: (c.first, c.last) for c in split(edited) or []}):
        got = cut(text, pieces(text), known)
        assert got == (chunks or None) or (got is None and not chunks)


HANDMADE = {
    "a declaration inside a string": 'import x\n\nA = int\n"""Doc.\n\nclass B:\n    pass\n\n\nC = 1\n"""\n\n\nclass C:\n    pass\n',
    "no blank line between declarations": 'import x\n\nA = int\nB = str\n\n\nclass C:\n    pass\nD = C\n',
    "a line of spaces": 'import x\n\nA = int\n   \n\nB = str\n\n\nclass C:\n    x: int\n    \n\nD = C\n',
    "comment between declarations": 'import x\n\n\nclass A:\n    a: int\n\n\n# note\nB = int\n',
    "module docstring": '"""Doc."""\n\nimport x\n\nA = int\n',
    "no imports": '# header\nA = int\n\n\nclass B:\n    pass\n',
    "fmt off": 'import x\n\n# fmt: off\nA = [1,\n  2]\n# fmt: on\nB = int\n',
    "function": 'import x\n\n\ndef f(): ...\nA = int\n',
    "nested class": 'import x\n\n\nclass A:\n    class B:\n        pass\n    x: int\n',
    "f-string": 'import x\n\nA = f"{1}"\nB = int\n',
    "blank lines kept up to two": 'import x\nA = int\nB = int\n\nC = int\n\n\n\n\nD = int\n"""D."""\nE = int\n',
    "class after alias, alias after class": 'import x\nA = int\nclass B:\n    x: int\nC = int\n"""C."""\n\n\n\nD = int\n',
    "decorators": 'import x\n\n\n@a\n@b(c=1)\nclass A:\n    """Doc."""\n\n    x: int = 1\n',
    "docstring only": 'import x\n\n\nclass A:\n    """Doc."""\nB = int\n',
    "docstring without the blank line": 'import x\n\n\nclass A:\n    """Doc."""\n    x: int\n',
    "blank line inside a body": 'import x\n\n\nclass A:\n    x: int\n\n    y: int\n',
    "string quotes": "import x\n\n\nA = Literal['a', \"b'\", 'c\"', \"d\\\"\"]\n",
    "numbers": "import x\n\nA = Literal[1E5, 0XFF, 1e+100, 1.0, -2, 0o17, 1_000, 1J]\n",
    "parentheses": "import x\n\nA = (int)\nB = (int, str)\n\n\nclass C():\n    x: (int) = (1)\n",
    "spacing": "import x\n\nA  =  int\nB = list[ int ]\nC = dict[str,int]\nD = f(a = 1)\nE = -1\nF = lambda : 1\n",
    "trailing commas": "import x\n\nA = Literal[1,]\nB = f(a, b,)\nC = tuple[int,]\n",
    "line lengths": "import x\n\nA = " + " | ".join(f"T{i:04}" for i in range(12)) + "\nB = " + " | ".join(f"T{i:05}" for i in range(12)) + "\n",
    "wide characters": "import x\n\nA = Literal[\"" + "宽" * 38 + "\"]\nB = Literal[\"" + "宽" * 41 + "\"]\n",
    "docstring quirks": 'import x\n\n\nclass A:\n    """  padded  """\n\n\nclass B:\n    """Ends with a quote\\""""\n\n\nclass C:\n    """\tTabbed\n\tlines\n\t"""\n\n\nclass D:\n    """Indented\n        more\n        lines\n    """\n\n\nclass E:\n    """Back\\\\slash\\\\"""\n',
    "escapes": 'import x\n\nA = Literal["\\xAB", "\\N{BULLET}", "\\u00e9", u"u", R"raw", B"b"]\n"""Doc \\x1b."""\n',
    "long docstring last line": 'import x\n\n\nclass A:\n    """First line.\n\n    ' + "word " * 17 + '"""\n',
    "comment in a class": 'import x\n\n\nclass A:  # c\n    x: int  # c\n    # c\n    y: int\n',
    "long class statements": 'import x\n\n\nclass A(Struct, kw_only=True, tag_field="type", tag="response.output_text.annotation.added"):\n    x: int\n\n\nclass B(Struct, kw_only=True, forbid_unknown_fields=True, tag_field="type", tag="response.output_text.annotation.added"):\n    x: int\n\n\nclass C(Struct, kw_only=True, tag_field="type", tag="response.output_text.annotation.added.and.more.and.more.and.more.text"):\n    pass\n\n\nclass D(Struct, kw_only=True, tag_field="type", tag="response", tag2=f(a, b, c, d, e, f, g, h, i, j)):\n    pass\n\n\nclass VeryLongClassNameThatGoesOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOn(Base, Other):\n    pass\n\n\nclass E(VeryLongBaseClassNameThatGoesOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOn):\n    pass\n',
    "long class statement": 'import x\n\n\n@dataclass(kw_only=True)\nclass A(Struct, kw_only=True, tag_field="type", tag="response.output_text.annotation.added.x"):\n    """Doc."""\n\n    x: int\n',
    "long fields and aliases": 'import x\n\n\nclass A:\n    x: Annotated[list[' + " | ".join(f"Type{i}" for i in range(9)) + '], Meta(max_length=128)] | UnsetType = UNSET\n    """Doc."""\n    y: int\nB = Literal[' + ", ".join(f'"value-{i}"' for i in range(20)) + ']\n"""B."""\n',
    "two statements on a line": 'import x\n\n\nclass A:\n    x: int; y: int\n',
    "semicolon alias": 'import x\n\nA = int; B = str\n',
}


def _as_whole_file_black(text: str) -> None:
    """Formatting by declaration gives black's bytes, or fails as black does."""
    try:
        expected = format_whole(text)
    except FormatError:
        with pytest.raises(FormatError):
            Session().format([text])
    else:
        assert Session().format([text]) == [expected]


@pytest.mark.parametrize("text", HANDMADE.values(), ids=HANDMADE.keys())
def test_formatting_by_declaration_is_whole_file_black_on_handmade_modules(text: str) -> None:
    _as_whole_file_black(text)
    _cut_along_known_chunks(text)


@pytest.mark.parametrize("text", HANDMADE.values(), ids=HANDMADE.keys())
def test_a_chunk_said_to_be_stable_is_stable(text: str) -> None:
    for chunk in split(text) or []:
        if is_stable(chunk.text):
            assert black.format_str(chunk.text, mode=mode()) == chunk.text


_WORDS = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40)
_LITERALS = st.one_of(st.integers(-10**20, 10**20), st.floats(allow_nan=False, allow_infinity=False),
                      _WORDS, st.booleans(), st.none())


@st.composite
def _declaration(draw: st.DrawFn) -> str:
    name = draw(st.sampled_from(["A", "Model", "VeryLongDeclarationNameForAModelThatGoesOnAndOn"]))
    doc = draw(st.one_of(st.none(), _WORDS, st.lists(_WORDS, max_size=4).map("\n".join)))
    fields = draw(st.lists(st.tuples(st.sampled_from(["x", "field_name", "a_much_longer_field_name_than_usual"]),
                                     st.lists(_LITERALS, min_size=1, max_size=6), st.one_of(st.none(), _WORDS)),
                           max_size=4))
    lines = ["@dataclass(kw_only=True)", f"class {name}:"]
    if doc:
        lines += ["    " + literals.docstring(doc, "    ")] + ([""] if fields else [])
    for field_name, values, field_doc in fields:
        annotation = f"Literal[{', '.join(literals.value(v) for v in values)}] | None"
        lines.append(f"    {field_name}: {annotation} = {literals.value(values[0])}")
        if field_doc:
            lines.append("    " + literals.docstring(field_doc, "    "))
    if not doc and not fields:
        lines.append("    pass")
    alias = f"{name}Alias = Literal[{', '.join(literals.value(v) for _, values, _ in fields for v in values) or '1'}]"
    return "\n".join(lines) + "\n" + alias + "\n" + (literals.docstring(doc, "") + "\n" if doc else "")


@settings(max_examples=examples(150), suppress_health_check=list(HealthCheck))
@given(st.lists(_declaration(), min_size=1, max_size=3))
def test_formatting_by_declaration_is_whole_file_black_on_random_declarations(declarations: list[str]) -> None:
    text = "from __future__ import annotations\n\nfrom typing import Literal\n\n\n" + "\n\n".join(declarations)
    _as_whole_file_black(text)
    _cut_along_known_chunks(text)


def _openai_raw(tmp_path: Path, size: int | None) -> dict[str, str]:
    module = _openai_module(tmp_path, size)
    env = rendering.environment()
    return {v: rendering.layout(module, v, "openapi.yaml", env) for v in ALL_VARIANTS}


def _openai_module(tmp_path: Path, size: int | None) -> Any:
    from schemagen.frontend.read import read_document
    import yaml

    full = shared("corpora/openai/openapi.yaml")
    path = full
    if size is not None:
        document = closed_subset(read_document(full, "openapi.yaml"), size)
        path = tmp_path / "openapi.yaml"
        path.write_text(yaml.dump(document, Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper), sort_keys=False,
                                  allow_unicode=True), encoding="utf-8")
    return to_ir(Input("openai", path, "openapi.yaml"), path.parent, Reporter())


def test_formatting_by_declaration_is_whole_file_black_on_openai(tmp_path: Path) -> None:
    """Part of OpenAI's description (all of it with SCHEMAGEN_CONTRACT_FULL=1)."""
    full = os.environ.get("SCHEMAGEN_CONTRACT_FULL") == "1"
    raws = _openai_raw(tmp_path, None if full else 150)
    session = Session()
    formatted = session.format(list(raws.values()))
    assert session.stats.modules_whole == 0
    for (variant, raw), out in zip(raws.items(), formatted):
        assert out == format_whole(raw), variant


def test_a_module_spliced_from_kept_fragments_is_whole_file_black_on_openai(tmp_path: Path) -> None:
    """Part of OpenAI's description (all of it with SCHEMAGEN_CONTRACT_FULL=1) through the render memo
    twice: its fragments formatted apart and spliced, then spliced from what the memo kept."""
    from schemagen.cache.memo import Memo

    module = _openai_module(tmp_path, None if os.environ.get("SCHEMAGEN_CONTRACT_FULL") == "1" else 150)
    env = rendering.environment()
    expected = {v: format_whole(rendering.layout(module, v, "openapi.yaml", env)) for v in ALL_VARIANTS}
    for round in ("made", "kept"):
        with caching.Cache(tmp_path / "cache") as store:
            memo = Memo(store, "salt")
            for variant in ALL_VARIANTS:
                plan = memo.plan(module, variant, "openapi.yaml", RenderOptions())
                assert plan.misses == (len(module.declarations) if round == "made" else 0)
                assert memo.formatted(plan, env, Session(store)) == expected[variant], (variant, round)


# --- the cache ----------------------------------------------------------------------------------------

def test_a_module_cut_along_cached_chunks_is_formatted_as_whole_file_black(tmp_path: Path) -> None:
    declarations = [f'class M{i}(Struct):\n    """Doc {i}."""\n\n    x: int = {i}\n' for i in range(6)]
    text = "from msgspec import Struct\n\n\n" + "\n\n".join(declarations) + 'A = M1\n"""A."""\n'
    with caching.Cache(tmp_path) as store:
        assert Session(store).format([text]) == [format_whole(text)]
    edited = text.replace("Doc 3.", "Doc 3, edited;   and long " + "word " * 20).replace("x: int = 5", "x: int=5")
    with caching.Cache(tmp_path) as store:
        second = Session(store)
        assert second.format([edited]) == [format_whole(edited)]
    assert second.stats.cached == 6  # the header and every declaration but the two edited
    assert second.stats.whole + second.stats.by_statement + second.stats.as_is == 2


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv(caching.ENV, str(folder))
    return folder


def test_the_cache_lives_where_the_environment_says(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert caching.location() == cache_dir
    monkeypatch.setenv(caching.ENV, "off")
    assert caching.Cache.from_environment() is None
    monkeypatch.delenv(caching.ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache_dir / "xdg"))
    assert caching.location() == cache_dir / "xdg" / "schemagen"


def test_a_damaged_entry_is_ignored(cache_dir: Path) -> None:
    with caching.Cache(cache_dir) as store:
        store.put_many("chunk", {"a": b"first", "b": b"second"})
    db = sqlite3.connect(cache_dir / caching.FILE)
    with db:
        db.execute("UPDATE entries SET value = ? WHERE key = 'a'", (b"tampered",))
    db.close()  # (a connection's ``with`` commits; it does not close)
    with caching.Cache(cache_dir) as store:
        assert store.get_many("chunk", ["a", "b"]) == {"b": b"second"}


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.text(max_size=5000), st.binary(max_size=5000)), max_size=4))
def test_a_digest_is_the_sha256_of_its_parts_each_after_its_length(parts: list[str | bytes]) -> None:
    """The framing every cache key is made by (so that no two lists of parts collide), whichever way the parts
    are fed, and with the prefix hashed once (``digests``)."""
    expected = hashlib.sha256()
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        expected.update(len(data).to_bytes(8, "big") + data)
    assert caching.digest(*parts) == expected.hexdigest()
    if parts:
        assert caching.digests(*parts[:-1])(parts[-1]) == expected.hexdigest()


def test_a_row_read_for_another_key_is_ignored(cache_dir: Path) -> None:
    """A row is sealed with its namespace and key: one found under another key (a damaged index, say) is not
    read as that key's value."""
    with caching.Cache(cache_dir) as store:
        store.put_many("chunk", {"a": b"first", "b": b"second"})
        store.put("plan", "a", b"third")
    db = sqlite3.connect(cache_dir / caching.FILE)
    with db:
        db.execute("DELETE FROM entries WHERE key = 'b'")
        db.execute("UPDATE entries SET key = 'b' WHERE key = 'a' AND namespace = 'chunk'")
        db.execute("UPDATE entries SET namespace = 'chunk', key = 'a' WHERE namespace = 'plan'")
    db.close()
    with caching.Cache(cache_dir) as store:
        assert store.get_many("chunk", ["a", "b"]) == {}


def test_a_damaged_file_is_ignored_and_replaced(cache_dir: Path) -> None:
    cache_dir.mkdir()
    (cache_dir / caching.FILE).write_bytes(b"this is not a database" * 100)
    with caching.Cache(cache_dir) as store:
        assert store.get("chunk", "a") is None
        store.put("chunk", "a", b"value")
    with caching.Cache(cache_dir) as store:
        assert store.get("chunk", "a") == b"value"


def test_a_file_of_an_earlier_layout_is_laid_out_again(cache_dir: Path) -> None:
    cache_dir.mkdir()
    db = sqlite3.connect(cache_dir / caching.FILE)
    with db:
        db.execute("CREATE TABLE entries (namespace TEXT NOT NULL, key TEXT NOT NULL, digest TEXT NOT NULL, "
                   "value BLOB NOT NULL, PRIMARY KEY (namespace, key)) WITHOUT ROWID")
        db.execute("INSERT INTO entries VALUES ('chunk', 'a', ?, ?)", (hashlib.sha256(b"old").hexdigest(), b"old"))
    db.close()
    with caching.Cache(cache_dir) as store:
        assert store.get("chunk", "a") is None
        store.put("chunk", "a", b"new")
    with caching.Cache(cache_dir) as store:
        assert store.get("chunk", "a") == b"new"
    with sqlite3.connect(cache_dir / caching.FILE) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (caching.LAYOUT,)
        assert "WITHOUT ROWID" not in db.execute("SELECT sql FROM sqlite_master WHERE name = 'entries'").fetchone()[0]
    db.close()


def test_a_write_is_all_or_nothing(cache_dir: Path) -> None:
    class Interrupted(dict[str, bytes]):
        def items(self) -> Iterator[tuple[str, bytes]]:  # type: ignore[override]
            yield "a", b"first"
            raise KeyboardInterrupt  # half-way through the transaction

    with caching.Cache(cache_dir) as store:
        with pytest.raises(KeyboardInterrupt):
            store.put_many("chunk", Interrupted(a=b"first"))
        store.put("chunk", "b", b"second")
    with caching.Cache(cache_dir) as store:
        assert store.get_many("chunk", ["a", "b"]) == {"b": b"second"}
    assert store._db is None  # closed by its owner


def test_the_generator_digest_reads_the_files_rglob_finds_and_sees_any_change_of_their_bytes(tmp_path: Path) -> None:
    for name in ("a.py", "a/b.py", "a/c.txt", "a.b/d.py", "a/__pycache__/e.py", "z/y/x.py", "B.py", "a/.h.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(name)
    (tmp_path / "link").symlink_to(tmp_path / "z", target_is_directory=True)
    (tmp_path / "file-link.py").symlink_to(tmp_path / "a.py")
    expected = [p for p in sorted(tmp_path.rglob("*.py")) if "__pycache__" not in p.relative_to(tmp_path).parts]
    tree = fingerprint._tree(tmp_path, ".py", skip="__pycache__")
    assert tree[::2] == [p.relative_to(tmp_path).as_posix() for p in expected]
    assert tree[1::2] == [p.read_bytes() for p in expected]
    target = tmp_path / "z" / "y" / "x.py"
    stat = target.stat()
    target.write_text("z/y/X.py")  # the same size, and (below) the same time: a content change all the same
    os.utime(target, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert fingerprint._tree(tmp_path, ".py", skip="__pycache__") != tree


def test_a_run_closes_its_cache(project: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Its connection is closed by the run, not left to the collector (Python 3.13 warns of that at exit)."""
    closed: list[caching.Cache] = []
    close = caching.Cache.close
    monkeypatch.setattr(caching.Cache, "close", lambda self: (closed.append(self), close(self))[1])
    for _ in range(2):  # a run that generates, then one that finds nothing to do
        generate.plan(configuration.load(project))
        assert len(closed) == 1 and closed.pop()._db is None


def test_an_unusable_cache_folder_is_no_cache(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    store = caching.Cache(blocker / "cache")  # a folder under a file cannot be made
    assert store.get("chunk", "a") is None
    store.put("chunk", "a", b"value")  # and does not raise


# --- no work when nothing changed ---------------------------------------------------------------------

@pytest.fixture
def project(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "schemas", tmp_path / "project" / "schemas")
    for name in ("pyproject.toml", "Makefile"):  # (the Makefile: the headers name `make generate`, as generated/'s)
        shutil.copy(ROOT / name, tmp_path / "project" / name)
    return tmp_path / "project"


def test_a_second_run_with_nothing_changed_does_no_work(project: Path, cache_dir: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    config = configuration.load(project)
    first = generate.plan(config)

    def fail(*args: object) -> None:
        raise AssertionError("lowered or rendered again")

    monkeypatch.setattr(link.Linker, "lower", fail)
    monkeypatch.setattr(pipeline.Renderer, "render", fail)
    second = generate.plan(configuration.load(project))
    assert second.files == first.files and second.warnings == first.warnings
    assert second.files == {p: (ROOT / "generated" / p).read_text() for p in second.files}


def test_a_run_with_nothing_to_write_reads_no_text_and_one_with_a_file_to_write_reads_it_from_the_cache(
        project: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    output = project / "generated"
    first = generate.plan(configuration.load(project))
    write.apply(output, first.files, write.compare(output, first.files))
    monkeypatch.setattr(link.Linker, "lower", lambda *args: pytest.fail("lowered again"))
    read: list[object] = []
    texts = fingerprint.Results.texts
    monkeypatch.setattr(fingerprint.Results, "texts", lambda self: read.append(self) or texts(self))
    second = generate.plan(configuration.load(project))
    changes = write.compare(output, second.files)
    assert changes.written == [] and len(changes.unchanged) == len(first.files) and read == []
    edited = output / "openai" / "msgspec_models.py"
    edited.write_text(edited.read_text() + "# edited\n")
    (output / "openai" / "typeddict_models.py").unlink()
    changes = write.compare(output, second.files)
    assert sorted(p.name for p in changes.written) == ["msgspec_models.py", "typeddict_models.py"]
    write.apply(output, second.files, changes)
    assert len(read) == 1 and {p: (output / p).read_text() for p in first.files} == dict(first.files)


def test_the_digest_of_a_module_the_memo_put_together_is_the_one_of_its_bytes(project: Path, cache_dir: Path) -> None:
    """The memo tells the digest of each module it put together (the run does not work it out again): the
    one ``write`` compares files by; and its bytes, which ``write`` writes (the text is not encoded again)."""
    result = generate.plan(configuration.load(project))
    assert result.restorable
    assert all(result.files.digests[p] == write.digest(result.files[p].encode()) for p in result.files)
    assert result.files.encoded.keys() == result.restorable.keys()
    assert all(result.files.bytes_of(p) == result.files[p].encode() for p in result.files)


def test_kept_texts_the_cache_lost_are_made_again(project: Path, cache_dir: Path) -> None:
    first = generate.plan(configuration.load(project))
    with sqlite3.connect(cache_dir / caching.FILE) as db:
        db.execute("DELETE FROM entries WHERE namespace = ?", (fingerprint.TEXTS,))
    db.close()
    second = generate.plan(configuration.load(project))
    assert second.files.digests == first.files.digests and dict(second.files) == dict(first.files)


def test_a_kept_result_names_the_modules_the_memo_can_put_together_again_instead_of_holding_their_text(
        project: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The texts of a kept result are megabytes a run would store each time; a module the render memo put
    together is kept as a reference to it, and put together again from it when a file is to be written
    (made again whole when the memo lost an entry)."""
    output = project / "generated"
    made: list[bool] = []
    making = generate._made
    monkeypatch.setattr(generate, "_made", lambda *args: made.append(True) or making(*args))
    first = generate.plan(configuration.load(project))
    with sqlite3.connect(cache_dir / caching.FILE) as db:
        [(data,)] = db.execute("SELECT value FROM entries WHERE namespace = ?", (fingerprint.TEXTS,)).fetchall()
    db.close()
    kept = pickle.loads(data[data.index(b"\x80"):])
    referred = {p for p, t in kept.items() if isinstance(t, tuple)}
    assert {p.name for p in referred} >= {"msgspec_models.py", "dataclass_models.py", "typeddict_models.py"}
    for lost in (False, True):
        write.apply(output, first.files, write.compare(output, first.files))
        (output / "openai" / "msgspec_models.py").unlink()
        if lost:
            with sqlite3.connect(cache_dir / caching.FILE) as db:
                db.execute("DELETE FROM entries WHERE namespace = 'declaration'")
            db.close()
        made.clear()
        again = generate.plan(configuration.load(project))
        assert dict(again.files) == dict(first.files)
        assert made == ([True] if lost else []), lost


@pytest.mark.parametrize("change", ["input", "template", "options"])
def test_a_change_is_seen(project: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch, change: str) -> None:
    generate.plan(configuration.load(project))
    if change == "input":
        target = project / "schemas" / "openai" / "TokenLogprob.json"
        target.write_text(target.read_text().replace('"token"', '"the_token"'))
    elif change == "template":
        (project / "my_templates").mkdir()
        builtin = (rendering.BUILTIN_TEMPLATES / "msgspec.py.jinja").read_text()
        frozen = builtin.replace("{{ m.class_line(d) }}", "class {{ d.name }}({{ d.base }}, frozen=True"
                                 "{% for option in d.options %}, {{ option }}{% endfor %}):")
        assert frozen != builtin
        (project / "my_templates" / "msgspec.py.jinja").write_text(frozen)
        (project / "pyproject.toml").write_text((project / "pyproject.toml").read_text().replace(
            'output = "generated"', 'output = "generated"\ntemplates = "my_templates"'))
    else:
        (project / "pyproject.toml").write_text((project / "pyproject.toml").read_text().replace(
            'output = "generated"', 'output = "generated"\nenums = "class"'))
    cached = generate.plan(configuration.load(project))
    monkeypatch.setenv(caching.ENV, "off")
    assert cached.files == generate.plan(configuration.load(project)).files
    assert cached.files != {p: (ROOT / "generated" / p).read_text() for p in cached.files}


def test_the_cache_keeps_one_result_per_project_however_often_it_runs(project: Path, cache_dir: Path) -> None:
    target = project / "schemas" / "openai" / "TokenLogprob.json"
    original = target.read_text()
    first = generate.plan(configuration.load(project))
    for i in range(3):
        target.write_text(original.replace('"token"', f'"token_{i}"'))
        generate.plan(configuration.load(project))
    with sqlite3.connect(cache_dir / caching.FILE) as db:
        assert db.execute("SELECT COUNT(*) FROM entries WHERE namespace = 'plan'").fetchone() == (1,)
        assert db.execute("SELECT COUNT(*) FROM entries WHERE namespace = 'texts'").fetchone() == (1,)
    target.write_text(original)
    assert generate.plan(configuration.load(project)).files == first.files  # run again, not the last one's


def test_a_run_with_a_damaged_cache_file_writes_the_same(project: Path, cache_dir: Path) -> None:
    cache_dir.mkdir()
    (cache_dir / caching.FILE).write_bytes(os.urandom(4096))
    result = generate.plan(configuration.load(project))
    assert result.files == {p: (ROOT / "generated" / p).read_text() for p in result.files}


def _run(project: Path, cache_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, caching.ENV: str(cache_dir), "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, *args, "-m", "schemagen", "--project", str(project), "generate"],
                          capture_output=True, text=True, env=env, cwd=project)


def test_the_command_with_nothing_changed_imports_no_stage(project: Path, cache_dir: Path) -> None:
    assert _run(project, cache_dir).returncode == 0
    again = _run(project, cache_dir, "-X", "importtime")
    assert again.returncode == 0 and "0 written" in again.stderr
    imported = {line.split("|")[-1].strip() for line in again.stderr.splitlines() if line.startswith("import time:")}
    assert "schemagen.cache.fingerprint" in imported
    assert not imported & {"black", "jinja2", "jsonschema", "yaml", "schemagen.lower", "schemagen.project.pipeline",
                           "schemagen.frontend.dialects", "schemagen.diagnostics.toml_positions"}


LIGHT_RENDER_MODULES = {"schemagen.render", "schemagen.render.options", "schemagen.render.format",
                        "schemagen.render.templates"}
"""What of ``render`` a run with nothing to do may import: the options it reads, the error it catches,
the folder of the built-in templates it digests; no renderer."""


def test_the_command_with_nothing_changed_imports_no_render_or_lower_stage(project: Path, cache_dir: Path) -> None:
    """The modules loaded at the end of a run that found nothing to do: none of the stages that build or
    write modules (``ir``, ``lower``, ``passes``, the renderers, the dialects), nor their libraries."""
    assert _run(project, cache_dir).returncode == 0
    script = ("import sys; from schemagen.cli import main; code = main(['--project', sys.argv[1], 'generate']); "
              "print(*sorted(sys.modules), file=sys.stdout); sys.exit(code)")
    env = {**os.environ, caching.ENV: str(cache_dir), "PYTHONPATH": str(ROOT)}
    again = subprocess.run([sys.executable, "-c", script, str(project)], capture_output=True, text=True, env=env,
                           cwd=project)
    assert again.returncode == 0 and "0 written" in again.stderr, again.stderr
    loaded = set(again.stdout.split())
    assert "schemagen.cache.fingerprint" in loaded
    stages = {m for m in loaded if m.split(".")[:2] in (["schemagen", "ir"], ["schemagen", "lower"],
                                                        ["schemagen", "passes"], ["schemagen", "render"])}
    assert stages <= LIGHT_RENDER_MODULES, sorted(stages - LIGHT_RENDER_MODULES)
    assert not {m for m in loaded if m.startswith("schemagen.frontend.dialects")}
    assert not loaded & {"black", "jinja2", "jsonschema", "yaml", "msgspec", "schemagen.project.pipeline",
                         "schemagen.project.link"}



# --- the meta-schema check remembers what it found valid ------------------------------------------------


def test_a_definition_found_valid_is_not_checked_again_and_a_bad_one_always_is(
        cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from schemagen.cache import verdicts
    from schemagen.frontend import validate
    from schemagen.frontend.dialects import normalise

    def schemas(kind: str) -> object:
        document = {"definitions": {"A": {"type": "string"}, "B": {"type": kind}}}
        return normalise([("x.json", document)], folder=False, dialect="jsonschema", default_name="X",
                         reporter=Reporter())

    checked: list[object] = []

    class Spy:
        schema = validate.validator().schema

        def iter_errors(self, schema: object) -> Iterator[object]:
            checked.append(schema)
            return validate_iter_errors(schema)

    validate_iter_errors = validate.validator().iter_errors
    monkeypatch.setattr(validate, "validator", Spy)
    store = caching.Cache(cache_dir)
    for _ in range(2):
        verdicts.check(schemas("strng"), reporter := Reporter(), {}, store)  # type: ignore[arg-type]
        assert [str(d).split(": not a valid schema: ")[0] for d in reporter.errors] == ["x.json: #/definitions/B/type"]
    assert len(checked) == 3  # A once, B (invalid) both times
    checked.clear()
    verdicts.check(schemas("integer"), Reporter(), {}, store)  # type: ignore[arg-type]
    verdicts.check(schemas("integer"), Reporter(), {}, store)  # type: ignore[arg-type]
    assert len(checked) == 1  # the new B once
    store.close()


def test_definitions_checked_by_other_processes_are_reported_as_if_checked_here(
        cache_dir: Path, monkeypatch: pytest.MonkeyPatch, forks: list[list[object]]) -> None:
    from schemagen.cache import verdicts
    from schemagen.frontend import validate
    from schemagen.frontend.dialects import normalise

    document = {"definitions": {f"D{i}": {"type": "strng" if i % 5 == 0 else "string", "description": f"D{i}",
                                          "title": 3 if i % 7 == 0 else "t"} for i in range(40)}}
    schemas = normalise([("x.json", document)], folder=False, dialect="jsonschema", default_name="X",
                        reporter=Reporter())
    validate.check(schemas, alone := Reporter())
    assert len(alone.errors) == 8 and len(alone.warnings) == 6
    monkeypatch.setattr(verdicts, "PARALLEL_FROM", 0)
    with caching.Cache(cache_dir) as store:
        for run in range(2):  # all 40 to check, then the 12 with something to say
            verdicts.check(schemas, shared := Reporter(), {}, store, processes=3)
            assert (shared.errors, shared.warnings) == (alone.errors, alone.warnings)
            assert len(forks) == 2 * (run + 1)
        with store._connect() as db:  # type: ignore[union-attr]
            valid = db.execute("SELECT COUNT(*) FROM entries WHERE namespace = ?", (verdicts.NAMESPACE,)).fetchone()[0]
    assert valid == 40 - 12


def test_openais_description_read_and_checked_by_two_processes_is_what_one_process_makes(
        tmp_path: Path, forks: list[list[object]]) -> None:
    """The real thing, as a first run meets it: every piece parsed, every definition checked, by two
    processes and by one; the same document (to the pickle) and the same problems in the same order
    (and with two, another process did take part in both: with its thresholds as they are)."""
    from schemagen.cache import verdicts, yaml_pieces
    from schemagen.frontend.dialects import normalise

    path = shared("corpora/openai/openapi.yaml")
    made = []
    for processes in (1, 2):
        with caching.Cache(tmp_path / f"cache-{processes}") as store:
            document = yaml_pieces.read_document(path, "openapi.yaml", store, processes)
            schemas = normalise([("openapi.yaml", document)], folder=False, dialect="auto", default_name="Openapi",
                                reporter=Reporter())
            verdicts.check(schemas, reporter := Reporter(), {}, store, processes)
            made.append((pickle.dumps(document), reporter.errors, reporter.warnings))
    assert made[0] == made[1] and made[0][2]
    assert [type(run[0]).__name__ for run in forks] == ["tuple", "int"]  # (a run of pieces, then of definitions)
