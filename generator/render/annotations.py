"""IR types as Python type expressions, recording the imports they need."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from .. import ir
from ..frozen import Frozen, fields
from ..ir.walk import map_types
from . import literals
from .imports import Imports

#: Python types for string and number formats (module to import, expression).
RICH_FORMATS: Mapping[ir.Format, tuple[str | None, str]] = {
    "date-time": ("datetime", "datetime.datetime"), "date": ("datetime", "datetime.date"),
    "time": ("datetime", "datetime.time"), "duration": ("datetime", "datetime.timedelta"),
    "uuid": ("uuid", "uuid.UUID"), "decimal": ("decimal", "decimal.Decimal"), "base64": (None, "bytes"),
}


@dataclass(frozen=True, slots=True)
class TypeStyle:
    """How one variant spells types."""

    formats: Mapping[ir.Format, tuple[str | None, str]]
    """Formats with a Python type of their own; the rest stay their JSON type."""
    meta: bool
    """Constraints are enforced as ``Annotated[T, msgspec.Meta(...)]`` (else only documented)."""
    module: str
    """This variant's module name in each output package (another input's types come from there)."""
    limits: tuple[str, str] = ("msgspec", "Meta")
    """Where ``meta``: the call that carries the limits in ``Annotated`` (module, name)."""
    compiled_patterns: bool = False
    """A pattern is passed compiled (``re.compile(...)``): pydantic then reads it with Python's ``re``, as
    msgspec does (its own engine refuses look-arounds and back-references)."""
    discriminator: Callable[[ir.Union, Mapping[str, ir.Declaration]], str | None] | None = \
        field(default=None, compare=False)
    """Where a union of models is written ``Annotated[A | B, Field(discriminator=...)]``: the attribute
    that tells its members apart (``None``: a plain union)."""


class Leaves(Protocol):
    """How one printer spells what ``spell`` leaves to it."""

    def scalar(self, t: ir.Scalar) -> str: ...

    def anything(self) -> str: ...

    def ref(self, t: ir.Ref) -> str: ...

    def literal(self, values: tuple[ir.LiteralValue, ...]) -> str: ...

    def constrained(self, t: ir.Constrained, inner: str) -> str:
        """``t``, whose inner type is spelt ``inner``."""

    def union(self, t: ir.Union, members: list[str]) -> str:
        """``t``, whose members (their literals merged) are spelt ``members``."""


def spell(t: ir.Type, leaves: Leaves) -> str:
    """``t`` as a Python type expression: the one printer of IR types, for annotations (``annotation``)
    and for messages (``spelled``), which differ only in their ``leaves``."""
    match t:
        case ir.Scalar():
            return leaves.scalar(t)
        case ir.AnyType():
            return leaves.anything()
        case ir.Null():
            return "None"
        case ir.Ref():
            return leaves.ref(t)
        case ir.Array(item):
            return f"list[{spell(item, leaves)}]"
        case ir.Map(value):
            return f"dict[str, {spell(value, leaves)}]"
        case ir.Tuple(items):
            return "tuple[" + (", ".join(spell(i, leaves) for i in items) or "()") + "]"
        case ir.Constrained(inner):
            return leaves.constrained(t, spell(inner, leaves))
        case ir.Union(members):
            return leaves.union(t, [spell(m, leaves) for m in merged_literals(members)])
        case ir.Literal(values):
            return leaves.literal(values)
    raise AssertionError(f"unknown IR type {t!r}")


def annotation(t: ir.Type, imports: Imports, style: TypeStyle,
               declarations: Mapping[str, ir.Declaration] | None = None) -> str:
    """``t`` as a variant's annotation, recording in ``imports`` what it needs; with ``declarations``
    (what ``t`` names), a union the style discriminates is written so."""
    return spell(t, _Annotation(imports, style, declarations))


def spelled(t: ir.Type) -> str:
    """A short Python-like spelling of ``t``, for messages: a format said beside its JSON type
    (``str (date-time)``), another input's class as ``package.Name``, limits left out."""
    return spell(t, _Message())


class _Annotation(Frozen, frozen=True):
    imports: Imports
    style: TypeStyle
    declarations: Mapping[str, ir.Declaration] | None = None

    def scalar(self, t: ir.Scalar) -> str:
        if t.format is not None and t.format in self.style.formats:
            module, expression = self.style.formats[t.format]
            if module:
                self.imports.add_module(module)
            return expression
        return t.kind

    def anything(self) -> str:
        return self.imports.add("typing", "Any")

    def ref(self, t: ir.Ref) -> str:
        return t.name if t.module is None else f"{self.imports.add_sibling(t.module, self.style.module)}.{t.name}"

    def literal(self, values: tuple[ir.LiteralValue, ...]) -> str:
        return self.imports.add("typing", "Literal") + "[" + ", ".join(map(literals.value, values)) + "]"

    def constrained(self, t: ir.Constrained, inner: str) -> str:
        module, call = self.style.limits
        meta = meta_arguments(t.constraints, self._compiled if self.style.compiled_patterns else literals.string)
        if not self.style.meta or not meta or not takes_meta(t.type, self.style):
            return inner
        return f"{self.imports.add('typing', 'Annotated')}[{inner}, {self.imports.add(module, call)}({meta})]"

    def _compiled(self, pattern: str) -> str:
        return compiled(pattern, self.imports)

    def union(self, t: ir.Union, members: list[str]) -> str:
        found = self.style.discriminator and self.declarations is not None and self.style.discriminator(t, self.declarations)
        if not found:
            return " | ".join(members)
        # (members of models only, besides null: no literal was merged, each text is its member's)
        null = ir.Null() in t.members
        tagged = " | ".join(text for m, text in zip(t.members, members) if m != ir.Null())
        field_call = self.imports.add("pydantic", "Field")
        written = f"{self.imports.add('typing', 'Annotated')}[{tagged}, {field_call}(discriminator={literals.string(found)})]"
        return written + (" | None" if null else "")


class _Message:
    def scalar(self, t: ir.Scalar) -> str:
        return t.kind if t.format is None else f"{t.kind} ({t.format})"

    def anything(self) -> str:
        return "Any"

    def ref(self, t: ir.Ref) -> str:
        return f"{t.module}.{t.name}" if t.module else t.name

    def literal(self, values: tuple[ir.LiteralValue, ...]) -> str:
        return f"Literal[{', '.join(map(repr, values))}]"

    def constrained(self, t: ir.Constrained, inner: str) -> str:
        return inner

    def union(self, t: ir.Union, members: list[str]) -> str:
        return " | ".join(members)


def merged_literals(members: tuple[ir.Type, ...]) -> tuple[ir.Type, ...]:
    """The literal members of a union as one ``Literal[...]`` where the first of them stood:
    ``Literal["a", "b"] | None`` rather than ``Literal["a"] | Literal["b"] | None`` (the same type)."""
    literal_members = [m for m in members if isinstance(m, ir.Literal)]
    if len(literal_members) < 2:
        return members
    values: dict[tuple[type, ir.LiteralValue], ir.LiteralValue] = {}
    for m in literal_members:
        for v in m.values:
            values.setdefault((type(v), v), v)  # by type too: `1` and `True` are different literals
    first = members.index(literal_members[0])
    return tuple(ir.Literal(tuple(values.values())) if i == first else m for i, m in enumerate(members)
                 if i == first or not isinstance(m, ir.Literal))


def unconstrained(t: ir.Type) -> ir.Type:
    """``t`` without the constraints on it and inside it."""
    return map_types(t, lambda node: node.type if isinstance(node, ir.Constrained) else node)


def plain(t: ir.Type, style: TypeStyle) -> str:
    """``t`` as a docstring names it: spelled as in an annotation, without constraints, importing nothing."""
    return annotation(unconstrained(t), Imports(), style)


def takes_meta(inner: ir.Type, style: TypeStyle) -> bool:
    """Whether limits on ``inner`` are written as ``Meta`` (and checked): not on a string the style
    reads as a richer type (a date has no length), nor on what lowering never limits."""
    if isinstance(inner, ir.Scalar):
        return inner.format not in style.formats
    return isinstance(inner, (ir.Array, ir.Tuple, ir.Map))


def meta_arguments(constraints: ir.Constraints, pattern: Callable[[str], str] = literals.string) -> str:
    """``msgspec.Meta`` (or pydantic ``Field``) keywords for what msgspec enforces exactly (see
    ``unenforced``); ``pattern`` writes the pattern's value."""
    return ", ".join(f"{k}={v}" for k, v in meta_keywords(constraints, pattern))


def meta_keywords(constraints: ir.Constraints, pattern: Callable[[str], str] = literals.string) -> list[tuple[str, str]]:
    """``meta_arguments`` as (keyword, value source) pairs."""
    parts = []
    for f in fields(constraints):
        value = getattr(constraints, f.name)
        if value is not None and f.name != "unique_items" and not (f.name == "multiple_of" and _fractional(value)):
            parts.append((f.name, pattern(value) if f.name == "pattern" else literals.value(value)))
    return parts


def compiled(pattern: str, imports: Imports) -> str:
    """``pattern`` compiled (``compiled_patterns``)."""
    return f"{imports.add_module('re')}.compile({literals.string(pattern)})"


def unenforced(constraints: ir.Constraints) -> ir.Constraints | None:
    """What msgspec cannot check: unique items, and a fractional step (floating point gets
    ``19.99`` "not a multiple of 0.01" wrong)."""
    step = constraints.multiple_of if _fractional(constraints.multiple_of) else None
    if not constraints.unique_items and step is None:
        return None
    return ir.Constraints(multiple_of=step, unique_items=constraints.unique_items)


def _fractional(value: object) -> bool:
    return isinstance(value, float) and not value.is_integer()


def describe(constraints: ir.Constraints) -> str:
    """The constraints in words, for a docstring."""
    words = {"min_length": "min length", "max_length": "max length", "pattern": "pattern", "ge": ">=",
             "gt": ">", "le": "<=", "lt": "<", "multiple_of": "multiple of"}
    parts = [f"{words[f.name]} {getattr(constraints, f.name)!r}" for f in fields(constraints)
             if f.name in words and getattr(constraints, f.name) is not None]
    if constraints.unique_items:
        parts.append("unique items")
    return ", ".join(parts)
