"""``typing.TypedDict``: the raw JSON shape; keys are wire names, absent keys are ``NotRequired``.

Values stay what JSON has (a date-time is a ``str``); constraints and defaults are documented.
Annotations are evaluated eagerly here (no ``from __future__ import annotations``): on
Python 3.11 a ``NotRequired`` inside a string annotation is invisible to ``__required_keys__``.
Forward references are quoted inside the qualifier instead: ``NotRequired["Later | None"]``.
"""

from __future__ import annotations

import json
import keyword
from collections.abc import Collection, Mapping

from .. import ir
from . import literals
from .annotations import TypeStyle
from .capabilities import Capabilities, every_key, every_union, schema_tag
from .imports import Imports
from .notes import constraints_note
from .view import Context, FieldView, field_doc

name = "typeddict"
template = "typeddict.py.jinja"
base = "TypedDict"
lazy_annotations = False
style = TypeStyle(formats={}, meta=False, module="typeddict_models")
enum_classes = False


def prepare(t: ir.Type, declarations: Mapping[str, ir.Declaration], enums: Collection[str]) -> ir.Type:
    return t


def functional(model: ir.Model) -> bool:
    """Keys that cannot be class attributes (``from``, ``content-type``, ``__x``) need the call form."""
    return any(not f.wire_name.isidentifier() or keyword.iskeyword(f.wire_name) or f.wire_name.startswith("__")
               for f in model.fields)


def attribute(model: ir.Model, field: ir.Field) -> str:
    return field.name


def omitted(model: ir.Model, field: ir.Field) -> bool:
    return False


def field(f: ir.Field, model: ir.Model, ctx: Context) -> FieldView:
    note = None
    if f.required:
        expression = ctx.annotate(f.type)
    else:
        qualifier = ctx.imports.add("typing", "NotRequired")
        expression = ctx.annotate(f.type, lambda text: f"{qualifier}[{text}]")
        if f.default is not None:
            note = "Default: `" + json.dumps(f.default.value, ensure_ascii=False) + "`."
    return FieldView(f.wire_name, expression, None, field_doc(f, constraints_note(f.type, style, enforced=False), note))


def alias_note(alias: ir.Alias, ctx: Context) -> str | None:
    return None


def class_options(model: ir.Model, ctx: Context) -> tuple[str, ...]:
    return ()


def prelude(module: ir.Module, imports: Imports) -> str | None:
    return None


def class_imports(imports: Imports) -> None:
    imports.add("typing", "TypedDict")


capabilities = Capabilities(style, every_union, schema_tag, every_key)
