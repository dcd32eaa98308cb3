"""Lowering: the canonical ``SchemaSet`` into the IR.

Reads only the canonical form (JSON Schema 2020-12 plus ``discriminator``); knows no dialect.
Definitions keep the name the schema gives them; inline objects are named ``<Parent><Property>``.
Anything the IR cannot say is widened to a type that accepts at least every valid value, with a
warning that names the keyword and its pointer.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .. import ir
from ..diagnostics import Location, Reporter, SchemaError
from ..frontend.schema import Definition, Schema, SchemaSet
from ..ir.walk import map_declaration_types, map_refs
from ..names import pascal, unique
from .constraints import constrain, scalar
from .merge import Conflict, fold
from .shapes import (KINDS, description, distinct, has_constant, implied_kind, is_file_ref, is_model, json_type,
                     mixed_with_object, text, type_of_value)

#: Keywords beside a ``$ref`` that only describe it: the reference is the referenced type itself.
REF_ANNOTATIONS = frozenset(
    {"$ref", "description", "title", "default", "examples", "deprecated", "$comment", "type",
     "readOnly", "writeOnly", "$id", "$schema", "$anchor", "definitions", "$defs", "format"}
)
#: Keywords this version does not enforce: reported, never dropped silently.
UNSUPPORTED = ("not", "if", "dependentSchemas", "dependentRequired", "dependencies",
               "unevaluatedProperties", "unevaluatedItems", "contains", "propertyNames",
               "$dynamicRef", "$recursiveRef")
NEVER = {"not": {}}
VALUE_KEYWORDS = ("minLength", "maxLength", "pattern", "minimum", "maximum", "exclusiveMinimum",
                  "exclusiveMaximum", "multipleOf", "minItems", "maxItems", "uniqueItems",
                  "minProperties", "maxProperties")
MAX_TYPE_DEPTH = 64
"""Nesting of one annotation (``list[list[...]]``); CPython's parser stops near 200 brackets."""
ANY_KIND = ("string", "number", "boolean", "null", "array", "object")


#: Resolves a reference to another file (``schemas/other.json#/definitions/X``) to a type of the
#: input made from that file; raises ``SchemaError`` when it cannot.
External = Callable[[str, Location], ir.Type]


def lower(schemas: SchemaSet, reporter: Reporter, external: External | None = None) -> ir.Module:
    return _Lowering(schemas, reporter, external).run()


class _Lowering:
    def __init__(self, schemas: SchemaSet, reporter: Reporter, external: External | None) -> None:
        self.definitions: Mapping[str, Definition] = schemas.definitions
        self.reporter = reporter
        self.external = external
        self.taken: set[str] = set()
        self.names: Mapping[str, str] = {key: unique(d.name, self.taken) for key, d in self.definitions.items()}
        #: A definition's schema object also met inside another schema is referenced, not copied.
        self.defined: Mapping[int, str] = {id(d.schema): key for key, d in self.definitions.items()}
        self.declarations: list[ir.Declaration | None] = []
        self.folding: set[str] = set()
        self.expanded: dict[int, tuple[Schema, Schema]] = {}
        #: Folded schemas whose type is being made, each with the name it gets when met again.
        self.open: list[list[Any]] = []
        self.depth = 0

    def run(self) -> ir.Module:
        for key in self.definitions:
            self.unit(key)
        return ir.Module(tuple(d for d in self.declarations if d is not None), self.names.get("#"))

    def unit(self, key: str) -> None:
        """Lower one definition of the set (and what it declares inline)."""
        self.declare(self.names[key], self.definitions[key].schema, inline=False, null_at_refs=self.nullable(key))

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
            self.declarations[slot] = self.model(name, schema, doc, inline, origin)
        else:
            t = self.type_of(schema, name, top=True)
            if null_at_refs and isinstance(t, ir.Union):
                t = ir.union(*(m for m in t.members if m != ir.Null()))
            self.declarations[slot] = ir.Alias(name, t, doc, inline, origin)

    def model(self, name: str, schema: Schema, doc: str | None, inline: bool, origin: ir.Origin) -> ir.Model:
        properties: dict[str, Schema] = schema.get("properties") or {}
        # `required` may repeat a key (the meta-schema check only warns; an allOf merge keeps each
        # member's list): one field per key
        required = list(dict.fromkeys(r for r in schema.get("required") or [] if isinstance(r, str)))
        fields = [
            ir.Field(
                name=wire,
                wire_name=wire,
                type=self.type_of(sub, name + pascal(wire)),
                required=wire in required,
                default=ir.Default(sub["default"]) if "default" in sub else None,
                doc=description(sub),
            )
            for wire, sub in properties.items()
        ]
        for missing in [r for r in required if r not in properties]:
            fields.append(ir.Field(missing, missing, self.extra_type(schema, name), True))
        for keyword in ("patternProperties", "minProperties", "maxProperties"):
            if keyword in schema:
                self.reporter.warn(schema.loc.child(keyword), f"`{keyword}` beside `properties` is not enforced")
        extra = schema.get("additionalProperties")
        if isinstance(extra, Schema) and extra not in ({}, NEVER):
            self.reporter.warn(schema.loc.child("additionalProperties"),
                               "the values of other keys beside `properties` are not kept; they are ignored")
        closed = schema.get("additionalProperties") == NEVER and "patternProperties" not in schema
        return ir.Model(name, tuple(fields), doc, closed=closed, inline=inline, origin=origin)

    def take(self, hint: str) -> str:
        """A class name for ``hint``, unique in the module."""
        return unique(hint, self.taken)

    def inline(self, hint: str, schema: Schema) -> ir.Ref:
        name = self.take(hint)
        self.declare(name, schema, inline=True)
        return ir.Ref(name)

    # Types --------------------------------------------------------------------------------

    def type_of(self, schema: Schema, hint: str, *, top: bool = False, made_by_folding: bool = False) -> ir.Type:
        """The type of ``schema``; an object with properties becomes an inline model ``hint``.
        ``made_by_folding``: ``schema`` is what folding made (it may lead back to itself, see ``folded``)."""
        if self.depth >= MAX_TYPE_DEPTH:
            self.reporter.error(schema.loc, f"a type nested more than {MAX_TYPE_DEPTH} levels deep",
                                "Python cannot compile such an annotation; give an inner level a name of its own")
            return ir.AnyType()
        self.depth += 1
        try:
            return self._type_of(schema, hint, top, made_by_folding)
        finally:
            self.depth -= 1

    def _type_of(self, schema: Schema, hint: str, top: bool, made_by_folding: bool) -> ir.Type:
        key = self.defined.get(id(schema))
        if key is not None and not top:
            return ir.Ref(self.names[key])
        if schema == NEVER:
            self.reporter.warn(schema.loc, "a schema that accepts nothing is typed as Any")
            return ir.AnyType()
        self.unsupported(schema)
        if "$ref" in schema and REF_ANNOTATIONS.issuperset(schema):
            return self.ref(schema)
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
        self.declarations.append(ir.Alias(name, t, None, inline=True, origin=ir.Origin(schema.loc.path, schema.loc.pointer)))
        return ir.Ref(name)

    def shape(self, schema: Schema, hint: str) -> ir.Type:
        """The type of an expanded schema (no ``allOf``)."""
        if "$ref" in schema:
            return self.ref(schema)
        if "const" in schema:
            return self.literal(schema, [schema["const"]])
        if isinstance(schema.get("enum"), list):
            return self.literal(schema, schema["enum"])
        for keyword in ("anyOf", "oneOf"):
            if isinstance(schema.get(keyword), list):
                return self.alternatives(schema, keyword, hint)
        kinds = schema.get("type")
        if kinds == []:  # where the meta-schema check does not look (inside `prefixItems`, say)
            self.reporter.error(schema.loc.child("type"), "not a valid schema: `type` lists no type",
                                "name at least one of: " + ", ".join(KINDS))
            return ir.AnyType()
        if isinstance(kinds, list) and mixed_with_object(schema):
            # beside another kind, the object is a model of its own: `B = BObject | str`
            objects = Schema({**schema, "type": "object"}, schema.loc)
            return ir.union(*(self.of_kind(objects, k, hint + "Object") if k == "object" else self.of_kind(schema, k, hint)
                              for k in kinds))
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

    def unsupported(self, schema: Schema) -> None:
        for keyword in UNSUPPORTED:
            if keyword in schema:
                self.reporter.warn(schema.loc.child(keyword), f"`{keyword}` is not supported; it is not enforced")

    def expand(self, schema: Schema) -> Schema:
        """Fold ``allOf`` (and a ``$ref`` with constraining siblings) into one schema (once per schema)."""
        found = self.expanded.get(id(schema))
        if found is None:
            found = (schema, self._expand(schema))
            self.expanded[id(schema)] = found
        return found[1]

    def _expand(self, schema: Schema) -> Schema:
        members = schema.get("allOf")
        if isinstance(members, list) and len(members) == 1 and isinstance(members[0], Schema) \
                and "$ref" in members[0] and REF_ANNOTATIONS.issuperset(members[0]) \
                and REF_ANNOTATIONS.issuperset(set(schema) - {"allOf"}):
            # `allOf: [{$ref: X}]` beside annotations only (the OpenAPI 3.0 way to document a ref) is X
            return Schema({**{k: v for k, v in schema.items() if k != "allOf"}, "$ref": members[0]["$ref"]}, schema.loc)
        if "$ref" in schema and not REF_ANNOTATIONS.issuperset(schema):
            rest = {k: v for k, v in schema.items() if k not in ("$ref", "allOf")}
            members = [Schema({"$ref": schema["$ref"]}, schema.loc), *(schema.get("allOf") or [])]
            schema = Schema({**rest, "allOf": members}, schema.loc)
        if not isinstance(schema.get("allOf"), list):
            return schema
        try:
            return fold(schema, self.resolve, self.reporter)
        except Conflict as conflict:
            self.reporter.error(conflict.location, f"`allOf` members conflict: {conflict.message}",
                                "no value can satisfy all of them; fix one of the members")
            return Schema({k: v for k, v in schema.items() if k != "allOf"}, schema.loc)

    def resolve(self, member: Schema) -> Schema | None:
        """An ``allOf`` member as a schema, following its ``$ref``."""
        target = member.get("$ref")
        if not isinstance(target, str):
            return self.expand(member)
        if target not in self.definitions:
            self.ref(member)  # reports it
            return None
        if target in self.folding:
            # A schema that must also satisfy itself: the member adds nothing (the largest set of values
            # that satisfies such an equation is the one without it).
            self.reporter.warn(member.loc.child("$ref"), f"`allOf` includes itself through {target!r}; "
                               "that member adds nothing and is left out")
            return None
        self.folding.add(target)
        try:
            resolved = self.expand(self.definitions[target].schema)
        finally:
            self.folding.discard(target)
        siblings = {k: v for k, v in member.items() if k != "$ref"}
        return Schema({**resolved, **siblings}, member.loc) if siblings else resolved

    def of_kind(self, schema: Schema, kind: Any, hint: str) -> ir.Type:
        if kind not in KINDS:
            self.reporter.error(schema.loc.child("type"), f"unknown type {kind!r}", "use one of: " + ", ".join(KINDS))
            return ir.AnyType()
        scalar_kind = KINDS[kind]
        if scalar_kind is not None:
            return constrain(scalar(scalar_kind, schema), kind, schema, self.reporter)
        if kind == "null":
            return ir.Null()
        if kind == "array":
            array = self.array(schema, hint)  # a tuple's length is its type: no limits on it
            return array if isinstance(array, ir.Tuple) else constrain(array, kind, schema, self.reporter)
        if is_model(schema):
            return self.inline(hint, schema)
        return constrain(ir.Map(self.extra_type(schema, hint)), kind, schema, self.reporter)

    def extra_type(self, schema: Schema, hint: str) -> ir.Type:
        """The type of the values of an object's other keys."""
        extra = schema.get("additionalProperties")
        patterns = [s for s in (schema.get("patternProperties") or {}).values() if isinstance(s, Schema)]
        if patterns:
            values = [self.type_of(s, f"{hint}Value") for s in patterns]
            if extra != NEVER:
                values.append(self.type_of(extra, f"{hint}Value") if isinstance(extra, Schema) else ir.AnyType())
            return ir.union(*values)
        return self.type_of(extra, hint + "Value") if isinstance(extra, Schema) and extra != NEVER else ir.AnyType()

    def array(self, schema: Schema, hint: str) -> ir.Type:
        items = schema.get("items")
        prefix = [s for s in schema.get("prefixItems") or [] if isinstance(s, Schema)]
        rest = self.type_of(items, hint + "Item") if isinstance(items, Schema) and items != NEVER else None
        if not prefix:
            return ir.Array(rest if rest is not None else ir.AnyType())
        positional = [self.type_of(s, f"{hint}Item{i}") for i, s in enumerate(prefix, 1)]
        minimum = schema.get("minItems", 0)
        if items == NEVER and isinstance(minimum, int) and minimum >= len(prefix):
            return ir.Tuple(tuple(positional))
        self.reporter.warn(schema.loc.child("prefixItems"),
                           "item positions are not enforced (only a closed, fixed-length tuple is); read as a list")
        extra = [] if items == NEVER else [rest if rest is not None else ir.AnyType()]
        return ir.Array(ir.union(*positional, *extra))

    def ref(self, schema: Schema) -> ir.Type:
        target = schema["$ref"]
        if isinstance(target, str) and target not in self.definitions and is_file_ref(target) and self.external:
            try:
                return self.external(target, schema.loc.child("$ref"))
            except SchemaError as exc:
                for diagnostic in exc.diagnostics:
                    self.reporter.add(diagnostic)
                return ir.AnyType()
        if not isinstance(target, str) or target not in self.definitions:
            hint = ("remote references are not fetched; vendor the document into schemas/"
                    if isinstance(target, str) and target.split(":", 1)[0] in ("http", "https")
                    else "add the missing definition, or fix the reference")
            self.reporter.error(schema.loc.child("$ref"), f"unresolved reference {target!r}", hint)
            return ir.AnyType()
        ref: ir.Type = ir.Ref(self.names[target])
        ref = ir.union(ref, ir.Null()) if self.nullable(target) else ref
        return ir.union(ref, *self.kinds_beside(schema, target))

    def kinds_beside(self, schema: Schema, target: str) -> list[ir.Type]:
        """What a ``type`` beside ``$ref`` adds: a target with no ``type`` of its own (``properties``
        alone) restricts only values of its kind and lets every other kind through, so the kinds
        the ``type`` names join the reference: ``{"$ref": "#/definitions/provider", "type": ["number",
        "object"]}`` is ``float | Provider``. (Drafts before 2019-09 ignore that ``type``, and then
        any kind passes: the reference alone would refuse valid values.)"""
        kinds = schema.get("type")
        kinds = [kinds] if isinstance(kinds, str) else kinds if isinstance(kinds, list) else []
        own = implied_kind(self.expand(self.definitions[target].schema))
        if own is None or not all(k in KINDS for k in kinds):
            return []
        beside = Schema({k: v for k, v in schema.items() if k != "$ref"}, schema.loc)
        return [self.of_kind(beside, k, self.names[target]) for k in kinds if k != own]

    def nullable(self, key: str) -> bool:
        """A definition that is a model or an enum, or null: references add the null (see ``declare``)."""
        schema = self.expand(self.definitions[key].schema)
        kinds = schema.get("type")
        null_type = isinstance(kinds, list) and "null" in kinds
        if is_model(schema):
            return null_type
        values = [schema["const"]] if "const" in schema else schema.get("enum")
        return isinstance(values, list) and any(v is not None for v in values) and (None in values or null_type)

    def literal(self, schema: Schema, values: list[Any]) -> ir.Type:
        """``const``/``enum``: a ``Literal`` of its strings, integers and booleans (``None`` apart)."""
        kinds = schema.get("type")
        allowed = [kinds] if isinstance(kinds, str) else kinds if isinstance(kinds, list) else None
        if allowed is not None:
            values = [v for v in values if json_type(v) in allowed or (json_type(v) == "integer" and "number" in allowed)]
        if not values:
            self.reporter.warn(schema.loc, "an enum that no value can satisfy is typed as Any")
            return ir.AnyType()
        if not all(v is None or isinstance(v, (str, int)) for v in values) or any(type(v) is float for v in values):
            self.reporter.warn(schema.loc, "enum or const values that are not strings, integers or booleans are typed by their JSON type")
            return ir.union(*(type_of_value(v) for v in values))
        present = tuple(v for v in distinct(values) if v is not None)
        literal: ir.Type = ir.Literal(present) if present else ir.Null()
        return ir.union(literal, ir.Null()) if None in values else literal

    def alternatives(self, schema: Schema, keyword: str, hint: str) -> ir.Type:
        options: list[Schema] = [s for s in schema[keyword] if isinstance(s, Schema)]
        base = {k: v for k, v in schema.items() if k not in (keyword, "discriminator", "description", "title", "default")}
        distributed = any(k in base for k in ("properties", "type", "required", "additionalProperties"))
        if distributed:
            options = self.distribute(base, options)
            if not options:
                self.reporter.warn(schema.loc.child(keyword), "no alternative can match the schema around it, "
                                   "so no value is valid; typed as Any")
                return ir.AnyType()
        real = [s for s in options if s.get("type") != "null"]
        members = [self.type_of(o, hint if len(real) == 1 else f"{hint}Option{i}", made_by_folding=distributed)
                   for i, o in enumerate(options, 1)]
        result = ir.union(*members)
        discriminator = schema.get("discriminator")
        if isinstance(result, ir.Union) and isinstance(discriminator, dict) and isinstance(discriminator.get("propertyName"), str):
            field = discriminator["propertyName"]
            return ir.Union(result.members, field, self.discriminator_tags(options, field, discriminator.get("mapping")))
        return result

    def discriminator_tags(self, options: list[Schema], field: str, mapping: Any) -> tuple[tuple[str, str], ...]:
        """Each referenced member's tag: from the mapping, else (when it has no const there) its name."""
        by_key = {target: value for value, target in (mapping or {}).items() if isinstance(target, str)}
        tags = []
        for option in options:
            key = option.get("$ref")
            if not isinstance(key, str) or key not in self.definitions:
                continue
            if key in by_key:
                tags.append((self.names[key], str(by_key[key])))
            elif not has_constant(self.expand(self.definitions[key].schema), field):
                tags.append((self.names[key], self.definitions[key].name))
        return tuple(tags)


    def distribute(self, base: dict[str, Any], options: list[Schema]) -> list[Schema]:
        """``{base…, anyOf: [A, B]}`` is ``anyOf: [base∧A, base∧B]``; a branch that cannot hold is dropped."""
        kept = []
        for option in options:
            try:
                kept.append(fold(Schema({**base, "allOf": [option]}, option.loc), self.resolve, self.reporter))
            except Conflict as conflict:
                self.reporter.warn(option.loc, f"this alternative can never match ({conflict.message}); it is left out")
        return kept
