"""What the pydantic variant must say differently of a model: the attributes pydantic cannot take, the
default of a tag the schema does not require, and the unions it can tell apart by a field
(``Field(discriminator=...)``).

Field names are the IR's in every variant, except where pydantic refuses or shadows them: a name
with a leading underscore is a private attribute to pydantic (not a field at all), ``model_config``
is its configuration, and the names of ``BaseModel``'s own attributes (``schema``, ``json``,
``copy``, ``model_dump``...) shadow them with a warning at import. Such a field takes the name with
an underscore after it (``schema_``, ``_x`` → ``x_``), its key kept as its alias, so that the same
schema keeps its other variants' names unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping

from .. import ir
from ..names import unique

#: ``BaseModel``'s public attributes (pydantic 2.11 to 2.14), its configuration, and the names a
#: class body of this variant uses (``Field(...)``, ``Omittable[...]``, ``re.compile(...)``).
TAKEN = frozenset({
    "construct", "copy", "dict", "from_orm", "json", "parse_file", "parse_obj", "parse_raw", "schema",
    "schema_json", "update_forward_refs", "validate",
    "model_computed_fields", "model_config", "model_construct", "model_copy", "model_extra", "model_fields",
    "model_fields_set", "model_json_schema", "model_parametrized_name", "model_post_init", "model_rebuild",
    "model_validate", "model_validate_json", "model_validate_strings", "model_dump", "model_dump_json",
    "Field", "Omittable", "re",
})
#: Prefixes pydantic keeps for its own methods (``protected_namespaces``): a field there warns.
PROTECTED = ("model_validate", "model_dump")


_MADE: dict[int, tuple[ir.Model, dict[str, str]]] = {}
"""The attributes of the models asked of lately, by identity: a class's fields are asked one after
another, each asks for all of them, and a tagged union among them asks its members' (so a wide class
costs its width once, not its width squared). Emptied when full."""
_KEPT = 256


def attributes(model: ir.Model) -> dict[str, str]:
    """Wire name → the attribute of ``model``'s class: the IR's name unless pydantic cannot take it."""
    made = _MADE.get(id(model))
    if made is not None and made[0] is model:
        return made[1]
    if len(_MADE) >= _KEPT:
        _MADE.clear()
    names = _attributes(model)
    _MADE[id(model)] = (model, names)  # (the model is kept with it: its id is not reused meanwhile)
    return names


def _attributes(model: ir.Model) -> dict[str, str]:
    names = {f.wire_name: f.name for f in model.fields}
    if all(_free(n) for n in names.values()):
        return names
    taken = {n for n in names.values() if _free(n)}
    for wire, name in names.items():
        if not _free(name):
            base = name.lstrip("_") or "field"
            candidate = base + "_"
            while not _free(candidate):
                candidate += "_"
            names[wire] = unique(candidate, taken)
    return names


def _free(name: str) -> bool:
    return not name.startswith("_") and name not in TAKEN and not name.startswith(PROTECTED)


def own_tag(model: ir.Model, field: ir.Field) -> ir.LiteralValue | None:
    """The default of ``model``'s tag field where the schema does not require it: the class's own tag, as
    msgspec takes an absent tag of a class read on its own (and refuses it in a union of tagged classes).
    ``None`` for any other field, and for a tag its field's values do not hold."""
    tag = model.tag
    if tag is None or field.wire_name != tag.field or field.required or field.default is not None:
        return None
    return tag.value if isinstance(field.type, ir.Literal) and tag.value in field.type.values else None


def discriminator(union: ir.Union, declarations: Mapping[str, ir.Declaration]) -> str | None:
    """The attribute pydantic tells ``union``'s members apart by, where it can: two or more models of
    this module beside null, each with a field of the union's tag key (the one the schema names, or
    the one every member's tag is on) typed as a ``Literal`` of values no other member has, required or
    defaulting to the member's own tag (``own_tag``). Otherwise ``None``: the union is read in pydantic's
    smart mode."""
    members = [m for m in union.members if m != ir.Null()]
    models = [d for m in members if isinstance(m, ir.Ref) and m.module is None
              and isinstance(d := declarations.get(m.name), ir.Model)]
    if len(models) < 2 or len(models) < len(members):
        return None
    keys = {m.tag.field if m.tag else None for m in models}
    key = union.tag_field or (keys.pop() if len(keys) == 1 else None)
    found: set[str] = set()
    seen: set[ir.LiteralValue] = set()
    for model in models:
        tag = next((f for f in model.fields if f.wire_name == key), None)
        if tag is None or not isinstance(tag.type, ir.Literal) or not (tag.required or own_tag(model, tag) is not None):
            return None
        if not all(isinstance(v, str) for v in tag.type.values) or seen.intersection(tag.type.values):
            return None
        seen.update(tag.type.values)
        found.add(attributes(model)[tag.wire_name])
    return found.pop() if len(found) == 1 else None
