"""Standard-library dataclasses: ``@dataclass(kw_only=True)``; absent and null both read as ``None``."""

from __future__ import annotations

from collections.abc import Collection, Mapping

from .. import ir
from . import literals
from .annotations import RICH_FORMATS, TypeStyle
from .imports import Imports
from .notes import constraints_note
from .view import Context, FieldView, field_doc, with_field_call

name = "dataclass"
template = "dataclass.py.jinja"
lazy_annotations = True
style = TypeStyle(formats=RICH_FORMATS, meta=False, module="dataclass_models")
enum_classes = True


def prepare(t: ir.Type, declarations: Mapping[str, ir.Declaration], enums: Collection[str]) -> ir.Type:
    return t


def functional(model: ir.Model) -> bool:
    return False


def omitted(model: ir.Model, field: ir.Field) -> bool:
    return False


def field(f: ir.Field, model: ir.Model, ctx: Context) -> FieldView:
    keywords: list[tuple[str, str]] = []
    t = f.type
    if not f.required:
        if f.default is None or f.default.value is None:
            t = ir.union(t, ir.Null())
            keywords.append(("default", "None"))
        else:
            keywords.append(ctx.default(f.default.value, t))
    if f.name != f.wire_name:
        keywords.append(("metadata", "{" + literals.string("wire_name") + ": " + literals.string(f.wire_name) + "}"))
    if any(k != "default" for k, _ in keywords):
        ctx.imports.add("dataclasses", "field")
    note = constraints_note(f.type, style, enforced=False)
    return FieldView(f.name, ctx.annotate(t), with_field_call("field", keywords), field_doc(f, note))


def alias_note(alias: ir.Alias, ctx: Context) -> str | None:
    return None


def class_options(model: ir.Model, ctx: Context) -> tuple[str, ...]:
    return ()


def class_imports(imports: Imports) -> None:
    imports.add("dataclasses", "dataclass")
