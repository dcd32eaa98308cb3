"""IR types as Python type expressions, recording the imports they need."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields

from .. import ir
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


def annotation(t: ir.Type, imports: Imports, style: TypeStyle) -> str:
    def spell(t: ir.Type) -> str:
        match t:
            case ir.Scalar(kind, fmt):
                if fmt is not None and fmt in style.formats:
                    module, expression = style.formats[fmt]
                    if module:
                        imports.add_module(module)
                    return expression
                return kind
            case ir.AnyType():
                return imports.add("typing", "Any")
            case ir.Null():
                return "None"
            case ir.Ref(name, None):
                return name
            case ir.Ref(name, str() as module):
                return f"{imports.add_sibling(module, style.module)}.{name}"
            case ir.Array(item):
                return f"list[{spell(item)}]"
            case ir.Map(value):
                return f"dict[str, {spell(value)}]"
            case ir.Tuple(items):
                return "tuple[" + (", ".join(map(spell, items)) or "()") + "]"
            case ir.Constrained(inner, constraints):
                meta = meta_arguments(constraints)
                if not style.meta or not meta or not takes_meta(inner, style):
                    return spell(inner)
                annotated = imports.add("typing", "Annotated")
                return f"{annotated}[{spell(inner)}, {imports.add('msgspec', 'Meta')}({meta})]"
            case ir.Union(members):
                return " | ".join(map(spell, merged_literals(members)))
            case ir.Literal(values):
                return imports.add("typing", "Literal") + "[" + ", ".join(map(literals.value, values)) + "]"
        raise AssertionError(f"unknown IR type {t!r}")

    return spell(t)


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


def meta_arguments(constraints: ir.Constraints) -> str:
    """``msgspec.Meta`` keywords for what msgspec enforces exactly (see ``unenforced``)."""
    parts = []
    for f in fields(constraints):
        value = getattr(constraints, f.name)
        if value is not None and f.name != "unique_items" and not (f.name == "multiple_of" and _fractional(value)):
            parts.append(f"{f.name}={literals.value(value)}")
    return ", ".join(parts)


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
