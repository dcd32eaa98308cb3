"""Reading a large YAML document piece by piece, each piece remembered by its text.

After a one-component edit of a 3 MB description, parsing the whole text again is most of what a
regeneration costs. So the text is cut along its block mappings: each top-level entry is a piece,
and a large entry whose value is a block mapping (``components:``, then ``schemas:``) is cut again
into its own entries. Each piece is parsed on its own, dedented, and its value is kept in the
persistent cache under a digest of its text and indentation; the document is put back together from
the pieces. A document's pieces are kept in ``BUCKETS`` values by key (``home``: whose document it is),
read in one go: an edit stores again the bucket of the piece it changed (and of the one it replaced).

The result is what parsing the whole text gives: the same keys in the same order, the same values,
objects shared through an anchor still shared, and the same errors (a key written twice, within a
piece or in two of them, is parsed whole again, which reports both places). That holds because a piece is cut only where YAML's own structure says an
entry begins (a key at the mapping's indentation; nothing less indented inside it), because
dedenting every line of a block alike changes no scalar in it, and because every piece must parse
to exactly one entry. Anything else falls back to parsing the whole text (which also gives a syntax
error its line and column): directives, document markers, an alias whose anchor is in another piece,
a piece that parses to something other than one entry.

When many pieces are not in the cache (a first run), and more than one process is allowed, the
pieces to parse are shared out among processes (``forked``); a piece a process could not parse, or
did not send back, is parsed here, as it would be without them: the result is the same.
"""

from __future__ import annotations

import pickle
import re
from bisect import bisect_left
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from ..frontend import nesting, read
from .forked import shared_out
from .store import Cache, bucket, digest, digests

NAMESPACE = "yaml"
SCHEME = "4"
"""Bump it when what a cached piece means changes in a way ``read.yaml_version`` (in every key) does
not say."""
BUCKETS = 64
PIECES_FROM = 64 * 1024
"""A YAML text at least this long is read piece by piece."""
SPLIT = 16 * 1024
"""An entry of fewer characters is parsed as one piece, not cut into its own entries (a component of
OpenAI's description is one piece; ``paths:``, ``components:`` and ``schemas:`` are cut)."""

_KEY = re.compile(r"[^\s#\-?\[\]{}!&*|>%@`,]")
"""How a key starting an entry of a block mapping begins (after its indentation)."""
_PARENT = re.compile(r"[^:\n]+:[ \t]*(?:#[^\n]*)?\n")
"""A key line with nothing after the colon: its value is the block below it."""
_CODE = re.compile(r"^( *)[^ \n\r#]", re.MULTILINE)
"""A line that is neither blank nor a comment, and its indentation."""
_MARKERS = re.compile(r"\n(?:---|\.\.\.|%)")
"""A line after the first that starts a directive or a document marker (the text is then parsed whole).
(Searched from each newline, not with ``^`` in ``MULTILINE``: 2 ms instead of 14 on OpenAI's description.)"""

SHALLOW = 4
"""The lines indented this much or less are found in one pass over the whole text (``_Lines``): the keys of
the mappings cut in a description laid out as usual (``paths:`` and ``components:`` at 0, their entries
at 2, the schemas at 4). A mapping indented deeper is searched on its own. (One pass at 4 takes 7.5 ms on
OpenAI's description; a pass for each mapping cut, 20 ms.)"""

PARALLEL_FROM = 256 * 1024
"""Characters of pieces to parse from which other processes parse some of them (starting one costs a
few milliseconds; PyYAML parses some 6 MB a second)."""

Parse = Callable[[str], Any]


class _Fallback(Exception):
    """This text is not cut into pieces: parse it whole."""


Sources = list[tuple[tuple[str, ...], str]]
"""Where each piece of a document read by pieces is (the keys leading to its entry), with the digest
of its text: what each part of the document was read from."""


def read_document(path: Path, display: str, store: Cache, processes: int = 1,
                  sources: dict[str, Sources] | None = None, scope: str = "") -> Any:
    """``frontend.read.read_document``, a long YAML text read piece by piece through ``store`` (by up to
    ``processes`` processes where there is much to parse). ``sources``: where the pieces of a document
    read by pieces are put, by its display path (one read whole has none); ``scope``: whose documents these
    are (a project)."""
    text = read.read_text(path, display)
    if sources is not None:
        sources.pop(display, None)
    if len(text) < PIECES_FROM:
        return read.parse(text, path.suffix, display)
    measured: list[int | None] = [None]

    def by_pieces(whole: str) -> Any:  # how YAML is parsed (a JSON text never is)
        found: Sources = []
        value, measured[0] = load_measured(whole, read.load_yaml, store, read.yaml_version(), processes, found,
                                           home=f"{scope}\n{display}")
        if sources is not None and found:
            sources[display] = found
        return value

    return read.parse(text, path.suffix, display, by_pieces, lambda: measured[0])


def load(text: str, parse: Parse, store: Cache, version: str) -> Any:
    """``parse(text)``, computed piece by piece through ``store`` (``version``: the parser's, for the keys)."""
    return load_measured(text, parse, store, version)[0]


def load_measured(text: str, parse: Parse, store: Cache, version: str, processes: int = 1,
                  sources: Sources | None = None, home: str = "") -> tuple[Any, int | None]:
    """``load``, and how deep the value nests (``nesting.levels``) when it was put together from pieces:
    each piece's levels are kept beside its value, so the document is not walked again after an edit.
    ``processes``: how many processes may parse pieces (this one included); ``sources``: where the pieces
    are listed, when the value was put together from them; ``home``: whose document it is (the buckets its
    pieces are kept in: another document's, or another version's, holds other keys, and costs a parse)."""
    if text.startswith(("\ufeff", "---", "...", "%")) or _MARKERS.search(text):
        return parse(text), None
    try:
        tree = _entries(text, 0, len(text), 0, _Lines(text))
        if not tree:
            raise _Fallback
        reader = _Reader(parse, store, version, processes, home)
        result = reader.document(tree, text)
    except _Fallback:
        return parse(text), None
    if sources is not None:
        sources += reader.sources
    return result


# A piece tree: for each entry of a mapping, either a leaf ``(start, end, indent)`` (text[start:end],
# to dedent by ``indent``) or a node ``(start, end, indent, children)`` (its key line, then its entries).
Entry = tuple[int, int, int] | tuple[int, int, int, list[Any]]


@cache
def _keys_at(indent: int) -> re.Pattern[str]:
    """The newline before each code line indented ``indent`` or less. (Said as what may not follow the
    newline, with no group: twice as fast as matching the spaces.)"""
    return re.compile(rf"\n(?! {{{indent + 1}}}| *(?:[\n\r#]|\Z))")


@cache
def _margin(indent: int) -> re.Pattern[str]:
    return re.compile(rf"^ {{1,{indent}}}", re.MULTILINE)


class _Lines:
    """Where the code lines of a text start (after a newline), and their indentation, as asked by mapping."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._shallow: tuple[list[int], list[int]] | None = None

    def at_most(self, indent: int, start: int, end: int) -> list[tuple[int, int]]:
        """The code lines starting in ``text[start:end]`` after a newline and indented ``indent`` or less:
        (where each starts, its indentation)."""
        if indent > SHALLOW:
            return self._found(indent, max(start - 1, 0), end)
        if self._shallow is None:
            found = self._found(SHALLOW, 0, len(self.text))
            self._shallow = [at for at, _ in found], [size for _, size in found]
        starts, sizes = self._shallow
        first, last = bisect_left(starts, start), bisect_left(starts, end)
        return [(at, size) for at, size in zip(starts[first:last], sizes[first:last]) if size <= indent]

    def _found(self, indent: int, start: int, end: int) -> list[tuple[int, int]]:
        text = self.text
        found = []
        for match in _keys_at(indent).finditer(text, start, end):
            at = match.end()
            margin = text[at:at + indent]
            found.append((at, len(margin) - len(margin.lstrip(" "))))
        return found


def _entries(text: str, start: int, end: int, indent: int, lines: _Lines) -> list[Entry]:
    """The entries of the block mapping ``text[start:end]`` (whole lines), whose keys are indented ``indent``."""
    head = _CODE.match(text, start) if start == 0 else None  # (no newline before the first line)
    found = [(start, len(head[1]))] if head and len(head[1]) <= indent else []
    found += lines.at_most(indent, start, end)
    if any(size < indent for _, size in found):
        raise _Fallback  # a line less indented than the keys: not a block mapping we know
    starts = [position for position, _ in found]
    if not starts or _CODE.search(text, start, starts[0]):
        raise _Fallback  # no key, or text before the first one
    if any(not _KEY.match(text, s + indent) for s in starts):
        raise _Fallback  # a sequence item, a flow collection, an explicit key...
    return [_entry(text, begin, stop, indent, lines) for begin, stop in zip(starts, starts[1:] + [end])]


def _entry(text: str, start: int, end: int, indent: int, lines: _Lines) -> Entry:
    """One entry: cut into its own entries when it is large and its value is a block mapping."""
    key_end = text.find("\n", start, end) + 1
    if end - start >= SPLIT and key_end:
        inner = _CODE.search(text, key_end, end)
        if _PARENT.fullmatch(text, start + indent, key_end) and inner and len(inner[1]) > indent:
            try:
                return (start, end, indent, _entries(text, key_end, end, len(inner[1]), lines))
            except _Fallback:
                pass  # not a mapping of entries to cut: this entry is one piece
    return (start, end, indent)


class _Reader:
    """Parses the pieces of a tree, in the order ``_mapping`` meets them, through the cache."""

    def __init__(self, parse: Parse, store: Cache, version: str, processes: int = 1, home: str = "") -> None:
        self.parse = parse
        self.store = store
        self.version = version
        self.processes = processes
        self.slots = [digest(NAMESPACE, SCHEME, version, home, str(b)) for b in range(BUCKETS)]
        self.held: list[dict[str, bytes]] = [{} for _ in range(BUCKETS)]
        """Each bucket's pieces in the cache: key → pickled value."""
        self.found: dict[str, bytes] = {}
        """Pieces in the cache: key → pickled value."""
        self.parsed: dict[str, tuple[Any, int]] = {}
        """Pieces parsed before the document is put together (``_share_out``): key → value and levels."""
        self.new: dict[str, bytes] = {}
        self.sources: Sources = []

    def document(self, tree: list[Entry], text: str) -> tuple[dict[Any, Any], int]:
        """The document and its levels."""
        texts: list[tuple[str, int]] = []
        _texts(tree, text, texts)
        key = digests(SCHEME, self.version)  # of a piece's text as it stands and its indentation
        keys = [key(f"{indent} {piece}") for piece, indent in texts]
        self._read()
        if self.processes > 1:
            self._share_out(list({key: piece for piece, key in zip(texts, keys) if key not in self.found}.items()))
        self.pieces = zip(texts, keys)
        result = self._mapping(tree, ())
        self._keep(keys)
        return result

    def _read(self) -> None:
        """Every bucket's pieces (one of another shape: none)."""
        found = self.store.get_many(NAMESPACE, self.slots)
        for b, slot in enumerate(self.slots):
            try:
                held = pickle.loads(found[slot]) if slot in found else {}
            except Exception:  # another version's, a damaged entry: a miss
                held = {}
            if isinstance(held, dict):
                self.held[b] = held
                self.found.update(held)

    def _keep(self, keys: list[str]) -> None:
        """Stores again each bucket whose pieces are not this document's: one parsed now, one it holds no more."""
        now: list[dict[str, bytes]] = [{} for _ in range(BUCKETS)]
        for key in keys:
            now[bucket(key, BUCKETS)][key] = self.new.get(key) or self.found[key]
        self.store.put_many(NAMESPACE, {self.slots[b]: pickle.dumps(pieces, protocol=pickle.HIGHEST_PROTOCOL)
                                        for b, pieces in enumerate(now) if pieces.keys() != self.held[b].keys()})

    def _mapping(self, tree: list[Entry], path: tuple[str, ...]) -> tuple[dict[Any, Any], int]:
        """The mapping of ``tree``'s entries (at ``path``), and its levels (``nesting.levels``: itself one)."""
        mapping: dict[Any, Any] = {}
        tallest = 0
        for entry in tree:
            piece, digest = next(self.pieces)
            key, value, levels = self._one(piece, digest)
            self.sources.append(((*path, str(key)), digest))
            if len(entry) == 4:
                if value is not None:
                    raise _Fallback
                value, levels = self._mapping(entry[3], (*path, str(key)))
            if key in mapping:
                raise _Fallback  # a key written twice: the whole text says where
            mapping[key] = value
            tallest = max(tallest, levels)
        return mapping, min(tallest + 1, nesting.MAX_NESTING + 1)

    def _one(self, piece: tuple[str, int], key: str) -> tuple[Any, Any, int]:
        """The one entry ``piece`` holds (from the cache, else parsed and remembered), and the levels of its value."""
        value, levels = self._value(piece, key)
        if not isinstance(value, dict) or len(value) != 1:
            raise _Fallback
        return (*next(iter(value.items())), max(levels - 1, 0))

    def _value(self, piece: tuple[str, int], key: str) -> tuple[Any, int]:
        """The value of ``piece`` and its levels, from the cache or parsed (and then written to the cache)."""
        data = self.found.get(key)
        if data is not None:
            found = pickle.loads(data)
            if isinstance(found, tuple) and len(found) == 2 and isinstance(found[1], int):
                return found[0], found[1]
        parsed = self.parsed.pop(key, None)  # (taken once: a piece written twice is two values, as parsed whole)
        if parsed is None:
            try:
                parsed = _parsed(self.parse, piece)
            except Exception:  # an error, or an alias whose anchor is elsewhere: the whole text says which
                raise _Fallback from None
        self.new[key] = pickle.dumps(parsed, protocol=pickle.HIGHEST_PROTOCOL)
        return parsed

    def _share_out(self, missing: list[tuple[str, tuple[str, int]]]) -> None:
        """The ``missing`` pieces (key, piece), parsed by up to ``processes`` processes (``forked``) into
        ``parsed``; one that was not is parsed when met (and its error, if any, then falls back)."""
        parsed = shared_out(missing, lambda item: len(item[1][0]), lambda item: _parsed(self.parse, item[1]),
                            self.processes, PARALLEL_FROM)
        self.parsed = {key: made for (key, _), made in zip(missing, parsed) if made is not None}


def _parsed(parse: Parse, piece: tuple[str, int]) -> tuple[Any, int]:
    value = parse(_dedent(*piece))
    return value, nesting.levels(value)


def _texts(tree: list[Entry], text: str, into: list[tuple[str, int]]) -> None:
    """The text of every piece, in the order ``_mapping`` reads them."""
    for entry in tree:
        into.append(_piece(text, entry))
        if len(entry) == 4:
            _texts(entry[3], text, into)


def _piece(text: str, entry: Entry) -> tuple[str, int]:
    """The text of a leaf, or of a node's key line, and its indentation."""
    start, end, indent = entry[:3]
    if len(entry) == 4:
        end = text.index("\n", start) + 1
    return text[start:end], indent


def _dedent(text: str, indent: int) -> str:
    """``text`` without up to ``indent`` spaces at the start of every line: a piece to parse on its own."""
    return _margin(indent).sub("", text) if indent else text
