"""``$ref``: a reference is the referenced declaration, or null beside it where the target allows null."""

from __future__ import annotations

from .. import ir
from ..diagnostics import SchemaError
from ..frontend.schema import Schema
from .context import Context
from .shapes import KINDS, implied_kind, is_file_ref, is_model


def ref(lw: Context, schema: Schema) -> ir.Type:
    """The referenced declaration; with null where the target allows it, unless a ``type`` beside says no null."""
    scope = lw.scope
    target = schema["$ref"]
    if isinstance(target, str) and target in scope.anything:  # the root of a document that constrains nothing, as `{}`
        return ir.AnyType()
    if isinstance(target, str) and target not in scope.definitions and is_file_ref(target) and scope.external:
        try:
            return scope.external(target, schema.loc.child("$ref"))
        except SchemaError as exc:
            for diagnostic in exc.diagnostics:
                scope.reporter.add(diagnostic)
            return ir.AnyType()
    if not isinstance(target, str) or target not in scope.definitions:
        hint = ("remote references are not fetched: vendor the document into the schema folder and map its URL "
                "to it under [tool.schemagen.refs]"
                if isinstance(target, str) and target.split(":", 1)[0] in ("http", "https")
                else "add the missing definition, or fix the reference")
        scope.reporter.error(schema.loc.child("$ref"), f"unresolved reference {target!r}", hint)
        return ir.AnyType()
    found: ir.Type = ir.Ref(scope.names[target])
    kinds = schema.get("type")
    null_beside = kinds is None or kinds == "null" or (isinstance(kinds, list) and "null" in kinds)
    found = ir.union(found, ir.Null()) if null_beside and nullable(lw, target) else found
    return ir.union(found, *kinds_beside(lw, schema, target))


def default(lw: Context, schema: Schema) -> ir.Default | None:
    """A property's default, read as JSON Schema annotations are: its own, else that of what it refers
    to (through ``$ref``, and a lone ``allOf`` member), the nearest first: pydantic writes a model
    field's default on the referenced schema (``{"$ref": "#/$defs/Usage"}`` with ``Usage``'s
    ``default: null``)."""
    known = lw.scope.defaults  # (each target's answer found once: many properties refer along one chain)
    followed: list[str] = []
    found: ir.Default | None = None
    while True:
        schema, target = looked_up(schema)
        if "default" in schema:
            found = ir.Default(schema["default"])
            break
        if target is not None and target in known:
            found = known[target]
            break
        if target is None or target not in lw.scope.definitions or target in followed:
            break
        followed.append(target)
        schema = lw.scope.definitions[target].schema
    known.update(dict.fromkeys(followed, found))
    return found


def looked_up(schema: Schema) -> tuple[Schema, str | None]:
    """Where a default is read along a chain of references (``default``): ``schema``, through a lone
    ``allOf`` member, and, where it has no default, what it refers to next."""
    while "default" not in schema:
        members = schema.get("allOf")
        if "$ref" not in schema and isinstance(members, list) and len(members) == 1 and isinstance(members[0], Schema):
            schema = members[0]
            continue
        target = schema.get("$ref")
        return schema, target if isinstance(target, str) else None
    return schema, None


def kinds_beside(lw: Context, schema: Schema, target: str) -> list[ir.Type]:
    """What a ``type`` beside ``$ref`` adds: a target with no ``type`` of its own (``properties``
    alone) restricts only values of its kind and lets every other kind through, so the kinds
    the ``type`` names join the reference: ``{"$ref": "#/definitions/provider", "type": ["number",
    "object"]}`` is ``float | Provider``. (Drafts before 2019-09 ignore that ``type``, and then
    any kind passes: the reference alone would refuse valid values.)"""
    kinds = schema.get("type")
    kinds = [kinds] if isinstance(kinds, str) else kinds if isinstance(kinds, list) else []
    own = implied_kind(lw.expand(lw.scope.definitions[target].schema))
    if own is None or not all(k in KINDS for k in kinds):
        return []
    beside = Schema({k: v for k, v in schema.items() if k != "$ref"}, schema.place)
    return [lw.of_kind(beside, k, lw.scope.names[target]) for k in kinds if k != own]


def nullable(lw: Context, key: str) -> bool:
    """A definition that is a model or an enum, or null: references add the null (the declaration
    itself is the model or enum without it: ``Lowering.declare``)."""
    schema = lw.expand(lw.scope.definitions[key].schema)
    kinds = schema.get("type")
    null_type = isinstance(kinds, list) and "null" in kinds
    if is_model(schema):
        return null_type
    values = [schema["const"]] if "const" in schema else schema.get("enum")
    return isinstance(values, list) and any(v is not None for v in values) and (None in values or null_type)
