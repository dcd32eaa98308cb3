"""Reading YAML piece by piece (generator/cache/yaml_pieces.py) gives what parsing the whole text gives."""

from __future__ import annotations

import os
import pickle
import shutil
import textwrap
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import examples
from schemagen.cache import yaml_pieces
from schemagen.cache.store import Cache
from schemagen.diagnostics import SchemaError
from schemagen.frontend import nesting, read
from schemagen.frontend.duplicates import DuplicateKeys
from schemagen.project import config as configuration, plan as generate


def parse(text: str) -> Any:
    return read.load_yaml(text)


class Counting:
    def __init__(self) -> None:
        self.texts: list[str] = []

    def __call__(self, text: str) -> Any:
        self.texts.append(text)
        return parse(text)


@pytest.fixture
def cache(tmp_path: Path) -> Cache:
    return Cache(tmp_path / "cache")


@pytest.fixture(autouse=True)
def cut_everything(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(yaml_pieces, "SPLIT", 0)  # cut every mapping entry, however small
    monkeypatch.setattr(yaml_pieces, "PARALLEL_FROM", 0)  # and share out the parsing of however few


def same(text: str, cache: Cache) -> Any:
    """Pieces, cold then warm, against the whole text: equal values, equal order, equal sharing; parsed
    in this process alone, and shared out among three (in a cache of their own: cold again)."""
    whole = parse(text)
    for processes, store in ((1, cache), (3, Cache(cache.folder.parent / f"{cache.folder.name}-shared"))):
        for _ in range(2):
            got, levels = yaml_pieces.load_measured(text, parse, store, "test", processes)
            assert got == whole
            assert pickle.dumps(got) == pickle.dumps(whole)  # key order and shared objects too
            assert levels is None or levels == nesting.levels(whole)
    return whole


DOCUMENT = textwrap.dedent("""\
    openapi: 3.1.0
    # a comment at the top
    info:
      title: T
      version: '1'
    paths:
      /a:
        get:
          responses:
            '200':
              description: ok
            404:
              description: an integer key
    components:
      schemas:
        A:
          type: object
          description: |
            Text with a line
              indented more, a blank line below

            # a heading, not a comment
          properties:
            x: {type: string}
      # a comment less indented than the keys
            y:
              type: integer
        B:
          description: >-
            folded
            text
          allOf: [{$ref: '#/components/schemas/A'}]
        C: &shared
          type: string
          enum: [a, b]
        D:
          description: plain text
            going on below
          anyOf:
          - type: string
          - type: 'null'
    """)


def test_a_document_read_by_pieces_is_the_document(cache: Cache) -> None:
    whole = same(DOCUMENT, cache)
    assert list(whole["components"]["schemas"]) == ["A", "B", "C", "D"]


def test_only_the_edited_piece_is_parsed_again(cache: Cache) -> None:
    counting = Counting()
    yaml_pieces.load(DOCUMENT, counting, cache, "test")
    assert len(counting.texts) > 10
    edited = DOCUMENT.replace("folded\n", "folded and edited\n")
    counting.texts.clear()
    assert yaml_pieces.load(edited, counting, cache, "test") == parse(edited)
    assert counting.texts == ["description: >-\n  folded and edited\n  text\n"]


def test_an_anchor_used_in_its_own_piece_stays_shared(cache: Cache) -> None:
    text = "a:\n  x: &one {k: v}\n  y: *one\nb: 1\n"
    got = same(text, cache)
    assert got["a"]["x"] is got["a"]["y"]
    again = yaml_pieces.load(text, parse, cache, "test")
    assert again["a"]["x"] is again["a"]["y"]


@pytest.mark.parametrize("text", [
    "a: &one {k: v}\nb: *one\n",  # an alias whose anchor is in another piece
    "%YAML 1.1\n---\na: 1\n",  # a directive
    "---\na: 1\n...\n",  # document markers
    "a: 1\nb: 2\n...\n",  # a document end marker after the first line
    "a: 1\n---\nb: 2\n",  # a second document
    "a: 1\n%TAG ! tag:example.com,2000:\nb: 2\n",  # a directive after the first line
    "{a: 1, b: 2}\n",  # flow style at the top
    "- a\n- b\n",  # a sequence
    "just text\n",
    "\ufeffa: 1\nb: 2\n",  # a byte order mark
    "a: 1\r\nb:\r\n  c: 2\r\n",  # CRLF
    "a: 1\nb:\n  c: 2",  # no newline at the end
    "a:\n  plain text\n  on two lines\nb: 1\n",  # a block that is no mapping
    "? complex\n: key\nb: 1\n",
    "a:\n    deep: 1\n  shallow: 2\n",  # not a mapping YAML accepts
])
def test_shapes_it_does_not_cut_give_the_whole_parse(text: str, cache: Cache) -> None:
    try:
        whole = parse(text)
    except yaml.YAMLError:
        with pytest.raises(yaml.YAMLError):
            yaml_pieces.load(text, parse, cache, "test")
        return
    assert yaml_pieces.load(text, parse, cache, "test") == whole


def test_a_syntax_error_is_the_whole_texts(cache: Cache) -> None:
    text = "a: 1\nb:\n  c: [1, 2\n  d: 3\n"
    with pytest.raises(yaml.YAMLError) as whole:
        parse(text)
    with pytest.raises(yaml.YAMLError) as pieces:
        yaml_pieces.load(text, parse, cache, "test")
    assert str(pieces.value) == str(whole.value)


@pytest.mark.parametrize("text", [
    DOCUMENT + "    A:\n      description: the same component again\n",  # in two pieces
    DOCUMENT.replace("      enum: [a, b]\n", "      enum: [a, b]\n      type: integer\n"),  # in one piece
])
def test_a_key_written_twice_is_the_whole_texts_error(text: str, cache: Cache) -> None:
    with pytest.raises(DuplicateKeys) as whole:
        parse(text)
    for _ in range(2):  # cold, then with the other pieces cached
        with pytest.raises(DuplicateKeys) as pieces:
            yaml_pieces.load(text, parse, cache, "test")
        assert pieces.value.found == whole.value.found and len(whole.value.found) == 1


def test_read_document_uses_pieces_for_long_yaml(tmp_path: Path, cache: Cache, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "doc.yaml"
    path.write_text(DOCUMENT, encoding="utf-8")
    monkeypatch.setattr(yaml_pieces, "PIECES_FROM", 0)
    whole = parse(DOCUMENT)
    assert yaml_pieces.read_document(path, "doc.yaml", cache) == whole
    parsed: list[str] = []
    load = yaml_pieces.read.load_yaml
    monkeypatch.setattr(yaml_pieces.read, "load_yaml", lambda text: parsed.append(text) or load(text))
    assert yaml_pieces.read_document(path, "doc.yaml", cache) == whole
    assert parsed == []  # (every piece read back)


def test_an_edit_stores_the_buckets_of_the_pieces_it_changed(cache: Cache, monkeypatch: pytest.MonkeyPatch) -> None:
    """A document's pieces are kept in buckets by its home: an edit stores the bucket of the piece it made and
    of the one it replaced; another home's document keeps buckets of its own."""
    stored: list[int] = []
    put_many = cache.put_many

    def spied(namespace: str, entries: Any) -> None:
        stored.append(len(entries))
        put_many(namespace, entries)

    monkeypatch.setattr(cache, "put_many", spied)
    counting = Counting()
    yaml_pieces.load_measured(DOCUMENT, counting, cache, "test", home="a")
    pieces = len(counting.texts)
    assert len(stored) == 1 and 2 < stored[0] <= min(pieces, yaml_pieces.BUCKETS)  # (in one go, by bucket)
    edited = DOCUMENT.replace("folded\n", "folded and edited\n")
    stored.clear()
    counting.texts.clear()
    assert yaml_pieces.load_measured(edited, counting, cache, "test", home="a")[0] == parse(edited)
    assert len(counting.texts) == 1 and 1 <= stored[0] <= 2
    counting.texts.clear()
    assert yaml_pieces.load_measured(DOCUMENT, counting, cache, "test", home="b")[0] == parse(DOCUMENT)
    assert len(counting.texts) == pieces  # (another home: its own buckets)
    counting.texts.clear()
    assert yaml_pieces.load_measured(edited, counting, cache, "test", home="a")[0] == parse(edited)
    assert counting.texts == []


def test_a_piece_written_twice_is_two_values(cache: Cache) -> None:
    """Two pieces of the same text are parsed once (one key), and still make two objects, as parsing the
    whole text does: an overlay that mends one place must not mend the other."""
    got = same("a:\n  x: {k: [v]}\nb:\n  x: {k: [v]}\nc: 1\n", cache)
    assert got["a"]["x"] == got["b"]["x"] and got["a"]["x"] is not got["b"]["x"]


def test_other_processes_parse_some_of_the_pieces(tmp_path: Path) -> None:
    alone, shared = Counting(), Counting()
    assert yaml_pieces.load(DOCUMENT, alone, Cache(tmp_path / "alone"), "test") == parse(DOCUMENT)
    store = Cache(tmp_path / "shared")
    got, levels = yaml_pieces.load_measured(DOCUMENT, shared, store, "test", processes=2)
    assert pickle.dumps(got) == pickle.dumps(parse(DOCUMENT)) and levels == nesting.levels(got)
    assert 0 < len(shared.texts) < len(alone.texts)  # (what the other process parsed is not counted here)
    again = Counting()
    assert yaml_pieces.load(DOCUMENT, again, store, "test") == got and again.texts == []  # all of them kept


@pytest.mark.parametrize("failure", ["raises", "ends", "no fork"])
def test_what_another_process_does_not_send_is_parsed_here(failure: str, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    here = os.getpid()

    def fragile(text: str) -> Any:
        if os.getpid() != here:
            if failure == "ends":
                os._exit(3)
            raise ValueError("not in this process")
        return parse(text)

    if failure == "no fork":
        monkeypatch.setattr(os, "fork", lambda: (_ for _ in ()).throw(OSError("no more processes")))
    got, levels = yaml_pieces.load_measured(DOCUMENT, fragile, Cache(tmp_path / "cache"), "test", processes=3)
    assert pickle.dumps(got) == pickle.dumps(parse(DOCUMENT)) and levels == nesting.levels(got)


def test_a_run_parses_in_as_many_processes_as_it_may(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     forks: list[list[object]]) -> None:
    """``jobs`` caps the processes that parse (1: this one alone), as it caps those that render."""
    (tmp_path / "schemas").mkdir()
    (tmp_path / "schemas" / "doc.yaml").write_text(DOCUMENT, encoding="utf-8")
    monkeypatch.setattr(yaml_pieces, "PIECES_FROM", 0)
    monkeypatch.setenv("SCHEMAGEN_CACHE_DIR", str(tmp_path / "cache"))
    outputs = []
    for jobs in (1, 2):
        (tmp_path / "pyproject.toml").write_text(f"[tool.schemagen]\njobs = {jobs}\nvariants = ['msgspec']\n"
                                                 f"output = 'out{jobs}'\n", encoding="utf-8")
        shutil.rmtree(tmp_path / "cache", ignore_errors=True)
        result = generate.plan(configuration.load(tmp_path))
        outputs.append((dict(result.files), result.warnings))
        assert len(forks) == jobs - 1
    assert outputs[0] == outputs[1] and outputs[0][0]


KEYS = st.text(st.sampled_from("abcXY_-/ 0123:#'\"&*"), min_size=1, max_size=6)
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-5, 300), st.floats(allow_nan=False, width=32),
                    st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=30),
                    st.sampled_from(["multi\nline\n\ntext", "  leading", "trailing  ", "# hash", "- dash", "a: b",
                                     "'quoted'", "2024-01-01", "yes", "~"]))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                         st.dictionaries(KEYS, inner, max_size=4)), max_leaves=12)


@settings(max_examples=examples(150), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(document=st.dictionaries(KEYS, VALUES, min_size=1, max_size=5),
       style=st.sampled_from([None, "|", ">", "'", '"']), indent=st.sampled_from([2, 4]),
       flow=st.sampled_from([False, None]), width=st.sampled_from([20, 80]))
def test_any_dumped_mapping_reads_the_same(document: dict[str, Any], style: str | None, indent: int, flow: bool | None,
                                           width: int, tmp_path_factory: pytest.TempPathFactory) -> None:
    text = yaml.safe_dump(document, default_style=style, indent=indent, allow_unicode=True, sort_keys=False,
                          default_flow_style=flow, width=width)
    same(text, Cache(tmp_path_factory.mktemp("cache")))


@pytest.mark.parametrize("depth", [4, 5, 6])
def test_the_levels_kept_with_the_pieces_find_a_document_too_deep(depth: int, tmp_path: Path, cache: Cache,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Cut at every level, each piece is shallow: the document's levels are its pieces' put together,
    cold and from the cache, and a document deeper than the limit is the error reading it whole gives."""
    monkeypatch.setattr(nesting, "MAX_NESTING", 5)
    monkeypatch.setattr(yaml_pieces, "PIECES_FROM", 0)
    keys = "abcdefgh"[:depth]
    text = "".join(f"{'  ' * i}{k}:\n" for i, k in enumerate(keys[:-1])) + f"{'  ' * (depth - 1)}{keys[-1]}: [1]\n"
    text = "other: {x: 1}\n" + text
    path = tmp_path / "deep.yaml"
    path.write_text(text, encoding="utf-8")
    levels = yaml_pieces.load_measured(text, parse, cache, "test")[1]  # (the list is a level; counted up to 6)
    assert levels == min(depth + 1, 6) == nesting.levels(parse(text))
    try:
        whole = read.read_document(path, "deep.yaml")
    except SchemaError as exc:
        whole = [str(d) for d in exc.diagnostics]
    for _ in range(2):  # cold, then every piece from the cache
        try:
            pieces = yaml_pieces.read_document(path, "deep.yaml", cache)
        except SchemaError as exc:
            pieces = [str(d) for d in exc.diagnostics]
        assert pieces == whole
    assert (depth + 1 > 5) == isinstance(whole, list), whole


def _key_starts(node: yaml.MappingNode, tree: list[Any], text: str) -> None:
    """The cut ``tree`` of a block mapping: its entries start where PyYAML says the mapping's keys do (each at
    its line's start), and an entry cut again is the mapping PyYAML read as that key's value."""
    assert [text.rindex("\n", 0, key.start_mark.index) + 1 if key.start_mark.index else 0 for key, _ in node.value] \
        == [entry[0] for entry in tree]
    for (_, value), entry in zip(node.value, tree):
        if len(entry) == 4:
            assert isinstance(value, yaml.MappingNode)
            _key_starts(value, entry[3], text)


@settings(max_examples=examples(150), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(document=st.dictionaries(KEYS, VALUES, min_size=1, max_size=5), indent=st.sampled_from([2, 3, 4, 6]))
def test_the_pieces_begin_where_the_keys_do(document: dict[str, Any], indent: int,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The cut against PyYAML's own marks; and the same cut whichever lines are found in one pass over the
    text (``SHALLOW``) and which mapping by mapping."""
    text = yaml.safe_dump({"top": document, "next": 1}, indent=indent, allow_unicode=True, sort_keys=False,
                          default_flow_style=False)
    trees = []
    for shallow in (0, 2, 4, 100):
        monkeypatch.setattr(yaml_pieces, "SHALLOW", shallow)
        trees.append(yaml_pieces._entries(text, 0, len(text), 0, yaml_pieces._Lines(text)))
    assert all(tree == trees[0] for tree in trees)
    _key_starts(yaml.compose(text), trees[0], text)
