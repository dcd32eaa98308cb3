"""The checks of the values a set's schemas give themselves (``lint.examples``, ``lint.check``), remembered
definition by definition: after an edit of one component, only the definitions whose checks can say
something else are checked again.

What ``lint`` says of a definition's own values (its ``example`` s, its ``examples`` and ``default`` s, its
``discriminator`` mappings) depends on its own schema and on the schemas its ``$ref`` s reach, in turn, and
on which keys the set has. So a definition's entry is kept by a digest of its *closure*: what its normal form
and those of every definition it reaches were made from (``normalised.Keeper.made_from``), a strongly
connected component of the reference graph digested as one, with the set's keys. Which definitions a
definition refers to is kept by what it was made from, so that an edit walks the edited definitions alone.

Only a set whose every definition was read by pieces is checked so (``made_from`` knows each one): no
definition is nested in another, and the warnings, put together definition by definition in the set's
order, are those ``lint`` gives the whole set (its mappings' as it walks, then its values', both in that
order). Any other set is checked whole. One entry per project and document, replaced as it changes.
"""

from __future__ import annotations

import pickle
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from ..diagnostics import Diagnostic, Location, Reporter
from ..frontend import lint
from ..frontend.schema import Definition, Schema, SchemaSet, refs_of
from . import pickled
from .store import Cache, digest

NAMESPACE = "linted"
SCHEME = "2"

Said = tuple[Diagnostic, ...]
Value = tuple[Location, str, Any, Schema]
"""A value a schema gives itself, to check: where, what it is, the value, the schema."""
Checked = tuple[Said, Said, Said]
"""What the checks said of one definition: of its OpenAPI ``example`` s, of its mappings, of its other values."""


class Linted:
    """``lint.examples`` and ``lint.check`` of a set, each definition's warnings kept in ``store`` by its
    closure; ``salt``: the generator's digest; ``scope``: whose entries these are."""

    def __init__(self, store: Cache, salt: str, scope: str) -> None:
        self.store = store
        self.salt = salt
        self.scope = scope
        self._run: _Run | None = None

    def examples(self, schemas: SchemaSet, reporter: Reporter, made_from: Mapping[str, str]) -> None:
        """``lint.examples(schemas, reporter)``."""
        run = self._of(schemas, made_from)
        if run is None:
            lint.examples(schemas, reporter)
        else:
            _report(run.examples_said(), reporter)

    def check(self, schemas: SchemaSet, reporter: Reporter, made_from: Mapping[str, str]) -> None:
        """``lint.check(schemas, reporter)`` (after ``examples`` of the same set)."""
        run = self._of(schemas, made_from)
        if run is None:
            lint.check(schemas, reporter)
        else:
            _report([said for part in run.checks_said() for said in part], reporter)
            run.keep()

    def _of(self, schemas: SchemaSet, made_from: Mapping[str, str]) -> _Run | None:
        """The run over ``schemas``; ``None`` where it is checked whole."""
        definitions = schemas.definitions
        if not definitions or made_from.keys() != definitions.keys():
            return None
        if self._run is None or self._run.schemas is not schemas:
            display = next(iter(definitions.values())).schema.file
            try:
                self._run = _Run(self.store, digest(NAMESPACE, SCHEME, self.salt, self.scope, display), schemas,
                                 made_from)
            except _Whole:
                return None
        return self._run


class _Run:
    """The checks of one set: each definition's closure, and what the checks said of it (kept, or said now)."""

    def __init__(self, store: Cache, slot: str, schemas: SchemaSet, made_from: Mapping[str, str]) -> None:
        self.store = store
        self.slot = slot
        self.schemas = schemas
        definitions = schemas.definitions
        self.examples: dict[str, list[Value]] = {key: [] for key in definitions}
        for example in schemas.examples:
            home = _home(example[0].pointer, definitions)
            if home is None:
                raise _Whole
            self.examples[home].append(example)
        own = {key: digest(key, made) for key, made in made_from.items()}  # (two may be made from one text)
        kept_refs, self.kept = self._read()
        self.refs = {own[key]: kept_refs[own[key]] if own[key] in kept_refs else
                     tuple(dict.fromkeys(r for r in refs_of(d.schema) if r in definitions))
                     for key, d in definitions.items()}
        self.closures = closures(own, {key: self.refs[own[key]] for key in definitions}, digest(*sorted(definitions)))
        self.said: dict[str, list[Said]] = {}
        """What the checks said now of the definitions of each closure not kept: of their examples, then (once
        the meta-schema check found no error) of their mappings and other values."""

    def examples_said(self) -> Iterator[Said]:
        """What ``lint.examples`` says of each definition, in the set's order."""
        for key, closure in self.closures.items():
            kept = self.kept.get(closure)
            yield kept[0] if kept is not None else self._said_now(key, closure)[0]

    def checks_said(self) -> tuple[list[Said], list[Said]]:
        """What ``lint.check`` says of each definition's mappings, and of its other values, in the set's order."""
        definitions = self.schemas.definitions
        mappings: list[Said] = []
        values: list[Said] = []
        for key, closure in self.closures.items():
            found: Sequence[Said] | None = self.kept.get(closure)
            if found is None:
                found = self._said_now(key, closure)
                if len(found) == 1:  # (its mappings and values are checked once the meta-schema check is done)
                    mapped, others = Reporter(), Reporter()
                    walked = lint.walked({key: definitions[key]}, definitions, mapped)
                    if walked:
                        lint.rejected(walked, definitions, others)
                    found += [_said(mapped), _said(others)]
            mappings.append(found[1])
            values.append(found[2])
        return mappings, values

    def _said_now(self, key: str, closure: str) -> list[Said]:
        """What the checks said now of definition ``key`` (its examples checked, when first asked)."""
        found = self.said.get(closure)
        if found is None:
            said = Reporter()
            if self.examples[key]:
                lint.rejected(self.examples[key], self.schemas.definitions, said, text_too=True)
            found = self.said[closure] = [_said(said)]
        return found

    def keep(self) -> None:
        """Keeps what the checks said of each definition, and what each refers to, where anything is new."""
        if not self.said and self.kept.keys() == set(self.closures.values()):
            return
        now = {closure: self.kept.get(closure) or tuple(self.said[closure]) for closure in self.closures.values()}
        self.store.put(NAMESPACE, self.slot, pickled.dumps((self.refs, now)))

    def _read(self) -> tuple[dict[str, tuple[str, ...]], dict[str, Checked]]:
        data = self.store.get(NAMESPACE, self.slot)
        try:
            refs, checked = pickle.loads(data) if data is not None else ({}, {})
        except Exception:  # another version's, a damaged entry: a miss
            return {}, {}
        return (refs, checked) if isinstance(refs, dict) and isinstance(checked, dict) else ({}, {})


class _Whole(Exception):
    """The set is checked whole."""


def closures(own: Mapping[str, str], refs: Mapping[str, tuple[str, ...]], context: str) -> dict[str, str]:
    """Each node's closure digest, in ``own``'s order: of its ``own`` digest and of its strongly connected
    component's (the ``own`` digests of its members, in order, and the components they reach), with
    ``context``. Tarjan's algorithm, without recursion: each node and edge once."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    component: dict[str, str] = {}
    for start in own:
        if start in index:
            continue
        work = [(start, 0)]
        while work:
            node, at = work.pop()
            if at == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            targets = refs[node]
            if at < len(targets):
                work.append((node, at + 1))
                target = targets[at]
                if target not in index:
                    work.append((target, 0))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            if work:  # (back to the node that reached this one)
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                members = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    members.append(member)
                    if member == node:
                        break
                members.sort(key=own.__getitem__)
                inside = set(members)
                reached = sorted({component[t] for m in members for t in refs[m] if t not in inside})
                made = digest(context, *(own[m] for m in members), "reaches", *reached)
                for member in members:
                    component[member] = made
    return {key: digest(own[key], component[key]) for key in own}


def _home(pointer: str, definitions: Mapping[str, Definition]) -> str | None:
    """The key of the definition the place ``pointer`` is in (the longest key that is a prefix of it), if any."""
    key = "#" + pointer
    while key not in definitions:
        if key == "#":
            return None
        key = key[:key.rindex("/")]
    return key


def _said(reporter: Reporter) -> Said:
    return (*reporter.errors, *reporter.warnings)


def _report(said: Iterable[Said], reporter: Reporter) -> None:
    """What the checks said of each definition, reported in turn."""
    for diagnostics in said:
        for diagnostic in diagnostics:
            reporter.add(diagnostic)
