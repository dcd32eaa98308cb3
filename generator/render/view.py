"""The flat view model the templates lay out, built from the IR by one variant's rules.

Everything here is already Python source: names are identifiers, annotations and defaults are
expressions, docs are escaped docstring literals. Templates only place them.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from typing import Literal, Protocol

from .. import ir
from ..frozen import Frozen, replace
from ..ir.walk import map_types, refs
from ..names import enum_member
from . import literals
from .annotations import TypeStyle, annotation
from .capabilities import Capabilities
from .defaults import Builder
from .imports import Imports
from .options import RenderOptions

INDENT = "    "


class FieldView(Frozen, frozen=True):
    name: str
    annotation: str
    default: str | None
    doc: str | None


class ClassView(Frozen, frozen=True):
    name: str
    base: str
    """The variant's base class (``Struct``, ``TypedDict``, the dataclass converter's ``SchemagenModel``)."""
    doc: str | None
    fields: tuple[FieldView, ...]
    options: tuple[str, ...]
    """Extra class keywords (``tag="x"``), already Python source."""
    functional: bool = False
    """Declared by a call (``X = TypedDict("X", {...})``): field names are then key literals."""
    kind: Literal["class"] = "class"


class AliasView(Frozen, frozen=True):
    name: str
    expression: str
    doc: str | None
    annotation: str | None = None
    """``TypeAlias`` where a type checker would read the assignment as a variable (``X = None``)."""
    kind: Literal["alias"] = "alias"


class EnumView(Frozen, frozen=True):
    name: str
    base: str
    members: tuple[tuple[str, str], ...]
    """(member name, value literal)."""
    doc: str | None
    kind: Literal["enum"] = "enum"


class ModuleView(Frozen, frozen=True):
    header: str
    imports: tuple[str, ...]
    declarations: tuple[ClassView | AliasView | EnumView, ...]
    prelude: str | None = None
    """Code the variant writes once per module, after the imports (the dataclass variant's converter)."""


class Context(Frozen, frozen=True):
    """What a variant's rules need while one module is built."""

    imports: Imports
    variant: Variant
    declarations: Mapping[str, ir.Declaration]
    undefined: set[str]
    """Declarations not yet defined at this point of the module."""
    enums: Mapping[str, Mapping[str | int, str]]
    """Aliases written as enum classes: value → member name."""

    def annotate(self, t: ir.Type, wrap: Callable[[str], str] = lambda text: text, *, runtime: bool = False) -> str:
        """The annotation for ``t`` (inside ``wrap``); quoted where it names what is not defined yet.

        ``runtime``: the expression is evaluated where it stands, even in a lazily annotated module.
        """
        t = self.variant.prepare(_null_aliases_as_none(t, self.declarations), self.declarations, self.enums.keys())
        text = annotation(t, self.imports, self.variant.style, self.declarations)
        lazy = self.variant.lazy_annotations and not runtime
        if lazy or not self.undefined.intersection(refs(t)):
            return wrap(text)
        return wrap(literals.string(text))

    def default(self, value: ir.JSON, t: ir.Type) -> tuple[str, str]:
        """The ``default``/``default_factory`` keyword for ``value``, a default of type ``t`` (as the variant
        writes it: a union msgspec widens to ``dict[str, Any]`` takes the default's plain JSON)."""
        t = self.variant.prepare(t, self.declarations, self.enums.keys())
        builder = Builder(self.declarations, self.variant.style, self.imports, self.variant.omitted, self.enums,
                          self.variant.attribute)
        keyword, expression = builder.keyword(value, t)
        container = builder.container(value, t) if expression in ("list", "dict") else None
        if isinstance(container, ir.Array):  # typed, so that a type checker knows the item type
            expression = f"list[{self.annotate(container.item, runtime=True)}]"
        elif isinstance(container, ir.Map):
            expression = f"dict[str, {self.annotate(container.value, runtime=True)}]"
        return keyword, expression


class Variant(Protocol):
    """The rules of one output variant: how a type, a field and a class are said."""

    name: str
    template: str
    base: str
    """What its classes derive from."""
    lazy_annotations: bool
    """``from __future__ import annotations``: class bodies may name what is defined later."""
    style: TypeStyle
    capabilities: Capabilities
    """What its models can say of a JSON value (read by ``compare``)."""
    enum_classes: bool
    """May write enum definitions as ``StrEnum``/``IntEnum`` classes (``RenderOptions.enums``)."""

    def prepare(self, t: ir.Type, declarations: Mapping[str, ir.Declaration], enums: Collection[str]) -> ir.Type:
        """``t`` as this variant writes it; ``enums``: the aliases written as enum classes."""

    def omitted(self, model: ir.Model, field: ir.Field) -> bool: ...

    def attribute(self, model: ir.Model, field: ir.Field) -> str:
        """The name of ``field`` in ``model``'s class (its keyword in the constructor)."""

    def field(self, field: ir.Field, model: ir.Model, ctx: Context) -> FieldView | None: ...

    def alias_note(self, alias: ir.Alias, ctx: Context) -> str | None:
        """What the alias's docstring says after the schema's description."""

    def class_options(self, model: ir.Model, ctx: Context) -> tuple[str, ...]: ...

    def class_imports(self, imports: Imports) -> None: ...

    def prelude(self, module: ir.Module, imports: Imports) -> str | None:
        """The module's prelude (finished source), recording what it imports; ``None`` for none."""

    def functional(self, model: ir.Model) -> bool: ...


def build(module: ir.Module, variant: Variant, source: str, options: RenderOptions) -> ModuleView:
    ctx = context(module, variant, options)
    views = []
    for d in module.declarations:
        views.append(declaration(d, ctx))
        ctx.undefined.discard(d.name)
    return head(module, variant, source, ctx.imports, tuple(views), command=options.command)


def head(module: ir.Module, variant: Variant, source: str, imports: Imports,
         views: tuple[ClassView | AliasView | EnumView, ...] = (), *, command: str) -> ModuleView:
    """The module around ``views``, once they have recorded what they import in ``imports``: the
    prelude first, as it records its own. ``command``: what the header says to run."""
    prelude = variant.prelude(module, imports)
    return ModuleView(header(source, command), module_imports(imports, variant), views, prelude)


def context(module: ir.Module, variant: Variant, options: RenderOptions) -> Context:
    """The context of the first declaration of ``module``: every declaration still undefined."""
    declarations = {d.name: d for d in module.declarations}
    enums = enum_members(module.declarations) if variant.enum_classes and options.enums == "class" else {}
    return Context(Imports(), variant, declarations, set(declarations), enums)


def declaration(d: ir.Declaration, ctx: Context) -> ClassView | AliasView | EnumView:
    """The view of one declaration; what it imports goes to ``ctx.imports``."""
    variant = ctx.variant
    if isinstance(d, ir.Alias) and d.name in ctx.enums:
        return _enum_view(d, ctx.enums[d.name], ctx.imports)
    if isinstance(d, ir.Alias):
        # `X = None` assigns a value, not a type: only an explicit `TypeAlias` makes it an alias
        explicit = ctx.imports.add("typing", "TypeAlias") if isinstance(d.type, ir.Null) else None
        return AliasView(d.name, ctx.annotate(d.type), doc(joined(d.doc, variant.alias_note(d, ctx)), ""), explicit)
    variant.class_imports(ctx.imports)
    kept = [f for f in d.fields if not variant.omitted(d, f)]
    fields = tuple(variant.field(f, d, ctx) for f in kept)
    if variant.functional(d):  # (asked once a class: it reads every field) each key its wire name, a literal
        fields = tuple(v and replace(v, name=literals.string(f.wire_name)) for v, f in zip(fields, kept))
        return ClassView(d.name, variant.base, doc(_keys_doc(d), ""), fields, (), functional=True)  # type: ignore[arg-type]
    return ClassView(d.name, variant.base, doc(d.doc, INDENT), fields, variant.class_options(d, ctx))  # type: ignore[arg-type]


def module_imports(imports: Imports, variant: Variant) -> tuple[str, ...]:
    return tuple(imports.lines(future=variant.lazy_annotations))


def _null_aliases_as_none(t: ir.Type, declarations: Mapping[str, ir.Declaration]) -> ir.Type:
    """An alias of null (``X: TypeAlias = None``) is written ``None`` inside a union: ``X | None`` is
    ``None | None`` when msgspec or ``get_type_hints`` evaluates it, which Python refuses."""
    def change(node: ir.Type) -> ir.Type:
        if not isinstance(node, ir.Union):
            return node
        members = [ir.Null() if isinstance(m, ir.Ref) and m.module is None
                   and isinstance(declarations.get(m.name), ir.Alias)
                   and declarations[m.name].type == ir.Null() else m for m in node.members]  # type: ignore[union-attr]
        if members == list(node.members):
            return node
        merged = ir.union(*members)  # the null once, last; the tags stay
        return replace(node, members=merged.members) if isinstance(merged, ir.Union) else merged

    return map_types(t, change)


def enum_members(declarations: Iterable[ir.Declaration]) -> dict[str, dict[str | int, str]]:
    """Aliases of a ``Literal`` of only strings or only integers, with a member name per value (each
    alias's names its own)."""
    found: dict[str, dict[str | int, str]] = {}
    for d in declarations:
        if isinstance(d, ir.Alias) and isinstance(d.type, ir.Literal):
            kinds = {type(v) for v in d.type.values}
            if kinds == {str} or kinds == {int}:
                taken: set[str] = set()
                found[d.name] = {v: enum_member(v, taken) for v in d.type.values if isinstance(v, (str, int))}
    return found


def _enum_view(alias: ir.Alias, members: Mapping[str | int, str], imports: Imports) -> EnumView:
    base = imports.add("enum", "StrEnum" if all(isinstance(v, str) for v in members) else "IntEnum")
    return EnumView(alias.name, base, tuple((name, literals.value(v)) for v, name in members.items()),
                    doc(alias.doc, INDENT))


def _keys_doc(model: ir.Model) -> str | None:
    """A functional declaration has no place for field docs: they join the class doc."""
    keys = [f"- `{f.wire_name}`: {f.doc}" for f in model.fields if f.doc]
    return joined(model.doc, "\n".join(keys))


def header(source: str, command: str) -> str:
    label = "".join(c if c.isprintable() else repr(c)[1:-1] for c in source)
    return f"# Generated by schemagen from {label}. Do not edit; run `{command}`."


def doc(text: str | None, indent: str) -> str | None:
    return literals.docstring(text, indent) if text else None


def with_field_call(call: str, keywords: list[tuple[str, str]]) -> str | None:
    """A plain default where it is one, else ``field(...)`` with the keywords; ``None`` for none."""
    if not keywords:
        return None
    if len(keywords) == 1 and keywords[0][0] == "default":
        return keywords[0][1]
    return f"{call}(" + ", ".join(f"{k}={v}" for k, v in keywords) + ")"


def joined(*paragraphs: str | None) -> str | None:
    return "\n\n".join(p for p in paragraphs if p) or None


def field_doc(field: ir.Field, *notes: str | None) -> str | None:
    return doc(joined(field.doc, *notes), INDENT)
