"""IR types as Python type expressions, recording the imports they need."""

from __future__ import annotations

from .. import ir
from . import literals
from .imports import Imports


def annotation(t: ir.Type, imports: Imports) -> str:
    match t:
        case ir.Scalar(kind):
            return kind
        case ir.AnyType():
            return imports.add("typing", "Any")
        case ir.Null():
            return "None"
        case ir.Ref(name):
            return name
        case ir.Array(item):
            return f"list[{annotation(item, imports)}]"
        case ir.Map(value):
            return f"dict[str, {annotation(value, imports)}]"
        case ir.Union(members):
            return " | ".join(annotation(m, imports) for m in members)
        case ir.Literal(values):
            return imports.add("typing", "Literal") + "[" + ", ".join(map(literals.value, values)) + "]"
    raise AssertionError(f"unknown IR type {t!r}")
