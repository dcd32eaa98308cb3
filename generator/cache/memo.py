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

After an edit, a module whose file still holds the text the memo last put together is spliced from that
text (``spliced``): the declarations whose key is the one the module's index kept have their stretch there,
and only the buckets of the others' keys (and of keys gone) are read, not the module's every entry.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from .. import ir, render
from ..frozen import Frozen
from ..render.imports import State
from ..render.options import RenderOptions
from .entries import Entry, Index, entries_of, fragment_of, index_of, shape_of
from .format.chunks import Kind, splice
from .spliced import Before, Layout, Shape, digest, layout, starts
from .store import bucket, digest_of, digests as prefixed, grouped

if TYPE_CHECKING:
    import jinja2

    from .format import Session
    from .store import Cache

class Unchanged(Frozen, frozen=True):
    """What the passes' record says of a module it made (``cache.passed``): the declarations (``names``) that
    are what they were in the run that kept the record it started from (``before``), and so are what they
    refer to and where those stand; ``now``: the record this run keeps."""

    before: str
    now: str
    names: frozenset[str]

NAMESPACE = "declaration"
SCHEME = "8"
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
    """The entries of the buckets read (``read``), by key."""
    record: str = ""
    """The passes' record the module was made from (``Unchanged.now``; "": not known)."""
    spliced: Before | None = None
    """The text the module was last put together as, where it is spliced from it (``spliced``)."""
    same: frozenset[int] = frozenset()
    """The declarations whose stretch is in that text, by index (their entries are not read)."""
    read: frozenset[int] = frozenset(range(BUCKETS))
    """The buckets whose entries are in ``before``: every one, or (spliced) those of the other declarations'
    keys and of the keys no declaration has any more."""

    def context(self, i: int) -> render.FragmentContext:
        """Declaration ``i``'s context (worked out when a fragment is to be made)."""
        return self.links.context(i, self.variant, self.options)

    @property
    def misses(self) -> int:
        """How many declarations have their fragment to be made."""
        return len(self.missing)

    @property
    def missing(self) -> list[int]:
        """The declarations whose fragment is to be made, by index."""
        return [i for i, piece in enumerate(self.found) if piece is None and i not in self.same]


@dataclass
class Memo:
    """The cache; ``salt``: what every entry depends on besides its inputs (the generator and its
    templates); ``scope``: whose entries these are (the project and configuration)."""

    store: Cache
    salt: str
    scope: str = ""
    _shared: _Inputs | None = field(default=None, repr=False)
    indexed: dict[tuple[str, str], tuple[str, bytes]] = field(default_factory=dict, repr=False)
    """The modules (source, variant) ``formatted`` put together from entries, and kept the index of: the
    digest of each one's text (``spliced.digest`` of its bytes), and those bytes (UTF-8: encoded once)."""

    def plan(self, module: ir.Module, variant: str, source: str, options: RenderOptions,
             digests: Mapping[str, str] | None = None, unchanged: Unchanged | None = None,
             written: Callable[[], bytes | None] | None = None) -> Plan:
        """The module's declarations in ``variant``, each with its fragment if the cache holds it
        (``digests``: ``store.digest_of`` some declarations, by name, where it is known already; ``unchanged``:
        the declarations whose key is the one in the module's index, where that index was kept with the
        record ``unchanged.before``; ``written``: the bytes of the module as the last run wrote it, if any,
        which the module is spliced from where it is the one the index was kept with: ``spliced``).

        The entries of one module and variant are kept as the last run left them, in ``BUCKETS``
        cache values by the first two digits of their key (each replaced when one of its entries changed:
        they hold the module's declarations, not every version of them ever rendered, and an edit
        writes a bucket or two, not the whole module's).
        """
        if self._shared is None or self._shared.links.module is not module:  # once per module for all variants
            self._shared = _Inputs(render.links(module), dict(digests or {}))
        inputs = self._shared
        slots = self._slots(source, variant, options)
        entry_key = prefixed(NAMESPACE, SCHEME, self.salt, variant, repr(render.shared_options(options)))
        index = index_of(self.store.get(NAMESPACE, slots[BUCKETS]))
        names = tuple(d.name for d in module.declarations)
        if unchanged is None or not unchanged.before or index is None or index[0] != unchanged.before \
                or index[2] != names:
            keys = [entry_key(inputs.of(i)) for i in range(len(names))]
        else:  # (an unchanged declaration's key is the index's)
            keys = [kept if name in unchanged.names else entry_key(inputs.of(i))
                    for i, (name, kept) in enumerate(zip(names, index[3]))]
        spliced = Before.of(index, written) if index is not None and written is not None else None
        same = spliced.same(names, keys) if spliced is not None else frozenset()
        read = frozenset(range(BUCKETS)) if spliced is None else frozenset(
            {_bucket(key) for i, key in enumerate(keys) if i not in same}
            | {_bucket(key) for key in set(spliced.keys.values()).difference(keys)})
        before_entries = self._read(slots, read)
        found = [None if i in same else fragment_of(before_entries.get(key)) for i, key in enumerate(keys)]
        return Plan(module, variant, source, options, inputs.links, keys, found, slots, before_entries,
                    unchanged.now if unchanged is not None else "", spliced, same, read)

    def _read(self, slots: list[str], buckets: frozenset[int]) -> dict[str, Entry]:
        """The entries of ``buckets``, by key."""
        found = self.store.get_many(NAMESPACE, [slots[b] for b in sorted(buckets)])
        return {key: data for b in sorted(buckets) for key, data in entries_of(found.get(slots[b])).items()}

    def _whole(self, plan: Plan) -> Plan:
        """``plan`` with every entry read (not spliced)."""
        if plan.spliced is None:
            return plan
        before = self._read(plan.slots, frozenset(range(BUCKETS)))
        return replace(plan, found=[fragment_of(before.get(key)) for key in plan.keys], before=before, spliced=None,
                       same=frozenset(), read=frozenset(range(BUCKETS)))

    def _slots(self, source: str, variant: str, options: RenderOptions) -> list[str]:
        """The values a module's entries are kept in: ``BUCKETS`` of them, then its index."""
        slot_key = prefixed(NAMESPACE, SCHEME, self.scope, source, variant, repr(options))
        return [slot_key(str(b)) for b in range(BUCKETS)] + [slot_key("index")]

    def layout(self, plan: Plan, env: jinja2.Environment) -> str:
        """``render.assemble`` of each declaration's ``render.fragment``: those the plan found, and
        the others made (and kept)."""
        plan = self._whole(plan)
        fragments, entries = self._made(plan, env, {})
        self._keep(plan, dict(enumerate(entries)))
        return render.assemble(plan.module, plan.variant, plan.source, env, plan.options, fragments)

    def formatted(self, plan: Plan, env: jinja2.Environment, session: Session,
                  made: Mapping[int, Entry] | None = None) -> str:
        """``session.format_one(self.layout(plan, env))``: the fragments' formatted stretches (the cache's,
        those ``made`` elsewhere by ``make``, by index, and those of the fragments made now, formatted
        together) spliced after the head's; the whole module formatted where one of them is not a stretch
        (``Session.stretches``)."""
        made = made or {}
        if plan.spliced is not None:
            text = self._spliced(plan, env, session, made)
            if text is not None:
                return text
            plan = self._whole(plan)  # (a fragment black treats specially: the module is formatted whole)
        fragments, listed = self._made(plan, env, made)
        entries = _stretched(session, dict(enumerate(listed)))
        imports = [entry[1] for entry in entries.values()]
        shapes = [shape for _, _, shape in entries.values() if shape is not None and len(shape) == 5]
        if fragments and len(shapes) == len(entries):
            layouts = [layout(s) for s in shapes]
            text = self._put_together(plan, env, session, imports, layouts, entries,
                                      lambda first: (splice([first, *shapes]), starts(first, layouts)))
            if text is not None:
                return text
        self._keep(plan, entries)
        head = render.head(plan.module, plan.variant, plan.source, env, plan.options, imports)
        return session.format_one(head + "".join(piece.text for piece in fragments))

    def _spliced(self, plan: Plan, env: jinja2.Environment, session: Session, made: Mapping[int, Entry]) -> str | None:
        """``formatted`` of a plan spliced from the text before: the entries of the declarations not in it
        made or read; ``None`` where one is not a stretch (or there are none)."""
        before = plan.spliced
        assert before is not None
        declarations = plan.module.declarations
        entries: dict[int, Entry] = {}
        for i, (d, key, piece) in enumerate(zip(declarations, plan.keys, plan.found)):
            if i not in plan.same:
                entry = made.get(i) or (plan.before.get(key) if piece is not None else None)
                if entry is None:
                    piece = render.fragment(d, plan.context(i), env)
                    entry = (piece.text, piece.imports, ())
                entries[i] = entry
        entries = _stretched(session, entries)
        formatted = {i: shape for i, (_, _, shape) in entries.items() if shape is not None and len(shape) == 5}
        if not declarations or len(formatted) != len(entries):
            return None
        names = [d.name for d in declarations]
        kept_imports, kept_layouts = before.kept([name for i, name in enumerate(names) if i not in entries])
        old_imports, old_layouts = iter(kept_imports), iter(kept_layouts)  # (the others, in order)
        imports = [entries[i][1] if i in entries else next(old_imports) for i in range(len(names))]
        layouts = [layout(formatted[i]) if i in formatted else next(old_layouts) for i in range(len(names))]
        stretches = [(name, formatted.get(i)) for i, name in enumerate(names)]
        return self._put_together(plan, env, session, imports, layouts, entries,
                                  lambda first: before.splice(first, stretches))

    def _put_together(self, plan: Plan, env: jinja2.Environment, session: Session, imports: list[State],
                      layouts: list[Layout], entries: dict[int, Entry],
                      join: Callable[[Shape], tuple[str, list[int]]]) -> str | None:
        """The module: its head (with ``imports``) and the declarations' stretches, spliced by ``join`` (given the
        head's stretch; with where each stretch starts); its index kept with the declarations' ``layouts`` and
        the ``entries`` made. ``None`` where black treats the head specially."""
        head = render.head(plan.module, plan.variant, plan.source, env, plan.options, imports)
        [first] = session.stretches([head], head=True)
        if first is None:
            return None
        text, at = join(first)
        names = tuple(d.name for d in plan.module.declarations)
        data = text.encode()
        made = digest(data)
        index = (plan.record, shape_of(first), names, tuple(plan.keys), tuple(layouts), tuple(imports), tuple(at), made)
        self._keep(plan, entries, index)
        self.indexed[plan.source, plan.variant] = (made, data)
        return text

    def restore(self, source: str, variant: str, options: RenderOptions) -> str | None:
        """The module ``formatted`` last put together from entries for ``source`` in ``variant`` (with
        ``options``), put together again from its index; ``None`` if an entry is lost. (What a run with
        nothing to do writes where a generated file was changed or removed: the caller checks it.)"""
        slots = self._slots(source, variant, options)
        index = index_of(self.store.get(NAMESPACE, slots[BUCKETS]))
        if index is None:
            return None
        _, head, _, keys, *_ = index
        before = self._read(slots, frozenset(range(BUCKETS)))
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
        return [(piece.text, piece.imports, shape_of(stretch)) for piece, stretch in zip(pieces, stretches)]

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

    def _keep(self, plan: Plan, entries: Mapping[int, Entry], index: Index | None = None) -> None:
        """The entries of the module's declarations (``entries``, by index: each one's, or, spliced, those not in
        the text before, whose own stay as they are), in the buckets that changed, and the module's ``index`` (in
        the same transaction; ``None``: the module is not put together from them, and has none)."""
        keys = plan.keys
        had = plan.before.keys() if plan.spliced is None else plan.spliced.keys.values()
        changed = {_bucket(key) for key in set(had).difference(keys)}
        changed |= {_bucket(keys[i]) for i, entry in entries.items() if plan.before.get(keys[i]) != entry}
        before = {**plan.before, **self._read(plan.slots, frozenset(changed - plan.read))}
        kept = {key: entries[i] if i in entries else before[key] for i, key in enumerate(keys)
                if i in entries or key in before}
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


def _bucket(key: str) -> int:
    return bucket(key, BUCKETS)  # (a key is a digest already)


def _stretched(session: Session, entries: dict[int, Entry]) -> dict[int, Entry]:
    """``entries``, those whose stretch is not known yet (``()``) formatted together."""
    unknown = [i for i, (_, _, shape) in entries.items() if shape == ()]
    for i, stretch in zip(unknown, session.stretches([entries[i][0] for i in unknown])):
        entries[i] = (entries[i][0], entries[i][1], shape_of(stretch))
    return entries
