"""Objects: a schema with ``properties`` is a model; other objects are maps of their other keys' values."""

from __future__ import annotations

from .. import ir
from ..frontend.schema import Schema
from ..names import pascal
from .context import Context
from .shapes import NEVER, description


def model(lw: Context, name: str, schema: Schema, doc: str | None, inline: bool, origin: ir.Origin) -> ir.Model:
    properties: dict[str, Schema] = schema.get("properties") or {}
    # `required` may repeat a key (the meta-schema check only warns; an allOf merge keeps each
    # member's list): one field per key
    required = list(dict.fromkeys(r for r in schema.get("required") or [] if isinstance(r, str)))
    fields = [
        ir.Field(
            name=wire,
            wire_name=wire,
            type=lw.type_of(sub, name + pascal(wire)),
            required=wire in required,
            default=ir.Default(sub["default"]) if "default" in sub else None,
            doc=description(sub),
        )
        for wire, sub in properties.items()
    ]
    for missing in [r for r in required if r not in properties]:
        fields.append(ir.Field(missing, missing, extra_type(lw, schema, name), True))
    reporter = lw.scope.reporter
    for keyword in ("patternProperties", "minProperties", "maxProperties"):
        if keyword in schema:
            reporter.warn(schema.loc.child(keyword), f"`{keyword}` beside `properties` is not enforced",
                          kind="unenforced constraint")
    extra = schema.get("additionalProperties")
    if isinstance(extra, Schema) and extra not in ({}, NEVER):
        reporter.warn(schema.loc.child("additionalProperties"),
                      "the values of other keys beside `properties` are not kept; they are ignored",
                      kind="unenforced constraint")
    closed = schema.get("additionalProperties") == NEVER and "patternProperties" not in schema
    return ir.Model(name, tuple(fields), doc, closed=closed, inline=inline, origin=origin)


def extra_type(lw: Context, schema: Schema, hint: str) -> ir.Type:
    """The type of the values of an object's other keys."""
    extra = schema.get("additionalProperties")
    patterns = [s for s in (schema.get("patternProperties") or {}).values() if isinstance(s, Schema)]
    if patterns:
        values = [lw.type_of(s, f"{hint}Value") for s in patterns]
        if extra != NEVER:
            values.append(lw.type_of(extra, f"{hint}Value") if isinstance(extra, Schema) else ir.AnyType())
        return ir.union(*values)
    return lw.type_of(extra, hint + "Value") if isinstance(extra, Schema) and extra != NEVER else ir.AnyType()
