"""``typing.TypedDict``: the raw JSON shape; keys are wire names, absent keys are ``NotRequired``."""

from __future__ import annotations

import json

from .. import ir
from .annotations import annotation
from .imports import Imports
from .view import FieldView, field_doc

name = "typeddict"
template = "typeddict.py.jinja"


def field(f: ir.Field, model: ir.Model, imports: Imports) -> FieldView:
    expression = annotation(f.type, imports)
    note = None
    if not f.required:
        expression = f"{imports.add('typing', 'NotRequired')}[{expression}]"
        if f.default is not None:
            note = "Default: `" + json.dumps(f.default.value, ensure_ascii=False) + "`."
    return FieldView(f.wire_name, expression, None, field_doc(f, note))


def class_options(model: ir.Model, imports: Imports) -> tuple[str, ...]:
    return ()


def class_imports(imports: Imports) -> None:
    imports.add("typing", "TypedDict")
