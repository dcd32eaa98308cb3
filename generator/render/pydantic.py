"""pydantic v2 ``BaseModel``s (opt-in: the models need ``pydantic>=2.11``); docs/semantics.md says what
each schema fact becomes.

- A key no attribute can be named after keeps its wire name as ``validation_alias`` and
  ``serialization_alias`` (type checkers then take the attribute's name in ``__init__``), and its class
  says ``validate_by_name=True, serialize_by_alias=True``: either name is read, the key is written.
- A key that may be absent but not null is ``Omittable[T] = None`` (``T | None``, null refused: an alias
  the module's prelude defines); absent, null and a default stay apart in ``model_fields_set``, so
  ``model_dump(mode="json", exclude_unset=True)`` writes back only the keys that were there. Null is
  refused after ``T | None`` has read the value (an ``AfterValidator``): a validator before it would hand
  ``T`` the parsed value in Python mode, where a union reads otherwise than from JSON (a ``date`` string
  of ``datetime | date`` as a ``datetime``).
- A closed object is ``extra="forbid"``, an open one ``extra="allow"`` (other keys kept in
  ``model_extra``, as the official SDKs keep them).
- A union of models told apart by a key is ``Annotated[A | B, Field(discriminator=...)]``; any other
  union is read in pydantic's smart mode. A tag key the schema does not require defaults to the class's
  own tag (``kind: Literal["circle"] = "circle"``), as msgspec reads a tagged class on its own; in the
  union it must still be there.
- A field's own limits are ``Field`` keywords (``Field(ge=..., pattern=re.compile(...))``), limits inside
  its type ``Annotated[T, Field(...)]``; a description is the class's docstring or the field's
  ``Field(description=...)``; what is not enforced is said in the field's docstring.
- Formats have their Python type where pydantic reads the format as a type of its own; ``base64``
  stays a string (pydantic's ``bytes`` reads UTF-8, its ``Base64Bytes`` accepts any text).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from .. import ir
from ..ir.values import fits
from . import literals
from .annotations import RICH_FORMATS, TypeStyle, compiled, meta_keywords, takes_meta
from .capabilities import Capabilities, every_key, every_union, schema_tag
from .dataclass import reads_format
from .imports import Imports
from .notes import constraints_note
from .pydantic_names import attributes, discriminator, own_tag
from .view import INDENT, Context, FieldView, doc, with_field_call

name = "pydantic"
template = "pydantic.py.jinja"
base = "BaseModel"
lazy_annotations = True
style = TypeStyle(formats={k: v for k, v in RICH_FORMATS.items() if k != "base64"}, meta=True,
                  module="pydantic_models", limits=("pydantic", "Field"), compiled_patterns=True,
                  discriminator=discriminator)
enum_classes = True
capabilities = Capabilities(style, every_union, schema_tag, every_key, reads_format)
OMITTABLE = "Omittable"


def prepare(t: ir.Type, declarations: Mapping[str, ir.Declaration], enums: Collection[str]) -> ir.Type:
    return t


def functional(model: ir.Model) -> bool:
    return False


def omitted(model: ir.Model, field: ir.Field) -> bool:
    return False


def attribute(model: ir.Model, field: ir.Field) -> str:
    return attributes(model)[field.wire_name]


def field(f: ir.Field, model: ir.Model, ctx: Context) -> FieldView:
    keywords: list[tuple[str, str]] = []
    t, limits = _limits(f.type, ctx.imports)
    if f.required:
        expression = ctx.annotate(t)
    elif (tag := own_tag(model, f)) is not None:
        expression = ctx.annotate(t)
        keywords.append(ctx.default(tag, f.type))
    elif _omittable(model, f, ctx.declarations):
        expression = ctx.annotate(t, lambda text: f"{OMITTABLE}[{text}]")
        keywords.append(("default", "None"))
    elif f.default is None or f.default.value is None:
        expression = ctx.annotate(ir.union(t, ir.Null()))
        keywords.append(("default", "None"))
    else:
        expression = ctx.annotate(t)
        keywords.append(ctx.default(f.default.value, f.type))
    attribute_name = attributes(model)[f.wire_name]
    if attribute_name != f.wire_name:
        wire = literals.string(f.wire_name)
        keywords += [("validation_alias", wire), ("serialization_alias", wire)]
    keywords += limits
    if f.doc:
        keywords.append(("description", literals.text(f.doc)))
    if any(k != "default" for k, _ in keywords):
        ctx.imports.add("pydantic", "Field")
    note = constraints_note(f.type, style, enforced=True)  # the description is the Field's
    return FieldView(attribute_name, expression, with_field_call("Field", keywords), doc(note, INDENT))


def _omittable(model: ir.Model, f: ir.Field, declarations: Mapping[str, ir.Declaration]) -> bool:
    """Whether ``f`` is ``Omittable``: it may be absent, has no default, and its type holds no null."""
    return not f.required and f.default is None and own_tag(model, f) is None and not fits(None, f.type, declarations)


def _limits(t: ir.Type, imports: Imports) -> tuple[ir.Type, list[tuple[str, str]]]:
    """A field's own limits as ``Field`` keywords, and its type without them (limits inside it stay
    ``Annotated``)."""
    if isinstance(t, ir.Constrained) and takes_meta(t.type, style):
        limits = meta_keywords(t.constraints, lambda pattern: compiled(pattern, imports))
        if limits:
            return t.type, limits
    return t, []


def alias_note(alias: ir.Alias, ctx: Context) -> str | None:
    return constraints_note(alias.type, style, enforced=True)


def class_options(model: ir.Model, ctx: Context) -> tuple[str, ...]:
    options = []
    if any(attributes(model)[f.wire_name] != f.wire_name for f in model.fields):
        options += ["validate_by_name=True", "serialize_by_alias=True"]
    options.append('extra="forbid"' if model.closed else 'extra="allow"')
    return tuple(options)


def class_imports(imports: Imports) -> None:
    imports.add("pydantic", "BaseModel")


def prelude(module: ir.Module, imports: Imports) -> str | None:
    """``Omittable``, where a field may be absent but not null."""
    declarations = {d.name: d for d in module.declarations}
    if not any(_omittable(d, f, declarations) for d in module.declarations if isinstance(d, ir.Model) for f in d.fields):
        return None
    type_var, alias = imports.add("typing", "TypeVar"), imports.add("typing", "TypeAlias")
    annotated, validator = imports.add("typing", "Annotated"), imports.add("pydantic", "AfterValidator")
    return (f'_T = {type_var}("_T")\n\n\n'
            "def _present(value: _T) -> _T:\n"
            "    if value is None:\n"
            '        raise ValueError("null is not allowed here: the key may only be left out")\n'
            "    return value\n\n\n"
            f"{OMITTABLE}: {alias} = {annotated}[_T | None, {validator}(_present)]\n"
            '"""A key that may be absent (``None`` then: see ``model_fields_set``) but not null."""')

