"""``msgspec.Struct``: absent is ``UNSET``, null is ``None``; unions of models decode by their tag.

Every type here must build a msgspec decoder: unions msgspec cannot decode are widened
(``msgspec_unions``), constraints are enforced with ``Meta``, a model's tag is set by its class
(so the tag property has no field), and a key msgspec cannot rename (one with ``"``, ``\\`` or a
control character) has no field either: it is ignored like an unknown key. What is not enforced (a
member widened, a constraint msgspec cannot check or a widening dropped) is said in the field's or
alias's docstring.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from .. import ir
from ..names import portable_wire_name
from . import literals
from .annotations import RICH_FORMATS, TypeStyle
from .capabilities import Capabilities
from .dataclass import reads_format
from .imports import Imports
from .msgspec_unions import Widening, legal, msgspec_tag
from .notes import constraints_note, widening_note
from .view import Context, FieldView, field_doc, joined, with_field_call

name = "msgspec"
template = "msgspec.py.jinja"
base = "Struct"
lazy_annotations = True
style = TypeStyle(formats=RICH_FORMATS, meta=True, module="msgspec_models")
enum_classes = True
#: msgspec reads a formatted string as the dataclass converter does (tests/test_dataclass_convert.py
#: holds the two together), so the converter's reading is the description's.
capabilities = Capabilities(style, legal, msgspec_tag, portable_wire_name, reads_format)


def prepare(t: ir.Type, declarations: Mapping[str, ir.Declaration], enums: Collection[str]) -> ir.Type:
    return legal(t, declarations, enums=enums)


def functional(model: ir.Model) -> bool:
    return False


def attribute(model: ir.Model, field: ir.Field) -> str:
    return field.name


def omitted(model: ir.Model, field: ir.Field) -> bool:
    tag = msgspec_tag(model)
    is_tag = tag is not None and field.wire_name == tag.field
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
    return FieldView(f.name, expression, with_field_call("field", keywords), field_doc(f, _unenforced(f.type, ctx)))


def alias_note(alias: ir.Alias, ctx: Context) -> str | None:
    return _unenforced(alias.type, ctx)


def _unenforced(t: ir.Type, ctx: Context) -> str | None:
    """What a value of ``t`` is not checked for here: the members widened, and the constraints
    msgspec cannot enforce or a widening dropped."""
    widening = Widening()
    legal(t, ctx.declarations, widening, ctx.enums.keys())
    return joined(widening_note(widening.widened, style),
                  constraints_note(t, style, enforced=True, lost=widening.lost))


def class_options(model: ir.Model, ctx: Context) -> tuple[str, ...]:
    options = ["kw_only=True"]
    if (tag := msgspec_tag(model)) is not None:
        options += [f"tag_field={literals.string(tag.field)}", f"tag={literals.value(tag.value)}"]
    if model.closed:
        options.append("forbid_unknown_fields=True")
    return tuple(options)


def prelude(module: ir.Module, imports: Imports) -> str | None:
    return None


def class_imports(imports: Imports) -> None:
    imports.add("msgspec", "Struct")
