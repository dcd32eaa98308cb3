"""``anyOf`` and ``oneOf``: a union of the alternatives' types, tagged where a discriminator names the property."""

from __future__ import annotations

from typing import Any

from .. import ir
from ..frontend.schema import Schema
from .context import Context
from .shapes import has_constant


def alternatives(lw: Context, schema: Schema, keyword: str, hint: str) -> ir.Type:
    """The union of ``schema[keyword]``; keywords beside the alternatives hold for each (``distribute``)."""
    options: list[Schema] = [s for s in schema[keyword] if isinstance(s, Schema)]
    base = {k: v for k, v in schema.items() if k not in (keyword, "discriminator", "description", "title", "default")}
    distributed = any(k in base for k in ("properties", "type", "required", "additionalProperties"))
    if distributed:
        options = lw.distribute(base, options)
        if not options:
            lw.scope.reporter.warn(schema.loc.child(keyword), "no alternative can match the schema around it, "
                                   "so no value is valid; typed as Any")
            return ir.AnyType()
    real = [s for s in options if s.get("type") != "null"]
    members = [lw.type_of(o, hint if len(real) == 1 else f"{hint}Option{i}", made_by_folding=distributed)
               for i, o in enumerate(options, 1)]
    result = ir.union(*members)
    discriminator = schema.get("discriminator")
    if isinstance(result, ir.Union) and isinstance(discriminator, dict) \
            and isinstance(discriminator.get("propertyName"), str):
        field = discriminator["propertyName"]
        return ir.Union(result.members, field, discriminator_tags(lw, options, field, discriminator.get("mapping")))
    return result


def discriminator_tags(lw: Context, options: list[Schema], field: str, mapping: Any) -> tuple[tuple[str, str], ...]:
    """Each referenced member's tag: from the mapping, else (when it has no const there) its name."""
    definitions, names = lw.scope.definitions, lw.scope.names
    by_key = {target: value for value, target in (mapping or {}).items() if isinstance(target, str)}
    tags = []
    for option in options:
        key = option.get("$ref")
        if not isinstance(key, str) or key not in definitions:
            continue
        if key in by_key:
            tags.append((names[key], str(by_key[key])))
        elif not has_constant(lw.expand(definitions[key].schema), field):
            tags.append((names[key], definitions[key].name))
    return tuple(tags)
