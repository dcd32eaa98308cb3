"""The lowering of one set: declarations, and the dispatch on what a schema is.

Each rule has a module of its own (``references``, ``folding``, ``objects``, ``arrays``, ``literals``,
``unions``); ``Lowering`` holds what they share while a set is lowered, the declarations made so far
and the names they took, and hands each schema to the rule for what it is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .. import ir
from ..diagnostics import Reporter
from ..frontend.nesting import MAX_NESTING
from ..frontend.schema import Schema, SchemaSet
from ..frozen import replace
from ..ir.walk import map_declaration_types, map_refs, nesting, reachable
from ..names import Naming, as_written, unique
from . import arrays, objects, references, unions
from .constraints import constrain, scalar
from .context import Asking, External, Heard, Known, Taken, python_name, scope_of
from .folding import Folder
from .homes import folds_of, home_first
from .literals import literal
from .places import Places
from .sdk import sdk_names
from .shapes import KINDS, NEVER, REF_ANNOTATIONS, is_model, mixed_with_object, text
from .shorten import shortened

#: Keywords this version does not enforce: reported, never dropped silently.
UNSUPPORTED = ("not", "if", "dependentSchemas", "dependentRequired", "dependencies",
               "unevaluatedProperties", "unevaluatedItems", "contains", "propertyNames",
               "$dynamicRef", "$recursiveRef")
_UNSUPPORTED = frozenset(UNSUPPORTED)
VALUE_KEYWORDS = ("minLength", "maxLength", "pattern", "minimum", "maximum", "exclusiveMinimum",
                  "exclusiveMaximum", "multipleOf", "minItems", "maxItems", "uniqueItems",
                  "minProperties", "maxProperties")
MAX_TYPE_DEPTH = 64
"""Nesting of one annotation (``list[list[...]]``, a union one level however many members it flattens);
CPython's parser stops near 200 brackets."""
ANY_KIND = ("string", "number", "boolean", "null", "array", "object")


def lower(schemas: SchemaSet, reporter: Reporter, external: External | None = None,
          names: Naming = "schema") -> ir.Module:
    """The module of ``schemas``: each definition (after those it folds in: ``homes``), each followed by
    what it declares inline; named as ``names`` says (``"sdk"``: ``sdk.sdk_names``).

    A definition copied from another file (``bundle``: a key that names its file) is there for the
    references to it; if all of them were folded away (an ``allOf`` member), its declaration is not kept.
    """
    lowering = lowered(schemas, reporter, external, names)
    return finished(lowering.declarations, lowering.spans, lowering.declared_in, lowering.scope.names.get("#"), names)


def finished(declarations: Sequence[ir.Declaration | None], spans: Mapping[str, tuple[int, int]],
             declared_in: Mapping[str, str], root: str | None, names: Naming) -> ir.Module:
    """The module of the definitions' ``declarations`` (each definition's at its ``spans``): those copied
    from another file only to be folded away left out, the inline classes given their short names."""
    copied = {i for key, (start, end) in spans.items() if not key.startswith("#") for i in range(start, end)}
    module = ir.Module(tuple(d for d in declarations if d is not None), root)
    if copied:
        module = reachable(module, [d.name for i, d in enumerate(declarations) if d and i not in copied])
    return shortened(module, declared_in, names)


def lowered(schemas: SchemaSet, reporter: Reporter, external: External | None = None,
            names: Naming = "schema") -> Lowering:
    """Each definition of ``schemas`` lowered, in ``home_first``'s order, with what each made (``spans``)
    and met of the others (``met``)."""
    lowering = Lowering(schemas, reporter, external, sdk_names(schemas.definitions, schemas.responses)
                        if names == "sdk" else {})
    lowering.folds = folds_of(schemas.definitions)
    for key in home_first(schemas.definitions, lowering.folds):
        lowering.unit(key)
    return lowering


class Lowering:
    def __init__(self, schemas: SchemaSet, reporter: Reporter, external: External | None,
                 own: dict[str, str], known: Known | None = None) -> None:
        """``known``: what is decided over the whole set, for definitions lowered on their own (``units``)."""
        self.met: dict[str, set[str]] = {}
        """Each definition, with the others whose inline names or models its lowering met (``Taken``, ``inline``):
        lowered on its own, it would make other declarations. Each one not here makes what it makes alone."""
        self.taken = Taken(self.met)
        """The class names taken so far: the definitions' first, in order, then inline ones as they come."""
        self.own = own
        """Names that replace the schema's (``sdk.sdk_names``): the class says the schema's in its docstring."""
        self.heard = Heard(reporter)
        asking = None if external is None else Asking(external, self.taken)
        self.outside: set[str] = set() if asking is None else asking.asked
        """The definitions whose lowering asked ``external`` for a type (of another input)."""
        self.scope = scope_of(schemas, self.taken, own, known, self.heard, asking)
        self.spans: dict[str, tuple[int, int]] = {}
        """Where each definition lowered so far put its declarations (``declarations[start:end]``)."""
        self.folds: dict[str, list[str]] = {}
        """``homes.folds_of`` the set, where ``lowered`` worked it out."""
        self.said: dict[str, tuple[int, int]] = {}
        """What each definition's lowering reported (``heard.said[start:end]``), each time it did."""
        self.folder = Folder(self.scope, lambda member: references.ref(self, member))
        self.declarations: list[ir.Declaration | None] = []
        """In order; a slot is ``None`` while its declaration is being made (what it nests comes after)."""
        self.open: list[list[Any]] = []
        """Folded schemas whose type is being made, each with the name it gets when met again (``folded``)."""
        self.depth = 0
        """How deep the current type expression nests."""
        self.placed = Places()
        """The inline models declared, by place and content, with the definition that declared them: the
        schema met again in another definition (folded into it, where folding changed nothing of it) is
        that model. Within one definition (the branches of a union that share what is beside it) each
        stays its own: the first branch's name would change when a branch is inserted before it."""
        self.unit_key = ""
        """The definition being lowered."""
        self.declared_in: dict[str, str] = {}
        """Each inline model's name, with the name of the definition it is declared in (``shorten``)."""

    def unit(self, key: str) -> None:
        """Lower one definition of the set (and what it declares inline)."""
        definition = self.scope.definitions[key]  # a derived name is an inline one: the schema gives it none
        self.unit_key = self.taken.unit = key
        slot, said = len(self.declarations), len(self.heard.said)
        self.declare(self.scope.names[key], definition.schema, inline=definition.derived,
                     null_at_refs=references.nullable(self, key))
        made = self.declarations[slot]
        if key in self.own and made is not None and made.name == self.own[key]:
            self.declarations[slot] = replace(made, doc=as_written(made.doc, definition.name))
        self.spans[key] = (slot, len(self.declarations))
        self.said[key] = (said, len(self.heard.said))

    def expand(self, schema: Schema) -> Schema:
        return self.folder.expand(schema)

    def inherited(self, schema: Schema) -> frozenset[str]:
        return self.folder.inherited_required(schema)

    def distribute(self, base: dict[str, Any], options: list[Schema]) -> list[tuple[Schema, Schema]]:
        return self.folder.distribute(base, options)

    # Declarations -------------------------------------------------------------------------

    def declare(self, name: str, schema: Schema, *, inline: bool, null_at_refs: bool = False) -> None:
        depth, self.depth = self.depth, 0  # a declaration starts a type expression of its own
        try:
            self._declare(name, schema, inline, null_at_refs)
        finally:
            self.depth = depth

    def _declare(self, name: str, schema: Schema, inline: bool, null_at_refs: bool) -> None:
        """Append the declaration ``name`` for ``schema``; nested inline ones follow it.

        ``null_at_refs``: the schema also allows null, and its references say so (``X | None``):
        the declaration itself is the model or enum without the null.
        """
        slot = len(self.declarations)
        self.declarations.append(None)
        origin = ir.Origin(schema.loc.path, schema.loc.pointer)
        self.unsupported(schema)
        schema = self.expand(schema)
        doc = text(schema.get("description"))
        if is_model(schema) and not mixed_with_object(schema):
            self.declarations[slot] = objects.model(self, name, schema, doc, inline, origin)
        else:
            t = self.type_of(schema, name, top=True)
            if null_at_refs and isinstance(t, ir.Union):
                t = ir.union(*(m for m in t.members if m != ir.Null()))
            self.declarations[slot] = ir.Alias(name, t, doc, inline, origin)

    def free(self, name: str) -> bool:
        return name not in self.taken

    def take(self, hint: str) -> str:
        """A class name for ``hint``, unique in the module."""
        return unique(hint, self.taken)

    def inline(self, hint: str, schema: Schema) -> ir.Ref:
        """The inline model of ``schema``: one declaration per place and content (``places``) and
        definition, named by the first definition met (``home_first`` makes it the one that writes it)."""
        same = self.placed.get(schema)
        if same is not None and same[1] != self.unit_key:
            self.met.setdefault(self.unit_key, set()).add(same[1])
            return ir.Ref(same[0])
        vendor = python_name(schema)  # the name a vendor extension gives it, unless a class has it (definitions first)
        name = self.take(vendor if vendor is not None and self.free(vendor) else hint)
        self.placed.add(schema, name, self.unit_key)
        self.declared_in[name] = self.scope.names[self.unit_key]
        self.declare(name, schema, inline=True)
        return ir.Ref(name)

    # Types --------------------------------------------------------------------------------

    def type_of(self, schema: Schema, hint: str, *, top: bool = False, made_by_folding: bool = False) -> ir.Type:
        """The type of ``schema``; an object with properties becomes an inline model ``hint``.
        ``made_by_folding``: ``schema`` is what folding made (it may lead back to itself, see ``folded``)."""
        if self.depth >= MAX_NESTING:  # deeper than any document may nest: folding that goes on and on
            self.scope.reporter.error(schema.loc, f"the schema nests more than {MAX_NESTING} levels deep",
                                      "give an inner level a name of its own (a definition and a $ref to it)")
            return ir.AnyType()
        self.depth += 1
        try:
            t = self._type_of(schema, hint, top, made_by_folding)
        finally:
            self.depth -= 1
        if self.depth == 0 and nesting(t) > MAX_TYPE_DEPTH:  # one annotation's whole expression, measured once
            self.scope.reporter.error(schema.loc, f"a type nested {nesting(t)} levels deep, more than the "
                                      f"{MAX_TYPE_DEPTH} an annotation may", "give an inner level a name of its own")
            return ir.AnyType()
        return t

    def _type_of(self, schema: Schema, hint: str, top: bool, made_by_folding: bool) -> ir.Type:
        key = self.scope.defined.get(id(schema))
        if key is not None and not top:
            return ir.Ref(self.scope.names[key])
        if schema == NEVER:
            self.scope.reporter.warn(schema.loc, "a schema that accepts nothing is typed as Any", kind="impossible schema")
            return ir.AnyType()
        self.unsupported(schema)
        if "$ref" in schema and REF_ANNOTATIONS.issuperset(schema):
            return references.ref(self, schema)
        expanded = self.expand(schema)
        if expanded is schema and not made_by_folding:
            return self.shape(expanded, hint)
        return self.folded(schema, expanded, hint)

    def folded(self, schema: Schema, expanded: Schema, hint: str) -> ir.Type:
        """The type of ``schema``, which folding changed into ``expanded``.

        Folding copies a target's keywords in, so the result may lead back to ``schema`` itself
        (``{"$ref": "#/definitions/A", "minimum": 0}`` as a property of A), or to a copy of it (a
        ``oneOf`` beside ``properties`` folds afresh each time). Met again while its type is being
        made, it is referred to by a name, declared once that type is known: a recursive type.
        """
        again = next((entry for entry in self.open if entry[0] is schema or entry[0] == schema), None)
        if again is not None:
            again[1] = again[1] or self.take(hint)
            return ir.Ref(again[1])
        entry: list[Any] = [schema, None]
        self.open.append(entry)
        start = len(self.declarations)
        try:
            t = self.shape(expanded, hint)
        finally:
            self.open.pop()
        name = entry[1]
        if name is None:
            return t
        made = {d.name: d for d in self.declarations[start:] if d is not None}
        if isinstance(t, ir.Ref) and isinstance(made.get(t.name), ir.Model):  # the inline model itself
            model = t.name
            self.declarations[start:] = [
                d and map_declaration_types(d, lambda u: map_refs(u, lambda n: model if n == name else n))
                for d in self.declarations[start:]]
            return t
        origin = ir.Origin(schema.loc.path, schema.loc.pointer)
        self.declarations.append(ir.Alias(name, t, None, inline=True, origin=origin))
        return ir.Ref(name)

    def shape(self, schema: Schema, hint: str) -> ir.Type:
        """The type of an expanded schema (no ``allOf``)."""
        reporter = self.scope.reporter
        if "$ref" in schema:
            return references.ref(self, schema)
        if "const" in schema:
            return literal(schema, [schema["const"]], reporter)
        if isinstance(schema.get("enum"), list):
            return literal(schema, schema["enum"], reporter)
        for keyword in ("anyOf", "oneOf"):
            if isinstance(schema.get(keyword), list):
                return unions.alternatives(self, schema, keyword, hint)
        kinds = schema.get("type")
        if kinds == []:  # where the meta-schema check does not look (inside `prefixItems`, say)
            reporter.error(schema.loc.child("type"), "not a valid schema: `type` lists no type",
                           "name at least one of: " + ", ".join(KINDS))
            return ir.AnyType()
        if isinstance(kinds, list) and mixed_with_object(schema):
            # beside another kind, the object is a model of its own: `B = BObject | str`
            objects_only = Schema({**schema, "type": "object"}, schema.place)
            return ir.union(*(self.of_kind(objects_only, k, hint + "Object") if k == "object"
                              else self.of_kind(schema, k, hint) for k in kinds))
        if isinstance(kinds, list):
            return ir.union(*(self.of_kind(schema, k, hint) for k in kinds))
        if isinstance(kinds, str):
            return self.of_kind(schema, kinds, hint)
        if any(k in schema for k in ("properties", "additionalProperties", "patternProperties", "required")):
            return self.of_kind(schema, "object", hint)
        if "items" in schema or "prefixItems" in schema:
            return self.of_kind(schema, "array", hint)
        if any(k in schema for k in VALUE_KEYWORDS):
            # Limits without a type restrict only values of their kind: every JSON type, some limited.
            return ir.union(*(self.of_kind(schema, k, hint) for k in ANY_KIND))
        return ir.AnyType()

    def of_kind(self, schema: Schema, kind: Any, hint: str) -> ir.Type:
        """The type of ``schema`` as the JSON type ``kind``."""
        reporter = self.scope.reporter
        if kind not in KINDS:
            reporter.error(schema.loc.child("type"), f"unknown type {kind!r}", "use one of: " + ", ".join(KINDS))
            return ir.AnyType()
        scalar_kind = KINDS[kind]
        if scalar_kind is not None:
            return constrain(scalar(scalar_kind, schema), kind, schema, reporter)
        if kind == "null":
            return ir.Null()
        if kind == "array":
            array = arrays.array(self, schema, hint)  # a tuple's length is its type: no limits on it
            return array if isinstance(array, ir.Tuple) else constrain(array, kind, schema, reporter)
        if is_model(schema):
            return self.inline(hint, schema)
        objects.check_required(self, schema)
        t = constrain(ir.Map(objects.extra_type(self, schema, hint)), kind, schema, reporter)
        if not objects.closed(schema):
            return t
        inner, limits = (t.type, t.constraints) if isinstance(t, ir.Constrained) else (t, ir.Constraints())
        return ir.Constrained(inner, replace(limits, max_length=0))  # no property and no other key: only `{}`

    def unsupported(self, schema: Schema) -> None:
        if schema.keys().isdisjoint(_UNSUPPORTED):  # (asked twice of every schema: most have none)
            return
        for keyword in UNSUPPORTED:
            if keyword in schema:
                self.scope.reporter.warn(schema.loc.child(keyword), f"`{keyword}` is not supported; it is not enforced",
                                         kind="unsupported keyword")

