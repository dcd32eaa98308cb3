"""Rendering declaration by declaration, each declaration's text remembered across runs.

What the view and the template make of one declaration depends on the declaration, on the other
declarations the variant's rules read for it (a referenced alias, the members of a union), on which
of the names it uses are defined further down the module, on the enum classes it names, and on the
variant, options and generator. While a declaration's view is built those reads are recorded; the
cache keeps its text and imports beside them, under a key made of the declaration itself (its
``repr``, which names every field of every node), all of a module's entries in one value. A later run
takes a declaration's text when everything it read is as it was, and builds only the others.

The module is then its header and imports followed by each declaration's text: the layout of the
built-in templates (a test checks it against rendering whole). A template folder of one's own may lay
a module out any other way, so with one the application lays modules out whole (``project.plan``).
"""

from __future__ import annotations

import pickle
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .. import ir
from ..render import VARIANTS, view
from ..render.imports import Imports
from ..render.options import RenderOptions
from .reads import Reads
from .store import digest, digests as prefixed

if TYPE_CHECKING:
    import jinja2

    from .store import Cache

NAMESPACE = "declaration"
SCHEME = "2"
BUCKETS = 16


@dataclass
class Memo:
    """The cache; ``salt``: what every entry depends on besides its declaration (the generator);
    ``scope``: whose entries these are (the project and configuration)."""

    store: Cache
    salt: str
    scope: str = ""
    _digests: tuple[ir.Module, dict[str, str]] | None = field(default=None, repr=False)

    def digests(self, module: ir.Module) -> dict[str, str]:
        """Each declaration's digest, once per module for all variants."""
        if self._digests is None or self._digests[0] is not module:
            self._digests = (module, {d.name: _digest(d) for d in module.declarations})
        return self._digests[1]

    def layout(self, module: ir.Module, variant: str, source: str, env: jinja2.Environment,
               options: RenderOptions) -> str:
        """``render.layout(module, variant, source, env, options)``, declaration by declaration.

        The entries of one module and variant are kept as the last run left them, in ``BUCKETS``
        cache values by the first digit of their key (each replaced when one of its entries changed:
        they hold the module's declarations, not every version of them ever rendered, and an edit
        writes a bucket or two, not the whole module's).
        """
        rules = VARIANTS[variant]
        template = env.get_template(rules.template)
        digests = self.digests(module)
        ctx = view.context(module, rules, options)
        slot_key = prefixed(NAMESPACE, SCHEME, self.scope, source, rules.name, repr(options))
        slots = [slot_key(str(b)) for b in range(BUCKETS)]
        found = self.store.get_many(NAMESPACE, slots)
        before = {key: data for slot in slots for key, data in _entries(found.get(slot)).items()}
        entry_key = prefixed(NAMESPACE, SCHEME, self.salt, rules.name, repr(options))
        keys = [entry_key(digests[d.name]) for d in module.declarations]
        texts: list[str | None] = []
        built: list[tuple[int, View, _Entry | None]] = []
        kept: dict[str, bytes] = {}
        for d, key in zip(module.declarations, keys):
            data = before.get(key)
            entry = _load(data)
            if entry is not None and data is not None and entry.holds(digests, ctx):
                texts.append(entry.text)
                kept[key] = data
                imports = entry.imports
            else:
                entry, declared, imports = _Entry.build(d, ctx, digests)
                built.append((len(texts), declared, entry))
                texts.append(None)
            ctx.imports.merge(imports)
            ctx.undefined.discard(d.name)
        for (i, _, entry), text in zip(built, _fragments(template, [view for _, view, _ in built])):
            texts[i] = text
            if entry is not None:
                entry.text = text
                kept[keys[i]] = pickle.dumps(entry, protocol=pickle.HIGHEST_PROTOCOL)
        changed = {_bucket(key) for key in before.keys() ^ kept.keys()} | {_bucket(keys[i]) for i, _, _ in built}
        buckets: dict[int, dict[str, bytes]] = {b: {} for b in changed}
        for k, v in kept.items():
            bucket = buckets.get(_bucket(k))
            if bucket is not None:
                bucket[k] = v
        self.store.put_many(NAMESPACE, {slots[b]: pickle.dumps(buckets[b], protocol=pickle.HIGHEST_PROTOCOL)
                                        for b in sorted(changed)})
        return template.render(module=view.head(module, rules, source, ctx, command=options.command)) + "".join(texts)  # type: ignore[arg-type]


View = view.ClassView | view.AliasView | view.EnumView


@dataclass
class _Entry:
    text: str
    imports: Imports
    declarations: tuple[tuple[str, str | None], ...]
    """Each declaration read, and its digest then (``None``: there was none of that name)."""
    undefined: tuple[tuple[frozenset[str], frozenset[str]], ...]
    """Each question "which of these names are defined further down?", and its answer then."""
    enums: tuple[tuple[str, str | None], ...]
    """Each enum class looked up, and its members then (``None``: no enum class of that name)."""
    sizes: tuple[int | None, int | None]
    """How many declarations and enum classes there were, where that was asked."""

    @classmethod
    def build(cls, d: ir.Declaration, ctx: view.Context,
              digests: Mapping[str, str]) -> tuple[_Entry | None, View, Imports]:
        """What ``d`` reads in ``ctx`` (an entry, its text to come; none when it read everything),
        its view, and what it imports."""
        declarations = Reads(ctx.declarations, digests.get)
        enums = Reads(ctx.enums, lambda name: repr(ctx.enums[name]) if name in ctx.enums else None)
        undefined = _Undefined(ctx.undefined)
        recording = view.Context(Imports(), ctx.variant, declarations, undefined, enums)  # type: ignore[arg-type]
        declared = view.declaration(d, recording)
        if declarations.everything or enums.everything:
            return None, declared, recording.imports
        entry = cls("", recording.imports, tuple(declarations.read.items()), tuple(undefined.asked.items()),
                    tuple(enums.read.items()), (declarations.size, enums.size))
        return entry, declared, recording.imports

    def holds(self, digests: Mapping[str, str], ctx: view.Context) -> bool:
        """Whether everything this text was made from is as it was."""
        sizes = (len(ctx.declarations), len(ctx.enums))
        return (all(was is None or was == now for was, now in zip(self.sizes, sizes))
                and all(digests.get(name) == digest for name, digest in self.declarations)
                and all(ctx.undefined.intersection(names) == answer for names, answer in self.undefined)
                and all((repr(ctx.enums[name]) if name in ctx.enums else None) == members
                        for name, members in self.enums))


class _Undefined:
    """The names not defined yet, noting each question asked of them."""

    def __init__(self, inner: set[str]) -> None:
        self.inner = inner
        self.asked: dict[frozenset[str], frozenset[str]] = {}

    def intersection(self, names: Iterable[str]) -> frozenset[str]:
        asked = frozenset(names)
        answer = self.asked[asked] = frozenset(self.inner.intersection(asked))
        return answer


_SEPARATOR = view.AliasView("\0", "\0", None)
"""A declaration no schema can give (a NUL is always escaped), written between the others."""


def _fragments(template: jinja2.Template, views: list[View]) -> list[str]:
    """What ``template`` writes for each view: one rendering for all, cut at separators."""
    if not views:
        return []
    empty = template.render(module=view.ModuleView("", (), ()))
    separator = template.render(module=view.ModuleView("", (), (_SEPARATOR,)))
    interleaved = [v for declared in views for v in (declared, _SEPARATOR)]
    text = template.render(module=view.ModuleView("", (), tuple(interleaved)))
    if not (separator.startswith(empty) and text.startswith(empty)):
        raise ValueError("the module template does not write declarations after what it writes before them")
    pieces = text[len(empty):].split(separator[len(empty):])
    if len(pieces) != len(views) + 1 or pieces[-1]:
        raise ValueError("the module template does not write one declaration after another")
    return pieces[:-1]


def _bucket(key: str) -> int:
    return int(key[0], 16) % BUCKETS


def _digest(d: ir.Declaration) -> str:
    """A digest of everything ``d`` says: its ``repr`` names every field of every node (a test checks
    that no IR field is left out of it), and is 2-3 times as fast as pickling."""
    return digest(repr(d))


def _entries(data: bytes | None) -> dict[str, bytes]:
    """The entries a run kept for a module and variant: each one's key and pickled bytes."""
    if data is None:
        return {}
    try:
        entries = pickle.loads(data)
    except Exception:
        return {}
    return entries if isinstance(entries, dict) else {}


def _load(data: bytes | None) -> _Entry | None:
    if data is None:
        return None
    try:
        entry = pickle.loads(data)
    except Exception:  # written by another version of the classes: a miss
        return None
    return entry if isinstance(entry, _Entry) else None
