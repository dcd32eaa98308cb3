"""A definition lowered on its own: what it reads of the other definitions, and what it makes from them.

Lowering a definition reads others only through a ``$ref``, in three ways:

- folding copies a target's subschemas in (an ``allOf`` member, a ``$ref`` beside constraining
  keywords, the branches of a union beside what they share: ``homes.folded``), and the target's own
  folds in turn;
- a reference reads its target as folded: whether it allows null, its kind beside a ``type``
  (``references``), whether it has a constant tag when it is a member of a discriminated union
  (``unions``);
- a property's default is the nearest along a chain of references (``references.default``).

Names are no part of it: a definition's class name is decided over the whole set (``context.Names``),
and so are the inline names another definition took first (``context.Taken``) and the inline models
another declared first (``Lowering.inline``). ``Lowering.met`` lists the definitions whose lowering
met one of those; every other definition makes, lowered on its own from what ``reads`` lists (``alone``),
exactly the declarations it makes in the whole lowering. An edit of one definition leaves the others'
declarations as they were unless they read it, which is what keeping them by their sources needs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .. import ir
from ..diagnostics import Reporter
from ..frontend.schema import Definition, Schema, SchemaSet, reached, refs_of
from .context import External, Known
from .homes import BESIDE_NOTHING, folded
from .lowering import Lowering
from .shapes import REF_ANNOTATIONS


def reads(definitions: Mapping[str, Definition], key: str) -> frozenset[str]:
    """The keys of the definitions that lowering definition ``key`` may read, its own among them."""
    return Reads(definitions).of(key)


class Reads:
    """``reads`` for many definitions of one set, each fold closure walked once."""

    def __init__(self, definitions: Mapping[str, Definition]) -> None:
        self.definitions = definitions
        self.own = {id(d.schema) for d in definitions.values()}
        self._folds: dict[str, frozenset[str]] = {}

    def of(self, key: str) -> frozenset[str]:
        if merges(self.definitions[key].schema, self.own):  # merged, a `$ref` is folded in, and what it refers to…
            return frozenset(reached(self.definitions, [key]))
        found = {key}
        for target in refs_of(self.definitions[key].schema):
            if target in self.definitions and target not in found:
                found |= self.folds(target)
                found.update(self.chain(target))
        return frozenset(found)

    def folds(self, key: str) -> frozenset[str]:
        """``key`` and the definitions folding copies into it, in turn."""
        found = self._folds.get(key)
        if found is None:
            seen = {key}
            todo = [key]
            while todo:
                schema = self.definitions[todo.pop()].schema
                for target in folded(schema, self.own):
                    if target in self.definitions and target not in seen:
                        seen.add(target)
                        todo.append(target)
            found = self._folds[key] = frozenset(seen)
        return found

    def chain(self, key: str) -> list[str]:
        """The definitions a default is looked for along from ``key`` (``references.default``), folds aside."""
        found = [key]
        schema: Schema = self.definitions[key].schema
        while "default" not in schema:
            members = schema.get("allOf")
            if "$ref" not in schema and isinstance(members, list) and len(members) == 1 \
                    and isinstance(members[0], Schema):
                schema = members[0]
                continue
            target = schema.get("$ref")
            if not isinstance(target, str) or target not in self.definitions or target in found:
                break
            found.append(target)
            schema = self.definitions[target].schema
        return found


def alone(schemas: SchemaSet, key: str, known: Known, reporter: Reporter, external: External | None = None,
          own: dict[str, str] | None = None) -> list[ir.Declaration]:
    """The declarations of definition ``key`` (before ``shorten`` and the passes), lowered on its own:
    reading no definition but those ``known.readable`` lists, given the names decided over the whole set."""
    lowering = Lowering(schemas, reporter, external, own or {}, known)
    lowering.unit(key)
    return [d for d in lowering.declarations if d is not None]


def merges(root: Schema, own: set[int]) -> bool:
    """Folding merges schemas somewhere in ``root`` (not in the definitions nested in it): an ``allOf``,
    a ``$ref`` beside constraining keywords, a union beside what its branches share. Two properties of
    one name merged fold a ``$ref`` in; its target's properties may be merged in turn."""
    stack: list[Any] = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack.extend(node)
            continue
        if not isinstance(node, dict) or (id(node) in own and node is not root):
            continue
        if "allOf" in node or ("$ref" in node and not REF_ANNOTATIONS.issuperset(node)) \
                or (("anyOf" in node or "oneOf" in node) and not BESIDE_NOTHING.issuperset(node)):
            return True
        stack.extend(node.values())
    return False
