"""Sessions: what was formatted, in memory and in the persistent cache."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from ...render.format import LINE_LENGTH, TARGET, black_version, format_whole
from ..store import digest, digests
from .batch import BATCH, format_chunk, format_statements
from .chunks import Chunk, Stretch, join, split, trailing_blanks
from .known import Kinds, cut, pieces
from .stable import Piece, Plan, plan_chunk

if TYPE_CHECKING:
    from ..store import Cache


J = TypeVar("J")
SCHEME = "2"
"""Version of how chunks and statements are cut and keyed; change it when their meaning changes."""


@dataclass
class Stats:
    as_is: int = 0
    """Chunks black leaves as they are, recognised without black."""
    by_statement: int = 0
    """Chunks with statements black formatted on their own."""
    whole: int = 0
    """Chunks black formatted whole."""
    cached: int = 0
    """Chunks found in the persistent cache."""
    statements: int = 0
    """Statements black formatted."""
    modules_whole: int = 0
    """Modules the splitter did not know, formatted whole."""


@dataclass
class Session:
    """Formats modules; remembers chunks and statements in memory and, with a ``cache``, across runs."""

    cache: Cache | None = None
    chunks: dict[str, str] = field(default_factory=dict)
    """Chunk text → what black makes of it."""
    kinds: dict[str, Kinds] = field(default_factory=dict)
    """Chunk text → its first and last statement, for every chunk ``split`` found (``known.cut``)."""
    statements: dict[Piece, str | None] = field(default_factory=dict)
    stats: Stats = field(default_factory=Stats)

    def format_one(self, text: str) -> str:
        """``format_whole(text)``."""
        return self.format([text])[0]

    def format(self, texts: Sequence[str]) -> list[str]:
        """``format_whole`` of each text."""
        found = [pieces(t) for t in texts]
        self._look_up({t[start:end] for t, spans in zip(texts, found) for start, end, _ in spans})
        splits = [cut(t, spans, self.kinds) or split(t) for t, spans in zip(texts, found)]
        out = []
        for text, joined in zip(texts, self._joined(splits)):
            if joined is None:
                self.stats.modules_whole += 1
                joined = format_whole(text)
            out.append(joined)
        return out

    def stretches(self, texts: Sequence[str], *, head: bool = False) -> list[Stretch | None]:
        """Each text, a stretch of a module, formatted as in the module (``chunks.splice`` joins them):
        the module's head (``head``), or declarations after it. ``None`` for one ``split`` does not cut
        (the module is then formatted whole, as ``format`` would), or holding a chunk black refuses."""
        splits = [split(t, more=True) if head else split(t, body=True) for t in texts]
        return [None if chunks is None or joined is None else
                Stretch(chunks[0].first, chunks[0].blank_before, chunks[-1].last, trailing_blanks(text), joined)
                for text, chunks, joined in zip(texts, splits, self._joined(splits))]

    def _joined(self, splits: Sequence[list[Chunk] | None]) -> list[str | None]:
        """Each text's chunks (``splits``), formatted and joined (``join``); ``None`` where it was not cut
        into chunks, or black refuses one."""
        for chunk in (c for chunks in splits if chunks for c in chunks):
            self.kinds.setdefault(chunk.text, (chunk.first, chunk.last))
        self._resolve({c.text for chunks in splits if chunks for c in chunks})
        out: list[str | None] = []
        for chunks in splits:
            formatted = [self.chunks.get(c.text) for c in chunks] if chunks else [None]
            out.append(None if None in formatted else join(chunks, formatted))  # type: ignore[arg-type]
        return out

    def _look_up(self, texts: set[str]) -> None:
        """Chunks among ``texts`` met in an earlier run: their kinds and formatting, from the cache."""
        if self.cache is None:
            return
        keys = {t: _chunk_key(t) for t in texts if t not in self.chunks}
        found = self.cache.get_many("chunk", keys.values())
        for text, key in keys.items():
            entry = found.get(key)
            if entry is not None:
                kinds, _, formatted = entry.partition(b"\n")
                first, last = kinds.decode().split()
                self.kinds[text] = (first, last)  # type: ignore[assignment]
                self.chunks[text] = formatted.decode() if formatted else text
                self.stats.cached += 1

    def _resolve(self, wanted: set[str]) -> None:
        """Puts the formatting of each chunk in ``self.chunks`` (one black refuses is left out)."""
        self._look_up({t for t in wanted if t not in self.chunks})
        missing = sorted(t for t in wanted if t not in self.chunks)
        plans = [plan_chunk(text) for text in missing]
        self._format_statements({p for plan in plans if plan for p in plan if p[0] != "text"})
        for text, plan in zip(missing, plans):
            formatted = self._assemble(plan) if plan is not None else None
            if formatted is None:
                self.stats.whole += 1
                formatted = format_chunk(text)
            elif formatted == text:
                self.stats.as_is += 1
            else:
                self.stats.by_statement += 1
            if formatted is not None:
                self.chunks[text] = formatted
        if self.cache is not None:  # its kinds, a newline, then what black makes of it (nothing: as it is)
            self.cache.put_many("chunk", {
                _chunk_key(t): " ".join(self.kinds[t]).encode() + b"\n" + (b"" if self.chunks[t] == t else self.chunks[t].encode())
                for t in missing if t in self.chunks})

    def _format_statements(self, pieces: set[Piece]) -> None:
        missing = sorted(p for p in pieces if p not in self.statements)
        keys = {p: digest(SCHEME, black_version(), str(LINE_LENGTH), TARGET, *p) for p in missing}
        missing = self._from_cache("statement", keys, self.statements, lambda piece, hit: hit.decode())
        for kind in ("header", "body", "module"):
            sources = [s for k, s in missing if k == kind]
            for group in (sources[i:i + BATCH] for i in range(0, len(sources), BATCH)):
                for source, out in zip(group, format_statements(kind, group)):
                    self.statements[(kind, source)] = out
        self.stats.statements += len(missing)
        if self.cache is not None:
            self.cache.put_many("statement", {keys[p]: self.statements[p].encode()  # type: ignore[union-attr]
                                              for p in missing if self.statements[p] is not None})

    def _from_cache(self, namespace: str, keys: dict[J, str], into: dict[J, Any],
                    decode: Callable[[J, bytes], Any]) -> list[J]:
        """Fills ``into`` from the persistent cache; what is still missing."""
        if self.cache is None or not keys:
            return list(keys)
        found = self.cache.get_many(namespace, keys.values())
        for item, key in keys.items():
            if key in found:
                into[item] = decode(item, found[key])
        return [item for item in keys if item not in into]

    def _assemble(self, plan: Plan) -> str | None:
        parts = []
        for piece in plan:
            text = piece[1] if piece[0] == "text" else self.statements.get(piece)
            if text is None:
                return None
            parts.append(text)
        return "".join(parts)


@functools.lru_cache(maxsize=1 << 16)
def _chunk_key(text: str) -> str:
    """``digest(SCHEME, black's version, mode, "chunk", text)`` (remembered: a run asks up to three times)."""
    return _chunk_keys()(text)


@functools.cache
def _chunk_keys() -> Callable[[bytes | str], str]:
    return digests(SCHEME, black_version(), str(LINE_LENGTH), TARGET, "chunk")
