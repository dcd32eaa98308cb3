"""Standard-library dataclasses: ``@dataclass(kw_only=True)``; absent and null are both held as ``None``.

Each class derives from the module's ``_Model`` (the converter of ``dataclass_runtime``, written
once per module): ``from_dict``/``to_dict``. What a class's annotations cannot say is said where the
converter reads it: the tag and ``forbid_unknown_fields`` as class keywords (msgspec's own words), the
wire name in the field's ``metadata``, and, for a field whose default is ``None``, whether the schema
allows null there (``nullable``) or gives null as its default (``null_default``).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from functools import cache
from pathlib import Path

from .. import ir
from ..ir.values import fits
from ..ir.walk import all_types
from . import literals
from .annotations import RICH_FORMATS, TypeStyle
from .imports import Imports
from .notes import constraints_note
from .view import Context, FieldView, field_doc, with_field_call

name = "dataclass"
template = "dataclass.py.jinja"
base = "_Model"  # the converter's (``prelude``)
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
    metadata = [("wire_name", literals.string(f.wire_name))] if f.name != f.wire_name else []
    if not f.required and f.default is not None and f.default.value is None:
        metadata.append(("null_default", "True"))  # written as null when absent, as msgspec writes it
    elif not f.required and f.default is None and fits(None, f.type, ctx.declarations):
        metadata.append(("nullable", "True"))  # None is absent, or null where from_dict read a null
    if metadata:
        keywords.append(("metadata", "{" + ", ".join(f"{literals.string(k)}: {v}" for k, v in metadata) + "}"))
    if any(k != "default" for k, _ in keywords):
        ctx.imports.add("dataclasses", "field")
    note = constraints_note(f.type, style, enforced=False)
    return FieldView(f.name, ctx.annotate(t), with_field_call("field", keywords), field_doc(f, note))


def alias_note(alias: ir.Alias, ctx: Context) -> str | None:
    return None


def class_options(model: ir.Model, ctx: Context) -> tuple[str, ...]:
    """Keywords of ``_Model.__init_subclass__``, named as msgspec names them."""
    options = []
    if model.tag is not None:
        options += [f"tag_field={literals.string(model.tag.field)}", f"tag={literals.value(model.tag.value)}"]
    if model.closed:
        options.append("forbid_unknown_fields=True")
    return tuple(options)


def class_imports(imports: Imports) -> None:
    imports.add("dataclasses", "dataclass")


def prelude(module: ir.Module, imports: Imports) -> str | None:
    """The converter and ``convert``/``to_builtins``, in a module that declares anything; with its part
    for formatted strings where a type has a format or names another input's class (that class's
    types may)."""
    if not module.declarations:
        return None
    formats = any(isinstance(t, ir.Scalar) and t.format in style.formats or isinstance(t, ir.Ref) and t.module
                  for t in all_types(module))
    modules, text = _prelude(formats)
    for name in modules:
        imports.add_module(name)
    return text


def converters() -> tuple[str, ...]:
    """Every prelude ``prelude`` writes."""
    return _prelude(False)[1], _prelude(True)[1]


def _prelude(formats: bool) -> tuple[list[str], str]:
    """The modules the converter imports, and its text; ``formats``: with its part for formatted strings."""
    parts = [converter("dataclass_runtime.py"), converter("dataclass_api.py"),
             *([converter("dataclass_formats.py")] if formats else [])]
    return sorted({m for modules, _ in parts for m in modules}), "\n\n\n".join(text for _, text in parts)


def reads_format(value: object, fmt: ir.Format) -> bool | None:
    """Whether ``value`` is read as a string of format ``fmt`` by the converter, and so by msgspec
    (tests/test_dataclass_convert.py holds the two together); ``None`` where the variants have no
    Python type for ``fmt`` (its value is the plain JSON type)."""
    if fmt not in style.formats:
        return None
    from . import dataclass_formats  # noqa: F401  (fills the converter's readers of formatted strings)
    from .dataclass_runtime import _FORMATS, _Fail

    expression = style.formats[fmt][1]  # ``datetime.date``, ``bytes``: the annotation the variant writes
    (read, *_), = (entry for hint, entry in _FORMATS.items()
                   if expression in (hint.__name__, f"{hint.__module__}.{hint.__qualname__}"))
    try:
        read(value)
    except _Fail:
        return False
    return True


@cache
def converter(file: str) -> tuple[tuple[str, ...], str]:
    """The modules a part of the converter imports, and its text (the file's after its marker)."""
    source = (Path(__file__).parent / file).read_text(encoding="utf-8")
    head, _, text = source.partition("\n# --- the converter ---\n")
    modules = tuple(line.split()[1] for line in head.splitlines() if line.startswith("import "))
    return modules, text.strip("\n")
