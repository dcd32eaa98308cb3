"""Objects: a schema with ``properties`` is a model; other objects are maps of their other keys' values."""

from __future__ import annotations

import re

from .. import ir
from ..frontend.schema import Schema
from ..names import after, pascal
from . import references
from .context import Context
from .shapes import NEVER, description


def model(lw: Context, name: str, schema: Schema, doc: str | None, inline: bool, origin: ir.Origin) -> ir.Model:
    properties: dict[str, Schema] = schema.get("properties") or {}
    # `required` may repeat a key (the meta-schema check only warns; an allOf merge keeps each
    # member's list): one field per key
    required = dict.fromkeys(r for r in schema.get("required") or [] if isinstance(r, str))
    fields = [
        ir.Field(
            name=wire,
            wire_name=wire,
            type=lw.type_of(sub, property_name(lw, name, wire)),
            required=wire in required,
            default=references.default(lw, sub),
            doc=description(sub),
        )
        for wire, sub in properties.items()
    ]
    for missing in [r for r in required if r not in properties]:
        fields.append(ir.Field(missing, missing, extra_type(lw, schema, name), True))
    check_required(lw, schema)
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
    return ir.Model(name, tuple(fields), doc, closed=closed(schema), inline=inline, origin=origin)


def property_name(lw: Context, model: str, wire: str) -> str:
    """What a property declares under: the model's name and the property's, a word the model's name
    ends with said once (``…ContentPartImage`` + ``image_url`` → ``…ContentPartImageUrl``), unless
    that is the model's own name or taken (then both in full: ``UserUser``, the ``user`` of ``User``)."""
    word = pascal(wire)
    joined = after(model, word)
    return joined if joined != model and lw.free(joined) else model + word


def closed(schema: Schema) -> bool:
    """No key but those ``properties`` names: ``additionalProperties: false`` and no pattern."""
    return schema.get("additionalProperties") == NEVER and not schema.get("patternProperties")


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


def check_required(lw: Context, schema: Schema) -> None:
    """Warn of a ``required`` key that looks like a mistake: one ``additionalProperties: false`` forbids
    (no property or pattern holds it, so no object is valid), or one missing from ``properties`` where
    nothing else is said of other keys (a typo, most often). A key that a pattern or an
    ``additionalProperties`` schema holds is left alone, and so is one that folding took from a
    referenced definition: the warning is that definition's."""
    found = schema.get("properties")
    properties = found if isinstance(found, dict) else {}
    extra = schema.get("additionalProperties")
    closed = extra == NEVER
    if not closed and not (properties and extra in (None, {})):
        return
    patterns = list(schema.get("patternProperties") or {})
    inherited = lw.inherited(schema)  # (the definition it comes from says so itself)
    for key in dict.fromkeys(r for r in schema.get("required") or [] if isinstance(r, str)):
        if key in properties or key in inherited or any(_matches(p, key) for p in patterns):
            continue
        import difflib  # (here: a run that warns of nothing imports none of it)

        close = difflib.get_close_matches(key, list(properties), n=1, cutoff=0.7)
        guess = f" (did you mean {close[0]!r}?)" if close else ""
        said = (f"`required` names {key!r}, which `additionalProperties: false` forbids{guess}: no object is valid"
                if closed else f"`required` names {key!r}, which is not one of its `properties`{guess}; it is read "
                "as a required field of any type")
        lw.scope.reporter.warn(schema.loc.child("required"), said, "add the property, or fix the name in `required`",
                               kind="unknown required key")


def _matches(pattern: str, key: str) -> bool:
    try:
        return re.search(pattern, key) is not None
    except re.error:  # an ECMA-262 pattern Python cannot read: it may hold the key
        return True
