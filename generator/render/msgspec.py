"""``msgspec.Struct``: absent is ``UNSET``, null is ``None``; unions of models decode by their tag."""

from __future__ import annotations

from .. import ir
from . import literals
from .imports import Imports
from .view import Context, FieldView, default_expression, field_doc, with_field_call

name = "msgspec"
lazy_annotations = True
template = "msgspec.py.jinja"


def field(f: ir.Field, model: ir.Model, ctx: Context) -> FieldView | None:
    if model.tag is not None and f.wire_name == model.tag.field:
        return None  # msgspec reads and writes the tag itself (class keyword `tag`)
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
            keywords.append(default_expression(f.default.value, lambda: ctx.imports.add("msgspec", "field")))
    if f.name != f.wire_name:
        keywords.append(("name", literals.string(f.wire_name)))
    if any(k != "default" for k, _ in keywords):
        ctx.imports.add("msgspec", "field")
    return FieldView(f.name, expression, with_field_call("field", keywords), field_doc(f))


def class_options(model: ir.Model, ctx: Context) -> tuple[str, ...]:
    options = ["kw_only=True"]
    if model.tag is not None:
        options += [f"tag_field={literals.string(model.tag.field)}", f"tag={literals.value(model.tag.value)}"]
    if model.closed:
        options.append("forbid_unknown_fields=True")
    return tuple(options)


def class_imports(imports: Imports) -> None:
    imports.add("msgspec", "Struct")
