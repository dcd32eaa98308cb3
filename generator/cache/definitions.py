"""Each definition's declarations kept by the text they are made from: after an edit of one component,
lowering lowers that component and the definitions that read it (``lower.units``), not the whole input.

A definition's *source* is the digest of the pieces of its document's text (``yaml_pieces``) at,
within or around its place; the *context* is that of every other piece (the document's other parts,
its operations, the text of its keys), with the generator and the input's naming. A run whose
context is the last one's, and whose definitions are the same keys, lowers again each definition
that reads one whose source changed, that met one lowered again (a name, an inline model: ``met``)
or that asks another input for a type; the others are put back as ``Unit`` s, in ``home_first``'s
order, with what they reported. Where putting them back could differ from lowering the whole set
(``units.again`` says when, and so does a changed name decided over the whole set, an edited
derived definition, an error), the whole set is lowered. The result is the module and the
warnings the whole lowering gives; the edit oracle (``tests/test_edit_oracle.py``) checks it.

A document not read by pieces (JSON, short YAML) is lowered whole, as before. One entry per project
and input, replaced as it changes: a meta entry and the units in ``BUCKETS`` values by key.
"""

from __future__ import annotations

import os
import pickle
from collections.abc import Iterable

from .. import ir
from ..diagnostics import Diagnostic, Reporter
from ..frontend.schema import SchemaSet
from ..frozen import Frozen, replace
from ..ir.walk import rename_all
from ..lower.context import External, Known, Names, Taken
from ..lower.homes import home_first
from ..lower.lowering import lower, lowered
from ..lower.sdk import sdk_names
from ..lower.shorten import short_names
from ..lower.units import Reads, Unit, again, record, to_lower_again
from ..names import Naming
from . import pickled
from .places import Places
from .store import Cache, bucket_of, digest, digest_of, grouped

Digested = tuple[Unit, tuple[str, ...]]
"""A unit, with ``digest_of`` each of its declarations (which the passes' record tells them apart by)."""

Shortened = tuple[dict[str, str], frozenset[str], str]
"""The short names a module's inline classes took (``shorten.short_names``), the declarations that
renaming them changed (by their names before): those it renamed, and those that mention one; and a digest
of what the short names were chosen from (the declarations' names, and where the inline ones are declared)."""

NAMESPACE = "units"
SCHEME = "6"
BUCKETS = 64


class _Meta(Frozen, frozen=True):
    context: str
    sources: dict[str, str]
    """Each definition's source, by key."""
    order: tuple[str, ...]
    """``home_first``'s order."""
    names: dict[str, str]
    """Each definition's class name (``Names.chosen``, derived ones too)."""
    own: dict[str, str]
    """``sdk.sdk_names``."""
    stamps: tuple[str, ...] = ()
    """The token each bucket was last stored with, made anew each time, in the same transaction as
    this entry: a bucket another run stored meanwhile (for other sources) is never read with it."""
    shortened: Shortened | None = None


class Definitions:
    """The units of a project's inputs in ``store``; ``salt``: the generator's digest."""

    def __init__(self, store: Cache, salt: str, scope: str) -> None:
        """``scope``: whose entries these are (the project and its configuration)."""
        self.store = store
        self.salt = salt
        self.scope = scope
        self._known: dict[int, tuple[ir.Module, dict[str, str]]] = {}

    def digests(self, module: ir.Module) -> dict[str, str]:
        """``digest_of`` the declarations of ``module`` (which ``lower`` gave) that are the very objects its
        units hold, by name: each kept with its unit, or worked out when the unit was made."""
        found = self._known.get(id(module))
        return found[1] if found is not None and found[0] is module else {}

    def _tell(self, module: ir.Module, units: Iterable[tuple[Unit, tuple[str, ...]]]) -> ir.Module:
        """``module``, its declarations' digests noted where they are its units' own (``digests``)."""
        by_id = {id(d): known for unit, digests in units for d, known in zip(unit.declarations, digests)}
        self._known[id(module)] = (module, {d.name: by_id[id(d)] for d in module.declarations if id(d) in by_id})
        return module

    def lower(self, schemas: SchemaSet, reporter: Reporter, external: External | None, names: Naming,
              settings: str, places: Places) -> ir.Module:
        """``lower.lower(schemas, reporter, external, names)`` of an input (``settings``: its ``repr``) of
        one document, read by the pieces of ``places``."""
        found = sources(schemas, places)
        display = places.display
        if found is None:
            return lower(schemas, reporter, external, names)
        context, by_key = found
        context = digest(SCHEME, self.salt, os.environ.get("PYTHONHASHSEED", ""), settings, context, names,
                         repr(sorted(schemas.anything)),
                         repr(None if schemas.responses is None else sorted(schemas.responses)), repr(schemas.openapi))
        slots = self._slots(display)
        meta = self._meta(slots[0], context, by_key)
        if meta is not None:
            module = self._again(schemas, reporter, external, names, meta, by_key, slots)
            if module is not None:
                return module
        lowering = lowered(schemas, reporter, external, names)
        module, short = _finished([d for d in lowering.declarations if d is not None], lowering.scope.names.get("#"),
                                  lowering.declared_in, names)
        if not reporter.errors:
            chosen = dict(lowering.scope.names.chosen)  # type: ignore[attr-defined]
            kept = _Meta(context, by_key, tuple(lowering.spans), chosen, dict(lowering.own), shortened=short)
            units = _digested(record(lowering, Reads(schemas.definitions, lowering.folds)))
            self._put(slots, kept, units, set(range(BUCKETS)))
            return self._tell(module, units.values())
        return module

    def _again(self, schemas: SchemaSet, reporter: Reporter, external: External | None, names: Naming,
               meta: _Meta, by_key: dict[str, str], slots: list[str]) -> ir.Module | None:
        """The module with the definitions that read a changed one lowered again; ``None``: lower the whole set."""
        units = self._units(slots, meta.stamps)
        if units.keys() != by_key.keys():
            return None
        unit = {key: kept for key, (kept, _) in units.items()}
        changed = {key for key, source in by_key.items() if meta.sources[key] != source}
        redo = to_lower_again(unit, changed)
        definitions = schemas.definitions
        if any(definitions[key].derived for key in changed):
            return None  # its name is made from where it is used
        given = Names(definitions, Taken({}), meta.own).chosen
        if any(meta.names.get(key) != name for key, name in given.items()):
            return None
        if names == "sdk" and sdk_names(definitions, schemas.responses) != meta.own:
            return None
        reads = Reads(definitions)
        order = meta.order
        if any(tuple(reads.folded(key)) != unit[key].folds for key in changed):
            order = tuple(home_first(definitions))
        known = Known(meta.names, frozenset(given.values()), frozenset(given.values()), None)
        lowering = again(schemas, external, meta.own, known, unit, order, redo)
        if lowering is None:
            return None
        declarations: list[ir.Declaration] = []
        put_back: set[int] = set()
        declared_in: dict[str, str] = {}
        for key in order:
            if key in redo:
                first, last = lowering.spans[key]
                declarations += (d for d in lowering.declarations[first:last] if d is not None)
                first, last = lowering.said[key]
                said: Iterable[Diagnostic] = lowering.heard.said[first:last]
            else:
                put_back.update(range(len(declarations), len(declarations) + len(unit[key].declarations)))
                declarations += unit[key].declarations
                declared_in.update(unit[key].declared_in)
                said = unit[key].said
            for diagnostic in said:
                reporter.add(diagnostic)
        declared_in.update(lowering.declared_in)
        module, short = _finished(declarations, meta.names.get("#"), declared_in, names, meta.shortened, put_back)
        made = _digested(record(lowering, reads, redo))
        units.update(made)
        self._put(slots, _Meta(meta.context, by_key, order, meta.names, meta.own, meta.stamps, short), units,
                  {_bucket(k) for k in made})
        return self._tell(module, units.values())

    def _slots(self, display: str) -> list[str]:
        """The meta entry's key, then each bucket's."""
        return [digest(NAMESPACE, SCHEME, self.scope, display, str(b)) for b in range(-1, BUCKETS)]

    def _meta(self, slot: str, context: str, by_key: dict[str, str]) -> _Meta | None:
        data = self.store.get(NAMESPACE, slot)
        try:
            meta = pickle.loads(data) if data is not None else None
        except Exception:  # another version of the classes, a damaged entry: a miss
            return None
        if not isinstance(meta, _Meta) or meta.context != context or meta.sources.keys() != by_key.keys():
            return None
        return meta

    def _units(self, slots: list[str], stamps: tuple[str, ...]) -> dict[str, Digested]:
        """Every unit of the buckets, with its declarations' digests, each bucket stored with its token in
        ``stamps``; none if one was not."""
        found = self.store.get_many(NAMESPACE, slots[1:])
        units: dict[str, Digested] = {}
        for slot, stamp in zip(slots[1:], stamps or ("",) * BUCKETS):
            try:
                kept = pickle.loads(found[slot]) if slot in found else None
            except Exception:  # another version of the classes, a damaged entry: a miss
                return {}
            if not (isinstance(kept, tuple) and len(kept) == 2 and kept[0] == stamp and isinstance(kept[1], dict)):
                return {}
            units.update(kept[1])
        return units if all(isinstance(u, tuple) and len(u) == 2 and isinstance(u[0], Unit) and isinstance(u[1], tuple)
                            and len(u[1]) == len(u[0].declarations) for u in units.values()) else {}

    def _put(self, slots: list[str], meta: _Meta, units: dict[str, Digested], changed: set[int]) -> None:
        """Keeps ``meta``, and the buckets ``changed`` of ``units`` (every definition's), each with a new token."""
        stamps = list(meta.stamps or ("",) * BUCKETS)
        for b in changed:
            stamps[b] = os.urandom(8).hex()
        meta = replace(meta, stamps=tuple(stamps))
        buckets = grouped(units, changed, _bucket)
        entries = {slots[0]: pickled.dumps(meta)}
        entries.update({slots[b + 1]: pickled.dumps((stamps[b], bucket))
                        for b, bucket in buckets.items()})
        self.store.put_many(NAMESPACE, entries)


def sources(schemas: SchemaSet, places: Places | None) -> tuple[str, dict[str, str]] | None:
    """The context of ``schemas`` and each definition's source (``places``: of the document they were read
    from, by pieces); ``None`` where they are not known (a document read whole, a definition from another file)."""
    if places is None:
        return None
    by_key: dict[str, str] = {}
    for key, definition in schemas.definitions.items():
        source = places.source(key) if definition.schema.file == places.display else None
        if source is None:
            return None
        by_key[key] = source
    return places.context(by_key), by_key


def _finished(declarations: list[ir.Declaration], root: str | None, declared_in: dict[str, str], names: Naming,
              before: Shortened | None = None, put_back: set[int] | frozenset[int] = frozenset()
              ) -> tuple[ir.Module, Shortened]:
    """``lowering.finished`` of the declarations of one document's definitions (none copied from another
    file, none left out), and what shortening their names changed. The short names are ``before``'s where they
    are chosen from the same names (not chosen again: that compares every name). Where they are ``before``'s,
    a declaration put back as the last run had it (those at ``put_back``) is renamed only if it was then:
    the others are as they were, and are not walked for the names they mention."""
    named = [d.name for d in declarations]
    chosen_from = digest(repr(named), repr(declared_in))  # (of the names' setting too: it is in the context)
    short = before[0] if before is not None and before[2] == chosen_from else short_names(named, declared_in, names)
    look = range(len(declarations)) if before is None or before[0] != short else \
        [i for i, d in enumerate(declarations) if i not in put_back or d.name in before[1]]
    renamed = rename_all(ir.Module(tuple(declarations[i] for i in look), root), short)
    out = list(declarations)
    for i, d in zip(look, renamed.declarations):
        out[i] = d
    touched = frozenset(declarations[i].name for i, d in zip(look, renamed.declarations) if d is not declarations[i])
    return ir.Module(tuple(out), renamed.root), (short, touched, chosen_from)


def _digested(units: dict[str, Unit]) -> dict[str, Digested]:
    return {key: (unit, tuple(digest_of(d) for d in unit.declarations)) for key, unit in units.items()}


def _bucket(key: str) -> int:
    return bucket_of(key, BUCKETS)
