"""``typing.TypedDict``: the raw JSON shape; keys are wire names, absent keys are ``NotRequired``.

Annotations are evaluated eagerly here (no ``from __future__ import annotations``): on
Python 3.11 a ``NotRequired`` inside a string annotation is invisible to ``__required_keys__``.
Forward references are quoted inside the qualifier instead: ``NotRequired["Later | None"]``.
"""

from __future__ import annotations

import json

from .. import ir
from .imports import Imports
from .view import Context, FieldView, field_doc

name = "typeddict"
template = "typeddict.py.jinja"
lazy_annotations = False


def field(f: ir.Field, model: ir.Model, ctx: Context) -> FieldView:
    note = None
    if f.required:
        expression = ctx.annotate(f.type)
    else:
        qualifier = ctx.imports.add("typing", "NotRequired")
        expression = ctx.annotate(f.type, lambda text: f"{qualifier}[{text}]")
        if f.default is not None:
            note = "Default: `" + json.dumps(f.default.value, ensure_ascii=False) + "`."
    return FieldView(f.wire_name, expression, None, field_doc(f, note))


def class_options(model: ir.Model, ctx: Context) -> tuple[str, ...]:
    return ()


def class_imports(imports: Imports) -> None:
    imports.add("typing", "TypedDict")
