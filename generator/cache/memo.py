"""``render.fragment`` remembered across runs: a declaration's text and imports, kept by its inputs.

``render.fragment(declaration, context, env)`` is a pure function of the declaration, of its
``FragmentContext`` (the declarations it refers to, which of them are declared further down, the
variant and its options) and of the templates; the generator's version (``salt``) stands for those.
The key of an entry is made of exactly those inputs (each declaration by a digest of its ``repr``,
which names every field of every node), so an entry found is the fragment the function would write.
The module is then ``render.assemble`` of the fragments: the built-in templates' layout (a template
folder of one's own is rendered whole: ``project.pipeline``).

An entry also keeps the fragment as black formats it within a module (``format.chunks.Stretch``), so
that ``formatted`` puts a module together from formatted fragments (and its head) without formatting
it whole again: after an edit, only the fragments made anew are formatted. That is the module black
gives: a fragment is whole chunks of it, each formatted on its own (``format``), and the blank lines
between two chunks depend only on the two (``chunks.splice``).
"""

from __future__ import annotations

import pickle
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .. import ir, render
from ..render.imports import State
from ..render.options import RenderOptions
from .format.chunks import KINDS, Kind, Stretch, splice
from .store import digest_of, digests as prefixed, grouped

if TYPE_CHECKING:
    import jinja2

    from .format import Session
    from .store import Cache

Shape = tuple[Kind, int, Kind, int, str] | None | tuple[()]
"""A fragment's ``Stretch`` as a tuple; ``None``: it is not one (``Session.stretches``); ``()``: not known yet."""
Entry = tuple[str, State, Shape]
"""A fragment as the cache keeps it: its text, imports and formatted stretch, in builtins alone (a bucket
of them is read by one ``pickle.loads``, with no call per fragment)."""

Index = tuple[str, Shape, tuple[str, ...], tuple[str, ...]]
"""What a module put together from entries is: the passes' record it was made from (``Unchanged.now``), its
head's stretch, its declarations' names and its entries' keys, in order (so that its text can be put together
again without its IR: ``restore``; and an unchanged declaration's key read, not worked out again: ``plan``)."""


@dataclass(frozen=True, slots=True)
class Unchanged:
    """What the passes' record says of a module it made (``cache.passed``): the declarations (``names``) that
    are what they were in the run that kept the record it started from (``before``), and so are what they
    refer to and where those stand; ``now``: the record this run keeps."""

    before: str
    now: str
    names: frozenset[str]

_SHAPE = (str, int, str, int, str)
NAMESPACE = "declaration"
SCHEME = "6"
BUCKETS = 64


@dataclass
class Plan:
    """One module's variant, looked up: each declaration's context, key and fragment where the cache has it."""

    module: ir.Module
    variant: str
    source: str
    options: RenderOptions
    links: render.Links
    keys: list[str]
    found: list[render.Fragment | None]
    slots: list[str]
    """The values its entries are kept in: ``BUCKETS`` of them, then the module's index (``restore``)."""
    before: dict[str, Entry]
    record: str = ""
    """The passes' record the module was made from (``Unchanged.now``; "": not known)."""

    def context(self, i: int) -> render.FragmentContext:
        """Declaration ``i``'s context (worked out when a fragment is to be made)."""
        return self.links.context(i, self.variant, self.options)

    @property
    def misses(self) -> int:
        """How many declarations have their fragment to be made."""
        return self.found.count(None)

    @property
    def missing(self) -> list[int]:
        """The declarations whose fragment is to be made, by index."""
        return [i for i, piece in enumerate(self.found) if piece is None]


@dataclass
class Memo:
    """The cache; ``salt``: what every entry depends on besides its inputs (the generator and its
    templates); ``scope``: whose entries these are (the project and configuration)."""

    store: Cache
    salt: str
    scope: str = ""
    _shared: _Inputs | None = field(default=None, repr=False)
    indexed: set[tuple[str, str]] = field(default_factory=set, repr=False)
    """The modules (source, variant) ``formatted`` put together from entries, and kept the index of."""

    def plan(self, module: ir.Module, variant: str, source: str, options: RenderOptions,
             digests: Mapping[str, str] | None = None, unchanged: Unchanged | None = None) -> Plan:
        """The module's declarations in ``variant``, each with its fragment if the cache holds it
        (``digests``: ``store.digest_of`` some declarations, by name, where it is known already; ``unchanged``:
        the declarations whose key is the one in the module's index, where that index was kept with the
        record ``unchanged.before``).

        The entries of one module and variant are kept as the last run left them, in ``BUCKETS``
        cache values by the first two digits of their key (each replaced when one of its entries changed:
        they hold the module's declarations, not every version of them ever rendered, and an edit
        writes a bucket or two, not the whole module's).
        """
        if self._shared is None or self._shared.links.module is not module:  # once per module for all variants
            self._shared = _Inputs(render.links(module), dict(digests or {}))
        inputs = self._shared
        slots = self._slots(source, variant, options)
        found = self.store.get_many(NAMESPACE, slots)
        before = {key: data for slot in slots[:BUCKETS] for key, data in _entries(found.get(slot)).items()}
        entry_key = prefixed(NAMESPACE, SCHEME, self.salt, variant, repr(render.shared_options(options)))
        index = _index(found.get(slots[BUCKETS])) if unchanged is not None and unchanged.before else None
        names = tuple(d.name for d in module.declarations)
        if unchanged is None or index is None or index[0] != unchanged.before or index[2] != names:
            keys = [entry_key(inputs.of(i)) for i in range(len(names))]
        else:  # (an unchanged declaration's key is the index's)
            keys = [kept if name in unchanged.names else entry_key(inputs.of(i))
                    for i, (name, kept) in enumerate(zip(names, index[3]))]
        return Plan(module, variant, source, options, inputs.links, keys, [_fragment(before.get(k)) for k in keys],
                    slots, before, unchanged.now if unchanged is not None else "")

    def _slots(self, source: str, variant: str, options: RenderOptions) -> list[str]:
        """The values a module's entries are kept in: ``BUCKETS`` of them, then its index."""
        slot_key = prefixed(NAMESPACE, SCHEME, self.scope, source, variant, repr(options))
        return [slot_key(str(b)) for b in range(BUCKETS)] + [slot_key("index")]

    def layout(self, plan: Plan, env: jinja2.Environment) -> str:
        """``render.assemble`` of each declaration's ``render.fragment``: those the plan found, and
        the others made (and kept)."""
        fragments, entries = self._made(plan, env, {})
        self._keep(plan, entries)
        return render.assemble(plan.module, plan.variant, plan.source, env, plan.options, fragments)

    def formatted(self, plan: Plan, env: jinja2.Environment, session: Session,
                  made: Mapping[int, Entry] | None = None) -> str:
        """``session.format_one(self.layout(plan, env))``: the fragments' formatted stretches (the cache's,
        those ``made`` elsewhere by ``make``, by index, and those of the fragments made now, formatted
        together) spliced after the head's; the whole module formatted where one of them is not a stretch
        (``Session.stretches``)."""
        fragments, entries = self._made(plan, env, made or {})
        unknown = [i for i, (_, _, shape) in enumerate(entries) if shape == ()]
        for i, stretch in zip(unknown, session.stretches([entries[i][0] for i in unknown])):
            entries[i] = (entries[i][0], entries[i][1], _shape(stretch))
        head = render.head(plan.module, plan.variant, plan.source, env, plan.options, fragments)
        shapes = [shape for _, _, shape in entries]
        if fragments and all(shapes):
            [first] = session.stretches([head], head=True)
            if first is not None:
                text = splice([_shape(first), *shapes])  # type: ignore[list-item]
                names = tuple(d.name for d in plan.module.declarations)
                self._keep(plan, entries, (plan.record, _shape(first), names, tuple(plan.keys)))
                self.indexed.add((plan.source, plan.variant))
                return text
        self._keep(plan, entries)
        return session.format_one(head + "".join(piece.text for piece in fragments))

    def restore(self, source: str, variant: str, options: RenderOptions) -> str | None:
        """The module ``formatted`` last put together from entries for ``source`` in ``variant`` (with
        ``options``), put together again from its index; ``None`` if an entry is lost. (What a run with
        nothing to do writes where a generated file was changed or removed: the caller checks it.)"""
        slots = self._slots(source, variant, options)
        found = self.store.get_many(NAMESPACE, slots)
        index = _index(found.get(slots[BUCKETS]))
        if index is None:
            return None
        _, head, _, keys = index
        before = {key: data for slot in slots[:BUCKETS] for key, data in _entries(found.get(slot)).items()}
        try:
            return splice([head, *(before[key][2] for key in keys)])  # type: ignore[list-item]
        except Exception:  # an entry lost or replaced, of another shape: not kept
            return None

    def make(self, plan: Plan, env: jinja2.Environment, session: Session, indexes: Sequence[int]) -> list[Entry]:
        """The entries of the declarations ``indexes`` of the plan's module: each one's fragment and its
        stretch. (What ``formatted`` makes of those it did not find; a part of them can be made in another
        process, and given to ``formatted`` there.)"""
        pieces = [render.fragment(plan.module.declarations[i], plan.context(i), env) for i in indexes]
        stretches = session.stretches([piece.text for piece in pieces])
        return [(piece.text, piece.imports, _shape(stretch)) for piece, stretch in zip(pieces, stretches)]

    def _made(self, plan: Plan, env: jinja2.Environment,
              made: Mapping[int, Entry]) -> tuple[list[render.Fragment], list[Entry]]:
        """Each declaration's fragment and entry: ``made``'s, else the plan's, else made now."""
        fragments: list[render.Fragment] = []
        entries: list[Entry] = []
        for i, (d, key, piece) in enumerate(zip(plan.module.declarations, plan.keys, plan.found)):
            entry = made.get(i)
            if entry is not None:
                piece = render.Fragment(entry[0], entry[1])
            else:
                entry = plan.before.get(key)
                if piece is None or entry is None:
                    piece = render.fragment(d, plan.context(i), env)
                    entry = (piece.text, piece.imports, ())
            entries.append(entry)
            fragments.append(piece)
        return fragments, entries

    def _keep(self, plan: Plan, entries: list[Entry], index: Index | None = None) -> None:
        """The entries of the module's declarations, in the buckets that changed, and the module's ``index``
        (in the same transaction; ``None``: the module is not put together from them, and has none)."""
        kept = dict(zip(plan.keys, entries))
        changed = {_bucket(key) for key in plan.before.keys() ^ kept.keys()}
        changed |= {_bucket(key) for key, entry in kept.items() if plan.before.get(key) != entry}
        buckets = grouped(kept, changed, _bucket)
        values = {plan.slots[b]: pickle.dumps(buckets[b], protocol=pickle.HIGHEST_PROTOCOL) for b in sorted(changed)}
        values[plan.slots[BUCKETS]] = pickle.dumps(index, protocol=pickle.HIGHEST_PROTOCOL)
        self.store.put_many(NAMESPACE, values)


class _Inputs:
    """The inputs of each declaration's fragment besides the variant and options (the same for the whole
    module and variant: in the key's prefix), said in one string: itself, each declaration it refers to
    (name and digest) and which are declared further down. No variant changes them: each is worked out
    once for all, when first asked (``of``)."""

    def __init__(self, links: render.Links, digests: dict[str, str]) -> None:
        """``digests``: ``digest_of`` some declarations, by name, known already (the others are worked out)."""
        self.links = links
        self._digests = digests
        self._said: dict[int, str] = {}

    def of(self, i: int) -> str:
        found = self._said.get(i)
        if found is None:
            refers, later = self.links.at(i)
            referred = " ".join(f"{name}={self._digest(name)}" for name in refers)
            own = self._digest(self.links.module.declarations[i].name)
            found = self._said[i] = "\n".join((own, referred, " ".join(sorted(later))))
        return found

    def _digest(self, name: str) -> str:
        known = self._digests.get(name)
        if known is None:
            known = self._digests[name] = digest_of(self.links.declarations[name])
        return known


def _index(data: bytes | None) -> Index | None:
    try:
        index = pickle.loads(data) if data is not None else None
    except Exception:
        return None
    return index if isinstance(index, tuple) and len(index) == 4 else None


def _bucket(key: str) -> int:
    return int(key[:2], 16) % BUCKETS


def _entries(data: bytes | None) -> dict[str, Entry]:
    """The entries a run kept for a module and variant: each one's key, text and imports."""
    if data is None:
        return {}
    try:
        entries = pickle.loads(data)
    except Exception:
        return {}
    return entries if isinstance(entries, dict) else {}


def _shape(stretch: Stretch | None) -> Shape:
    return None if stretch is None else tuple(stretch)  # type: ignore[return-value]


def _fragment(entry: Entry | None) -> render.Fragment | None:
    """The fragment an entry holds; ``None`` for none, or one of another shape (a damaged cache)."""
    if not isinstance(entry, tuple) or len(entry) != 3 or not isinstance(entry[0], str) or not _state(entry[1]) \
            or not _known(entry[2]):
        return None
    return render.Fragment(entry[0], entry[1])


def _known(shape: object) -> bool:
    """``shape`` has the shape of a ``Shape``."""
    return shape is None or shape == () or (type(shape) is tuple and tuple(map(type, shape)) == _SHAPE
                                            and shape[0] in KINDS and shape[2] in KINDS)


def _state(value: object) -> bool:
    """``value`` has the shape of an ``Imports.state()``."""
    return isinstance(value, tuple) and len(value) == 3 and all(isinstance(part, tuple) for part in value)
