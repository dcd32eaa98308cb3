"""The persistent cache: entries keyed by a digest of everything they depend on, in one SQLite file.

Where it lives: ``$SCHEMAGEN_CACHE_DIR``; else ``$XDG_CACHE_HOME/schemagen``; else ``~/.cache/schemagen``.
Never inside the project, so a cold run is ``SCHEMAGEN_CACHE_DIR=$(mktemp -d) make generate``;
``SCHEMAGEN_CACHE_DIR=off`` runs without one.

Kinds of entry (``namespace``):

- ``plan``: what the last run of a project and configuration found (its warnings, and a digest of each
  file it wrote), beside its fingerprint (``fingerprint``): the generator's source and libraries, the
  configuration and templates, every input's bytes (one entry per configuration, replaced by each run,
  so that a cache does not grow by a whole result at every edit);
- ``texts``: the files of that run, beside the same fingerprint, written with it in one transaction;
  read only when a file is to be written or shown (a run with nothing to do compares digests);
- ``chunk``: one top-level declaration of a module as ``format`` cut it: its first and last
  statement, and what black makes of it (nothing: black leaves it as it is), keyed by black's version,
  the mode and the declaration's text;
- ``statement``: what black makes of one statement formatted on its own, keyed the same way;
- ``valid``: a definition the meta-schema check accepted without a word (``verdicts``), keyed by its
  canonical text and the validator's version;
- ``yaml``: the value of one piece of a long YAML document (``yaml_pieces``), keyed by its text and
  the loader's version (``read.yaml_version``: PyYAML's and the schema it reads by);
- ``units``: each definition's declarations, kept by the pieces of text they are made from
  (``definitions``); ``passes``: the passes' record of an input (``passed``); one entry per project and
  input, replaced as it changes;
- ``declaration``: for one module and variant, what the template wrote for each declaration, its
  imports and what it read to get there (``memo``); one entry per project, input, variant and
  options, replaced by each run.

Why SQLite rather than a file per entry: a run reads and writes thousands of small entries (one per
declaration and variant); SQLite does that in a few statements, and a run's entries are written in one
transaction: atomic, a reader sees all of them or none. Every value is stored beside the SHA-256 of its
namespace, key and value (``_sealed``), and checked when read: a row that is not the one asked for, or whose
value changed, is not read. A value that does not match, a file that is not a database, a database another
run holds locked for too long: that entry, or the whole cache, is ignored, and generation goes on without it.
Nothing is synced to the disk (``synchronous=OFF``): a cache can be made again, and a file the machine left
damaged when it stopped is found so (by SQLite, or by the seals) and removed; syncing cost an edit run some
10 ms, most of it in the checkpoint of its last connection's close.
The table keeps values apart from the index of keys (a row-id table: a lookup never reads a value it
passes), and the file says its layout (``LAYOUT``); a file of an earlier layout is emptied and laid
out again. Nothing is ever evicted one by one; a file grown past ``LIMIT`` bytes is dropped and started again.
No entry can go stale: a key is a digest of everything its value depends on, or (``plan``, ``texts``,
``declaration``) the value carries what it was made from and is checked against it when read.
"""

from __future__ import annotations

import hashlib
import os
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    import sqlite3

ENV = "SCHEMAGEN_CACHE_DIR"
FILE = "cache.sqlite3"
LIMIT = 512 * 1024 * 1024
_BATCH = 500  # host parameters per query, well under SQLite's limit
LAYOUT = 3
"""The table's layout (the file's ``user_version``); a file of another is laid out again, empty."""


def location() -> Path | None:
    """The cache folder the environment asks for; ``None`` when it is turned off."""
    configured = os.environ.get(ENV)
    if configured is not None:
        return None if configured.strip().lower() in ("", "off", "0", "none") else Path(configured).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "schemagen"


def digest(*parts: bytes | str) -> str:
    """A key: SHA-256 of the parts, each length-prefixed so that no two lists of parts collide."""
    h = hashlib.sha256()
    for part in parts:
        _feed(h, part)
    return h.hexdigest()


def digest_of(value: object) -> str:
    """A digest of everything an IR declaration says: its ``repr`` names every field of every node, and is
    2-3 times as fast as pickling. (What the memo, the units and the passes' record tell declarations
    apart by.)"""
    return digest(repr(value))


def digests(*prefix: bytes | str) -> Callable[[bytes | str], str]:
    """``lambda last: digest(*prefix, last)``, with the prefix hashed once (many keys, one prefix)."""
    base = hashlib.sha256()
    for part in prefix:
        _feed(base, part)

    def key(last: bytes | str) -> str:
        h = base.copy()
        _feed(h, last)
        return h.hexdigest()

    return key


V = TypeVar("V")


def grouped(entries: Mapping[str, V], buckets: Iterable[int], bucket: Callable[[str], int]) -> dict[int, dict[str, V]]:
    """The ``entries`` of each of ``buckets`` (``bucket``: a key's), in their order: the values to store
    again when an entry of those buckets changed, where entries are kept in a fixed number of values."""
    found: dict[int, dict[str, V]] = {b: {} for b in buckets}
    for key, value in entries.items():
        group = found.get(bucket(key))
        if group is not None:
            group[key] = value
    return found


def bucket(digested: str, count: int) -> int:
    """Which of ``count`` values (at most 256) an entry whose key is the hex digest ``digested`` is kept in:
    its first two digits, so that the entries of a large set are spread over all of them."""
    return int(digested[:2], 16) % count


def bucket_of(key: str, count: int) -> int:
    """``bucket`` of an entry whose key is any text (a definition's, a declaration's name): by the key's CRC-32,
    which spreads keys as evenly as a digest, and costs a tenth of one (2,000 keys a run, three times)."""
    return zlib.crc32(key.encode()) % count


def _feed(h: hashlib._Hash, part: bytes | str) -> None:
    """``part``'s length (8 bytes), then ``part``: in one call where it is short (most keys' parts), in two
    where copying it would cost more than a call."""
    data = part.encode() if isinstance(part, str) else part
    if len(data) < 4096:
        h.update(len(data).to_bytes(8, "big") + data)
    else:
        h.update(len(data).to_bytes(8, "big"))
        h.update(data)


class Cache:
    """Entries ``namespace, key → bytes``; every failure reads as a miss and writes as a no-op."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._db: sqlite3.Connection | None = None
        self._broken = False

    @classmethod
    def from_environment(cls) -> Cache | None:
        folder = location()
        return None if folder is None else cls(folder)

    def get_many(self, namespace: str, keys: Iterable[str]) -> dict[str, bytes]:
        """The entries found intact, by key."""
        import sqlite3

        wanted = list(dict.fromkeys(keys))
        found: dict[str, bytes] = {}
        db = self._connect()
        if db is None:
            return found
        try:
            for batch in _batches(wanted):
                rows = db.execute(f"SELECT key, digest, value FROM entries WHERE namespace = ? AND key IN "
                                  f"({', '.join('?' * len(batch))})", (namespace, *batch))
                for key, stored, value in rows:
                    if isinstance(value, bytes) and isinstance(key, str) and stored == _sealed(namespace, key, value):
                        found[key] = value
        except sqlite3.Error as exc:
            self._fail(exc)
        return found

    def get(self, namespace: str, key: str) -> bytes | None:
        return self.get_many(namespace, [key]).get(key)

    def put_many(self, namespace: str, entries: Mapping[str, bytes]) -> None:
        """Stores ``entries`` in one transaction (all or none)."""
        if entries:
            self.put_all((namespace, key, value) for key, value in entries.items())

    def put_all(self, entries: Iterable[tuple[str, str, bytes]]) -> None:
        """Stores ``entries`` (namespace, key, value) in one transaction (all or none)."""
        db = self._connect()
        if db is None:
            return
        import sqlite3

        rows = ((namespace, key, _sealed(namespace, key, value), value) for namespace, key, value in entries)
        try:
            with db:  # one transaction: committed whole, or rolled back whole
                db.executemany("INSERT OR REPLACE INTO entries (namespace, key, digest, value) VALUES (?, ?, ?, ?)",
                               rows)
        except sqlite3.Error as exc:
            self._fail(exc)

    def put(self, namespace: str, key: str, value: bytes) -> None:
        self.put_many(namespace, {key: value})

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    def __enter__(self) -> Cache:
        return self

    def __exit__(self, *exc: object) -> None:
        """The connection closed by its owner, not left to the collector (Python 3.13 warns of it)."""
        self.close()

    def _connect(self) -> sqlite3.Connection | None:
        import sqlite3

        if self._db is not None or self._broken:
            return self._db
        path = self.folder / FILE
        for attempt in range(2):
            db = None
            try:
                self.folder.mkdir(parents=True, exist_ok=True)
                if attempt == 0 and path.exists() and path.stat().st_size > LIMIT:
                    _remove(path)
                db = sqlite3.connect(path, timeout=10)
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=OFF")
                if db.execute("PRAGMA user_version").fetchone()[0] != LAYOUT:
                    _lay_out(db)
                self._db = db
                return db
            except (sqlite3.Error, OSError) as exc:
                if db is not None:
                    db.close()
                if not (attempt == 0 and _damaged(exc) and _remove(path)):
                    break  # locked, read-only, no space...: no cache this time
        self._broken = True
        return None

    def _fail(self, exc: Exception) -> None:
        """A query failed (locked past the timeout, a damaged page): no more cache in this run, and a
        damaged file is removed for the next one."""
        self.close()
        self._broken = True
        if _damaged(exc):
            _remove(self.folder / FILE)


def _sealed(namespace: str, key: str, value: bytes) -> str:
    """What a row is checked by: the SHA-256 of its namespace, key and value."""
    h = hashlib.sha256(f"{len(namespace)}:{namespace}{len(key)}:{key}".encode())  # (said once each: no two alike)
    h.update(value)
    return h.hexdigest()


def _lay_out(db: sqlite3.Connection) -> None:
    """A new file, or one an earlier version laid out: the table made (again), empty, and the file marked
    with ``LAYOUT``. A table of values keyed by row id, with the key in an index of its own: a lookup
    compares keys only. (In the earlier ``WITHOUT ROWID`` table every row was a key of the index, and a
    lookup that passed a big one, such as a ``plan`` result of megabytes, read all of it to compare.)"""
    db.execute("BEGIN IMMEDIATE")  # (another run may be doing the same: the first one does it)
    try:
        if db.execute("PRAGMA user_version").fetchone()[0] != LAYOUT:
            db.execute("DROP TABLE IF EXISTS entries")
            db.execute("CREATE TABLE entries (namespace TEXT NOT NULL, key TEXT NOT NULL, digest TEXT NOT NULL, "
                       "value BLOB NOT NULL, PRIMARY KEY (namespace, key))")
            db.execute(f"PRAGMA user_version = {LAYOUT}")
        db.commit()
    except BaseException:
        db.rollback()  # (nothing to do if the transaction never began)
        raise


def _damaged(exc: BaseException) -> bool:
    """Not a database, or a damaged one (``SQLITE_NOTADB``, ``SQLITE_CORRUPT``); not merely busy."""
    return getattr(exc, "sqlite_errorcode", None) in (26, 11)


def _remove(path: Path) -> bool:
    """Removes the database (damaged, or too big): a cache holds nothing that cannot be made again."""
    try:
        for suffix in ("", "-wal", "-shm"):
            path.with_name(path.name + suffix).unlink(missing_ok=True)
        return True
    except OSError:
        return False


def _batches(items: list[str]) -> Iterator[list[str]]:
    for i in range(0, len(items), _BATCH):
        yield items[i:i + _BATCH]
