"""Lowering: the canonical ``SchemaSet`` into the IR.

Reads only the canonical form (JSON Schema 2020-12 plus ``discriminator``); knows no dialect.
Definitions keep the name the schema gives them; inline objects are named ``<Parent><Property>``.
"""

from __future__ import annotations

from typing import Any

from . import ir
from .errors import Reporter
from .names import pascal, unique
from .schema import Definition, Schema, SchemaSet

#: Keywords beside a ``$ref`` that only describe it: the reference is the referenced type itself.
REF_ANNOTATIONS = frozenset(
    {"$ref", "description", "title", "default", "examples", "deprecated", "$comment", "type"}
)
SCALARS: dict[str, ir.Type] = {
    "string": ir.Scalar("str"), "integer": ir.Scalar("int"), "number": ir.Scalar("float"),
    "boolean": ir.Scalar("bool"), "null": ir.Null(),
}
#: Keywords this version reads; anything else that constrains a value is reported, never dropped silently.
UNSUPPORTED = ("not", "if", "then", "else", "dependentSchemas", "dependentRequired",
               "unevaluatedProperties", "unevaluatedItems", "contains", "propertyNames")


def lower(schemas: SchemaSet, reporter: Reporter) -> ir.Module:
    return _Lowering(schemas, reporter).run()


class _Lowering:
    def __init__(self, schemas: SchemaSet, reporter: Reporter) -> None:
        self.definitions = schemas.definitions
        self.reporter = reporter
        self.taken: set[str] = set()
        self.names = {key: unique(d.name, self.taken) for key, d in self.definitions.items()}
        self.declarations: list[ir.Declaration | None] = []

    def run(self) -> ir.Module:
        for key, definition in self.definitions.items():
            self.declare(self.names[key], definition.schema, inline=False)
        root = self.names.get("#")
        return ir.Module(tuple(d for d in self.declarations if d is not None), root)

    # Declarations -------------------------------------------------------------------------

    def declare(self, name: str, schema: Schema, *, inline: bool) -> None:
        """Append the declaration ``name`` for ``schema``; nested inline ones follow it."""
        slot = len(self.declarations)
        self.declarations.append(None)
        doc = _text(schema.get("description"))
        if _is_model(schema):
            self.declarations[slot] = self.model(name, schema, doc, inline)
        else:
            self.declarations[slot] = ir.Alias(name, self.type_of(schema, name), doc, inline)

    def model(self, name: str, schema: Schema, doc: str | None, inline: bool) -> ir.Model:
        required = schema.get("required") if isinstance(schema.get("required"), list) else []
        fields = []
        for wire, sub in (schema.get("properties") or {}).items():
            fields.append(ir.Field(
                name=wire,
                wire_name=wire,
                type=self.type_of(sub, name + pascal(wire)),
                required=wire in required,
                default=ir.Default(sub["default"]) if "default" in sub else None,
                doc=_description(sub),
            ))
        for missing in [r for r in required if r not in (schema.get("properties") or {})]:
            self.reporter.warn(schema.loc.child("required"),
                               f"required property {missing!r} is not declared; it is typed as Any")
            fields.append(ir.Field(missing, missing, ir.AnyType(), True))
        closed = schema.get("additionalProperties") == {"not": {}}
        return ir.Model(name, tuple(fields), doc, closed=closed, inline=inline)

    def inline(self, hint: str, schema: Schema) -> ir.Ref:
        name = unique(hint, self.taken)
        self.declare(name, schema, inline=True)
        return ir.Ref(name)

    # Types --------------------------------------------------------------------------------

    def type_of(self, schema: Schema, hint: str) -> ir.Type:
        """The type of ``schema``; an object with properties becomes an inline model ``hint``."""
        for keyword in UNSUPPORTED:
            if keyword in schema:
                self.reporter.warn(schema.loc.child(keyword), f"`{keyword}` is not supported; it is not enforced")
        if "$ref" in schema:
            return self.ref(schema)
        if "const" in schema:
            return self.literal(schema, [schema["const"]])
        if isinstance(schema.get("enum"), list):
            return self.literal(schema, schema["enum"])
        for keyword in ("anyOf", "oneOf"):
            if isinstance(schema.get(keyword), list):
                return self.alternatives(schema, keyword, hint)
        if isinstance(schema.get("allOf"), list):
            return self.all_of(schema, hint)
        kinds = schema.get("type")
        if isinstance(kinds, list):
            return ir.union(*(self.of_kind(schema, k, hint) for k in kinds))
        if isinstance(kinds, str):
            return self.of_kind(schema, kinds, hint)
        if "properties" in schema or "additionalProperties" in schema:
            return self.of_kind(schema, "object", hint)
        if "items" in schema or "prefixItems" in schema:
            return self.of_kind(schema, "array", hint)
        if schema.get("not") == {}:
            self.reporter.warn(schema.loc, "a schema that accepts nothing; typed as Any")
        return ir.AnyType()

    def of_kind(self, schema: Schema, kind: Any, hint: str) -> ir.Type:
        if kind == "object":
            if _is_model(schema):
                return self.inline(hint, schema)
            extra = schema.get("additionalProperties")
            value = self.type_of(extra, hint + "Value") if isinstance(extra, Schema) else ir.AnyType()
            return ir.Map(value)
        if kind == "array":
            items = schema.get("items")
            if "prefixItems" in schema:
                self.reporter.warn(schema.loc.child("prefixItems"), "tuple arrays are read as lists")
            return ir.Array(self.type_of(items, hint + "Item") if isinstance(items, Schema) else ir.AnyType())
        if kind in SCALARS:
            return SCALARS[kind]
        self.reporter.error(schema.loc.child("type"), f"unknown type {kind!r}",
                            "use one of: " + ", ".join(["array", "object", *SCALARS]))
        return ir.AnyType()

    def ref(self, schema: Schema) -> ir.Type:
        target = schema["$ref"]
        definition = self.definitions.get(target) if isinstance(target, str) else None
        if definition is None:
            self.reporter.error(schema.loc.child("$ref"), f"unresolved reference {target!r}",
                                "add the missing definition, or fix the reference")
            return ir.AnyType()
        ignored = sorted(set(schema) - REF_ANNOTATIONS)
        if ignored:
            self.reporter.warn(schema.loc, "keywords beside `$ref` are ignored: " + ", ".join(ignored))
        kind = schema.get("type")
        if kind is not None and definition.schema.get("type") not in (None, kind):
            self.reporter.warn(schema.loc.child("type"), f"`type` {kind!r} beside `$ref` differs from the target's; the target wins")
        return ir.Ref(self.names[target])

    def literal(self, schema: Schema, values: list[Any]) -> ir.Type:
        scalars = [v for v in values if v is None or isinstance(v, (str, int, bool)) and not isinstance(v, float)]
        if len(scalars) != len(values) or not values:
            self.reporter.warn(schema.loc, "enum or const values that are not strings, integers or booleans; typed as Any")
            return ir.AnyType()
        present = tuple(v for v in dict.fromkeys(scalars) if v is not None)
        literal: ir.Type = ir.Literal(present) if present else ir.Null()
        return ir.union(literal, ir.Null()) if None in scalars else literal

    def alternatives(self, schema: Schema, keyword: str, hint: str) -> ir.Type:
        options: list[Schema] = [s for s in schema[keyword] if isinstance(s, Schema)]
        real = [s for s in options if s.get("type") != "null"]
        members = []
        for i, option in enumerate(options, 1):
            members.append(self.type_of(option, hint if len(real) == 1 else f"{hint}Option{i}"))
        result = ir.union(*members)
        discriminator = schema.get("discriminator")
        if isinstance(result, ir.Union) and isinstance(discriminator, dict) and isinstance(discriminator.get("propertyName"), str):
            return ir.Union(result.members, tag_field=discriminator["propertyName"])
        return result

    def all_of(self, schema: Schema, hint: str) -> ir.Type:
        parts: list[Schema] = [s for s in schema["allOf"] if isinstance(s, Schema)]
        if len(parts) == 1:
            return self.type_of(parts[0], hint)
        self.reporter.warn(schema.loc.child("allOf"), "`allOf` with several members is read as its first member")
        return self.type_of(parts[0], hint) if parts else ir.AnyType()


def _is_model(schema: Schema) -> bool:
    kinds = schema.get("type")
    objecty = kinds is None or kinds == "object" or (isinstance(kinds, list) and "object" in kinds)
    plain = not any(k in schema for k in ("$ref", "anyOf", "oneOf", "allOf", "enum", "const"))
    return objecty and plain and bool(schema.get("properties"))


def _description(schema: Schema) -> str | None:
    """The schema's description; for ``anyOf [X, null]``, X's (the same thing said another way)."""
    own = _text(schema.get("description"))
    if own is not None:
        return own
    for keyword in ("anyOf", "oneOf"):
        options = [s for s in schema.get(keyword) or [] if isinstance(s, Schema) and s.get("type") != "null"]
        if len(options) == 1:
            return _description(options[0])
    return None


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value.strip() else None
