"""Standard-library dataclasses: ``@dataclass(kw_only=True)``; absent and null both read as ``None``."""

from __future__ import annotations

from .. import ir
from . import literals
from .imports import Imports
from .view import Context, FieldView, default_expression, field_doc, with_field_call

name = "dataclass"
lazy_annotations = True
template = "dataclass.py.jinja"


def field(f: ir.Field, model: ir.Model, ctx: Context) -> FieldView:
    keywords: list[tuple[str, str]] = []
    t = f.type
    if not f.required:
        if f.default is None or f.default.value is None:
            t = ir.union(t, ir.Null())
            keywords.append(("default", "None"))
        else:
            keywords.append(default_expression(f.default.value, lambda: ctx.imports.add("dataclasses", "field")))
    if f.name != f.wire_name:
        keywords.append(("metadata", "{" + literals.string("wire_name") + ": " + literals.string(f.wire_name) + "}"))
    if any(k != "default" for k, _ in keywords):
        ctx.imports.add("dataclasses", "field")
    return FieldView(f.name, ctx.annotate(t), with_field_call("field", keywords), field_doc(f))


def class_options(model: ir.Model, ctx: Context) -> tuple[str, ...]:
    return ()


def class_imports(imports: Imports) -> None:
    imports.add("dataclasses", "dataclass")
