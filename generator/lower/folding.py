"""Folding: ``allOf`` (and a ``$ref`` with constraining siblings) into one schema, once per schema object.

``merge.fold`` intersects the members; this module resolves them (a ``$ref`` member is its target,
itself folded) and remembers each result, so that a schema met along several paths is folded once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..frontend.schema import Schema
from .context import Scope
from .merge import Conflict, adds_nothing, fold
from .shapes import REF_ANNOTATIONS


class Folder:
    def __init__(self, scope: Scope, unresolved: Callable[[Schema], object]) -> None:
        """``unresolved``: reports a member whose ``$ref`` names no definition of the set."""
        self.scope = scope
        self.unresolved = unresolved
        self.expanded: dict[int, tuple[Schema, Schema]] = {}
        """By ``id`` of a schema: the schema (kept alive, so that its ``id`` stays its own) and its fold."""
        self.folding: set[str] = set()
        """The definitions being resolved as ``allOf`` members: one met again includes itself."""
        self.inherited: dict[int, tuple[Schema, frozenset[str]]] = {}
        """By ``id`` of a fold: the fold, and the ``required`` keys it took from referenced definitions."""

    def expand(self, schema: Schema) -> Schema:
        """``schema`` with its ``allOf`` (and a ``$ref`` with constraining siblings) folded in."""
        found = self.expanded.get(id(schema))
        if found is None:
            found = (schema, self._expand(schema))
            self.expanded[id(schema)] = found
        return found[1]

    def _expand(self, schema: Schema) -> Schema:
        reporter = self.scope.reporter
        members = schema.get("allOf")
        if isinstance(members, list) and len(members) == 1 and isinstance(members[0], Schema) \
                and "$ref" in members[0] and REF_ANNOTATIONS.issuperset(members[0]) \
                and REF_ANNOTATIONS.issuperset(set(schema) - {"allOf"}):
            # `allOf: [{$ref: X}]` beside annotations only (the OpenAPI 3.0 way to document a ref) is X
            return Schema({**{k: v for k, v in schema.items() if k != "allOf"}, "$ref": members[0]["$ref"]}, schema.place)
        if "$ref" in schema and not REF_ANNOTATIONS.issuperset(schema):
            same = self.same_as_target(schema, {k: v for k, v in schema.items() if k not in REF_ANNOTATIONS})
            if same is not None:
                return same
            rest = {k: v for k, v in schema.items() if k not in ("$ref", "allOf")}
            members = [Schema({"$ref": schema["$ref"]}, schema.place), *(schema.get("allOf") or [])]
            schema = Schema({**rest, "allOf": members}, schema.place)
        if not isinstance(schema.get("allOf"), list):
            return schema
        try:
            return self.fold(schema)
        except Conflict as conflict:
            reporter.error(conflict.location, f"`allOf` members conflict: {conflict.message}",
                           "no value can satisfy all of them; fix one of the members")
            return Schema({k: v for k, v in schema.items() if k != "allOf"}, schema.place)

    def resolve(self, member: Schema) -> Schema | None:
        """An ``allOf`` member as a schema, following its ``$ref``."""
        target = member.get("$ref")
        if not isinstance(target, str):
            return self.expand(member)
        definitions = self.scope.definitions
        if target not in definitions:
            self.unresolved(member)
            return None
        if target in self.folding:
            # A schema that must also satisfy itself: the member adds nothing (the largest set of values
            # that satisfies such an equation is the one without it).
            self.scope.reporter.warn(member.loc.child("$ref"), f"`allOf` includes itself through {target!r}; "
                                     "that member adds nothing and is left out", kind="allOf cycle")
            return None
        self.folding.add(target)
        try:
            resolved = self.expand(definitions[target].schema)
        finally:
            self.folding.discard(target)
        siblings = {k: v for k, v in member.items() if k != "$ref"}
        return Schema({**resolved, **siblings}, member.place) if siblings else resolved

    def same_as_target(self, reference: Schema, beside: dict[str, Any]) -> Schema | None:
        """``reference`` (a ``$ref``) alone, with ``beside``'s ``type``, when what is ``beside`` it adds
        nothing to its target (``merge.adds_nothing``): it is the target's declaration, not a copy."""
        target = reference.get("$ref")
        if not isinstance(target, str) or target not in self.scope.definitions or target in self.folding:
            return None
        self.folding.add(target)
        try:
            same = adds_nothing(beside, self.expand(self.scope.definitions[target].schema))
        finally:
            self.folding.discard(target)
        if not same:
            return None
        kept = {k: v for k, v in reference.items() if k in REF_ANNOTATIONS}
        return Schema({**kept, "type": beside["type"]} if "type" in beside else kept, reference.place)

    def distribute(self, base: dict[str, Any], options: list[Schema]) -> list[tuple[Schema, Schema]]:
        """``{base…, anyOf: [A, B]}`` is ``anyOf: [base∧A, base∧B]``; a branch that cannot hold is dropped.
        Each kept branch with what it became."""
        kept: list[tuple[Schema, Schema]] = []
        for option in options:
            same = self.same_as_target(option, base) if REF_ANNOTATIONS.issuperset(option) else None
            if same is not None:
                kept.append((option, same))
                continue
            try:
                kept.append((option, self.fold(Schema({**base, "allOf": [option]}, option.place))))
            except Conflict as conflict:
                self.scope.reporter.warn(option.loc, f"this alternative can never match ({conflict.message}); "
                                         "it is left out", kind="impossible schema")
        return kept

    def fold(self, schema: Schema) -> Schema:
        """``merge.fold`` of ``schema``, remembering the ``required`` keys it takes from referenced definitions."""
        merged = fold(schema, self.resolve, self.scope.reporter)
        taken: set[str] = set()
        for member in schema.get("allOf") or []:
            target = member.get("$ref") if isinstance(member, Schema) else None
            if isinstance(target, str) and target in self.scope.definitions:
                own = self.scope.definitions[target].schema
                found = self.expanded.get(id(own), (own, own))[1]  # (folded by `resolve` just now)
                taken.update(r for r in found.get("required") or [] if isinstance(r, str))
            elif isinstance(member, Schema):
                taken.update(self.inherited_required(self.expand(member)))
        if taken:
            self.inherited[id(merged)] = (merged, frozenset(taken))
        return merged

    def inherited_required(self, schema: Schema) -> frozenset[str]:
        """The ``required`` keys that folding took into ``schema`` from referenced definitions (where
        they are checked themselves)."""
        return self.inherited.get(id(schema), (schema, frozenset()))[1]
