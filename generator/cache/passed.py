"""The passes remembered across runs: after an edit of a few declarations, ``passes.again`` from the
record of the run before, instead of the passes over the whole module.

What the passes are given is told apart declaration by declaration, by a digest of each one's ``repr``
(which names every field of every node); the declarations whose digest changed are those ``again`` is
told of. It gives the module and the warnings the whole passes give (``tests/test_passes_recorded.py``),
or ``None``: then the passes run whole, as without the cache. One entry per project and input, replaced
as it changes: a head (what the passes decided, and the settings it holds for), what they made of
each declaration, and the summaries the passes that decide over the whole module read of each, in
``BUCKETS`` values by name each, of which an edit stores again those that changed. The summaries are read
back only where they are asked for (``passes.again`` asks for those of the declarations it redoes, and
for all where it decides again): a bucket is unpickled when one of its names is first asked for.
"""

from __future__ import annotations

import os
import pickle
from collections.abc import Iterator, Mapping, Set as AbstractSet

from .. import ir, passes
from ..diagnostics import Reporter
from ..frozen import replace
from ..names import Naming
from ..passes import Record
from ..passes.record import Kept, Summaries
from ..passes.required_defaults import Setting
from . import pickled
from .memo import Unchanged
from .store import Cache, bucket_of, digest, digest_of, grouped

NAMESPACE = "passes"
SCHEME = "5"
BUCKETS = 64

Entry = tuple[str, Kept, str]
"""A declaration's digest, what the passes made of it, and that one's digest ("" for none)."""


class Passed:
    """The passes' records of a project's inputs in ``store``; ``salt``: the generator's digest; ``scope``:
    whose entries they are (the project and its configuration)."""

    def __init__(self, store: Cache, salt: str, scope: str) -> None:
        self.store = store
        self.salt = salt
        self.scope = scope
        self._made: dict[str, tuple[ir.Module, dict[str, str], Unchanged]] = {}

    def told(self, module: ir.Module) -> tuple[dict[str, str] | None, Unchanged | None]:
        """If ``run`` made ``module``: ``digest_of`` each of its declarations, by name, and which are what they
        were in the run that kept the record it started from (``memo.Unchanged``); else ``None`` twice."""
        return next(((known, unchanged) for made, known, unchanged in self._made.values() if made is module),
                    (None, None))

    def run(self, module: ir.Module, reporter: Reporter, setting: Setting | None, names: Naming,
            display: str, known: Mapping[str, str] | None = None) -> ir.Module:
        """``passes.run(module, reporter, setting, names)`` of input ``display`` (``known``: ``digest_of`` some
        of its declarations, by name, where they are known already: ``Definitions.digests``)."""
        known = known or {}
        digests = {d.name: known.get(d.name) or digest_of(d) for d in module.declarations}
        context = digest(SCHEME, self.salt, os.environ.get("PYTHONHASHSEED", ""), repr(setting), names)
        slots = [digest(NAMESPACE, SCHEME, self.scope, display, str(b)) for b in range(-1, 2 * BUCKETS)]
        found = self._before(slots, context, digests.keys())
        done = None
        changed: set[str] = set()
        before: Record | None = None
        finals: dict[str, str] = {}
        if found is not None:
            before, kept, stamps, finals = found
            changed = {name for name, known in digests.items() if kept[name] != known}
            heard = Reporter()
            try:
                done = passes.again(module, changed, before, heard, setting, names)
            except _Damaged:  # (a bucket of summaries that does not read back: the passes run whole)
                done = None
            if done is not None:
                reporter.extend(heard)
        if done is None:
            stamps, before = ("",) * BUCKETS, None
            done = passes.recorded(module, reporter, setting, names)
        started = digest(*stamps) if before is not None else ""
        out, record = done
        made = {n for n, each in record.each.items() if before is None or n in changed or before.each.get(n) is not each}
        finals = {n: finals[n] if n not in made else digests[n] if each.same else
                  digest_of(each.final) if each.final is not None else "" for n, each in record.each.items()}
        if not reporter.errors:
            try:
                kept_now = digest(*self._put(slots, context, record, digests, stamps, finals, made))
            except _Damaged:  # (a bucket of summaries to store again did not read back: nothing is kept)
                return out
            same = {record.classes[n] for n in record.classes if n not in made} \
                if before is not None and record.placement == before.placement else set()
            self._made[display] = (out, {record.classes[n]: known for n, known in finals.items() if known},
                                   Unchanged(started, kept_now, frozenset(same)))
        return out

    def _before(self, slots: list[str], context: str, listed: AbstractSet[str]
                ) -> tuple[Record, dict[str, str], tuple[str, ...], dict[str, str]] | None:
        """The record the last run kept (its summaries read when asked for), each declaration's digest then, the
        buckets' tokens, and the digest of what the passes made of each; ``None``: none for these settings, or
        not whole."""
        found = self.store.get_many(NAMESPACE, slots)
        try:
            head = pickle.loads(found[slots[0]]) if slots[0] in found else None
            if not (isinstance(head, tuple) and len(head) == 3 and head[0] == context and isinstance(head[1], Record)):
                return None
            _, record, stamps = head
            each: dict[str, Kept] = {}
            kept: dict[str, str] = {}
            finals: dict[str, str] = {}
            for slot, stamp in zip(slots[1:BUCKETS + 1], stamps):
                bucket = pickle.loads(found[slot]) if slot in found else None
                if not (isinstance(bucket, tuple) and len(bucket) == 2 and bucket[0] == stamp):
                    return None
                for name, (known, made, final) in bucket[1].items():
                    kept[name] = known
                    each[name] = made
                    finals[name] = final
            summaries = [found.get(slot, b"") for slot in slots[BUCKETS + 1:]]
            if not all(data.startswith(stamp.encode() + b" ") for data, stamp in zip(summaries, stamps)):
                return None
        except Exception:  # another version of the classes, a damaged entry: a miss
            return None
        if kept.keys() != listed or not all(isinstance(k, Kept) for k in each.values()):
            return None
        return replace(record, each=each, summaries=_Summaries(list(kept), summaries)), kept, stamps, finals

    def _put(self, slots: list[str], context: str, record: Record, digests: dict[str, str],
             stamps: tuple[str, ...], finals: dict[str, str], made: set[str]) -> tuple[str, ...]:
        """Keeps ``record``: its head, and the buckets of the declarations ``made`` anew (all: every bucket);
        the buckets' tokens now."""
        changed = set(range(BUCKETS)) if len(made) == len(record.each) else {_bucket(n) for n in made}
        fresh = list(stamps)
        for b in changed:
            fresh[b] = os.urandom(8).hex()
        entries: dict[str, Entry] = {n: (digests[n], each, finals[n]) for n, each in record.each.items()}
        values = {slots[0]: pickled.dumps((context, replace(record, each={}, summaries={}), tuple(fresh)))}
        summaries = record.summaries  # (read by name: only the buckets stored again are read back)
        for b, bucket in grouped(entries, changed, _bucket).items():
            values[slots[b + 1]] = pickled.dumps((fresh[b], bucket))
            values[slots[BUCKETS + 1 + b]] = fresh[b].encode() + b" " + pickled.dumps({n: summaries[n] for n in bucket})
        self.store.put_many(NAMESPACE, values)
        return tuple(fresh)


class _Damaged(Exception):
    """A bucket of summaries did not read back."""


class _Summaries(Mapping[str, Summaries]):
    """The summaries the last run kept, by name: a bucket is unpickled when one of its names is first asked for."""

    def __init__(self, names: list[str], buckets: list[bytes]) -> None:
        self.names = names
        self.buckets = buckets
        """Each bucket's value, its token and a space before the pickle."""
        self.read: set[int] = set()
        self.found: dict[str, Summaries] = {}
        """The summaries of the buckets read."""

    def __getitem__(self, name: str) -> Summaries:
        summary = self.found.get(name)
        if summary is None:
            b = _bucket(name)
            if b in self.read:  # (read, and not there)
                raise _Damaged if name in self.names else KeyError(name)
            data = self.buckets[b]
            try:
                found = pickle.loads(data[data.index(b" ") + 1:])
            except Exception:
                raise _Damaged from None
            if not (isinstance(found, dict) and all(isinstance(s, Summaries) for s in found.values())):
                raise _Damaged
            self.read.add(b)
            self.found.update(found)
            summary = self.found.get(name)
            if summary is None:
                raise _Damaged if name in self.names else KeyError(name)
        return summary

    def __iter__(self) -> Iterator[str]:
        return iter(self.names)

    def __len__(self) -> int:
        return len(self.names)


def _bucket(name: str) -> int:
    return bucket_of(name, BUCKETS)
