"""Standard-library dataclasses: ``@dataclass(kw_only=True)``; absent and null are both held as ``None``.

Each class derives from ``SchemagenModel``, which the module imports, with ``convert``, ``to_builtins`` and
``DecodeError``, from the output package's ``_runtime.py`` (``runtime``: the converter, one per
package, so one ``DecodeError`` for all its inputs): ``from_dict``/``to_dict``. What a class's annotations cannot say is said where the
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
from ..names import RUNTIME_NAMES
from . import literals
from .annotations import RICH_FORMATS, TypeStyle
from .capabilities import Capabilities, every_key, every_union, schema_tag
from .imports import Imports
from .notes import constraints_note
from .view import Context, FieldView, field_doc, with_field_call

name = "dataclass"
template = "dataclass.py.jinja"
base = "SchemagenModel"  # the converter's (``prelude``)
RUNTIME = "_runtime"
"""The module of the output package that holds the converter (``runtime``), beside the inputs' packages."""
PARTS = ("dataclass_runtime.py", "dataclass_api.py", "dataclass_formats.py")
lazy_annotations = True
style = TypeStyle(formats=RICH_FORMATS, meta=False, module="dataclass_models")
enum_classes = True


def prepare(t: ir.Type, declarations: Mapping[str, ir.Declaration], enums: Collection[str]) -> ir.Type:
    return t


def functional(model: ir.Model) -> bool:
    return False


def attribute(model: ir.Model, field: ir.Field) -> str:
    return field.name


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
    """Keywords of ``SchemagenModel.__init_subclass__``, named as msgspec names them."""
    options = []
    if model.tag is not None:
        options += [f"tag_field={literals.string(model.tag.field)}", f"tag={literals.value(model.tag.value)}"]
    if model.closed:
        options.append("forbid_unknown_fields=True")
    return tuple(options)


def class_imports(imports: Imports) -> None:
    imports.add("dataclasses", "dataclass")


def prelude(module: ir.Module, imports: Imports) -> str | None:
    """No text: a module that declares anything imports the converter of its package (``runtime``)."""
    if module.declarations:
        # each public name said `as` itself: re-exported, for a type checker, with the module's classes
        names = ", ".join(n if n == base else f"{n} as {n}" for n in RUNTIME_NAMES)
        imports.add_local(RUNTIME, f"from ..{RUNTIME} import {names}")
    return None


def runtime(header: str) -> str:
    """The text of the output package's ``_runtime.py`` (after ``header``, its first line): the
    converter every dataclass module of the package imports, stdlib only, black's format."""
    parts = [converter(file) for file in PARTS]
    modules = sorted({m for imported, _ in parts for m in imported})
    head = [header, '"""The converter of this package\'s dataclass modules: ``from_dict``, ``to_dict``, ``convert``,',
            '``to_builtins`` and ``DecodeError``, as docs/semantics.md of schemagen says."""', "",
            "from __future__ import annotations", "", *(f"import {m}" for m in modules)]
    return "\n".join(head) + "\n\n\n" + "\n\n\n".join(text for _, text in parts) + "\n"


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


capabilities = Capabilities(style, every_union, schema_tag, every_key, reads_format)
