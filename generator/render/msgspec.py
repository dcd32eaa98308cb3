"""``msgspec.Struct``: absent is ``UNSET``, null is ``None``; unions of models decode by their tag.

Every type here must build a msgspec decoder: unions msgspec cannot decode are widened
(``msgspec_unions``), constraints are enforced with ``Meta``, a model's tag is set by its class
(so the tag property has no field), and a key msgspec cannot rename (one with ``"``, ``\\`` or a
control character) has no field either: it is ignored like an unknown key.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from .. import ir
from ..names import portable_wire_name
from . import literals
from .annotations import RICH_FORMATS, TypeStyle
from .imports import Imports
from .msgspec_unions import legal
from .view import Context, FieldView, constraints_note, field_doc, with_field_call

name = "msgspec"
template = "msgspec.py.jinja"
lazy_annotations = True
style = TypeStyle(formats=RICH_FORMATS, meta=True, module="msgspec_models")
enum_classes = True


def prepare(t: ir.Type, declarations: Mapping[str, ir.Declaration], enums: Collection[str]) -> ir.Type:
    return legal(t, declarations, enums=enums)


def functional(model: ir.Model) -> bool:
    return False


def omitted(model: ir.Model, field: ir.Field) -> bool:
    is_tag = model.tag is not None and field.wire_name == model.tag.field
    return is_tag or not portable_wire_name(field.wire_name)


def field(f: ir.Field, model: ir.Model, ctx: Context) -> FieldView:
    keywords: list[tuple[str, str]] = []
    expression = ctx.annotate(f.type)
    if not f.required:
        if f.default is None:
            expression += " | " + ctx.imports.add("msgspec", "UnsetType")
            keywords.append(("default", ctx.imports.add("msgspec", "UNSET")))
        elif f.default.value is None:
            expression = ctx.annotate(ir.union(f.type, ir.Null()))
            keywords.append(("default", "None"))
        else:
            keywords.append(ctx.default(f.default.value, f.type))
    if f.name != f.wire_name:
        keywords.append(("name", literals.string(f.wire_name)))
    if any(k != "default" for k, _ in keywords):
        ctx.imports.add("msgspec", "field")
    lost: list[ir.Constraints] = []
    legal(f.type, ctx.declarations, lost, ctx.enums.keys())
    return FieldView(f.name, expression, with_field_call("field", keywords),
                     field_doc(f, constraints_note(f.type, enforced=True, lost=lost)))


def class_options(model: ir.Model, ctx: Context) -> tuple[str, ...]:
    options = ["kw_only=True"]
    if model.tag is not None:
        options += [f"tag_field={literals.string(model.tag.field)}", f"tag={literals.value(model.tag.value)}"]
    if model.closed:
        options.append("forbid_unknown_fields=True")
    return tuple(options)


def class_imports(imports: Imports) -> None:
    imports.add("msgspec", "Struct")
