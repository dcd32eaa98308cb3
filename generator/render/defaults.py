"""Python expressions that build a field's default: literals, collections, model instances."""

from __future__ import annotations

import base64
from collections.abc import Callable, Mapping
from typing import Any

from .. import ir
from ..ir.values import fits
from . import literals
from .annotations import TypeStyle
from .imports import Imports


class Builder:
    """Builds default expressions for one module of one variant."""

    def __init__(self, declarations: Mapping[str, ir.Declaration], style: TypeStyle, imports: Imports,
                 omitted: Callable[[ir.Model, ir.Field], bool],
                 enums: Mapping[str, Mapping[str | int, str]],
                 attribute: Callable[[ir.Model, ir.Field], str] = lambda model, field: field.name) -> None:
        self.declarations = declarations
        self.style = style
        self.imports = imports
        self.omitted = omitted
        """Fields the variant's class does not have (they are not passed to its constructor)."""
        self.enums = enums
        """Aliases written as enum classes: a default is then a member (``FinishReason.STOP``)."""
        self.attribute = attribute
        """A field's name in its class (its keyword in the constructor)."""

    def keyword(self, value: Any, t: ir.Type) -> tuple[str, str]:
        """``("default", expr)``, or ``("default_factory", expr)`` for a mutable value."""
        expression = self.build(value, t)
        if expression in ("[]", "{}"):
            return "default_factory", "list" if expression == "[]" else "dict"
        if isinstance(value, (list, dict)):
            return "default_factory", f"lambda: {expression}"
        return "default", expression

    def container(self, value: Any, t: ir.Type) -> ir.Type:
        """The list or dict type (through unions, constraints and aliases) that holds ``value``."""
        match t:
            case ir.Constrained(inner):
                return self.container(value, inner)
            case ir.Union(members):
                return self.container(value, next(m for m in members if fits(value, m, self.declarations)))
            case ir.Ref(name) if isinstance(self.declarations.get(name), ir.Alias):
                return self.container(value, self.declarations[name].type)  # type: ignore[union-attr]
        return t

    def build(self, value: Any, t: ir.Type) -> str:
        match t:
            case ir.Constrained(inner):
                return self.build(value, inner)
            case ir.Union(members):
                chosen = next(m for m in members if fits(value, m, self.declarations))
                return self.build(value, chosen)
            case ir.Array(item):
                return "[" + ", ".join(self.build(v, item) for v in value) + "]"
            case ir.Tuple(items):
                parts = [self.build(v, i) for v, i in zip(value, items)]
                return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"
            case ir.Map(item):
                return "{" + ", ".join(f"{literals.string(k)}: {self.build(v, item)}" for k, v in value.items()) + "}"
            case ir.Scalar(_, fmt) if fmt is not None and fmt in self.style.formats:
                return self.formatted(value, fmt)
            case ir.Ref(name) if name in self.enums:
                return f"{name}.{self.enums[name][value]}"
            case ir.Ref(name):
                target = self.declarations[name]
                if isinstance(target, ir.Alias):
                    return self.build(value, target.type)
                return self.instance(value, target)
        return literals.value(value)

    def formatted(self, value: Any, fmt: ir.Format) -> str:
        if fmt == "base64":
            return repr(base64.b64decode(value))
        module, expression = self.style.formats[fmt]
        if module:
            self.imports.add_module(module)
        constructor = {"date-time": ".fromisoformat", "date": ".fromisoformat", "time": ".fromisoformat"}.get(fmt, "")
        return f"{expression}{constructor}({literals.value(str(value))})"

    def instance(self, value: dict[str, Any], model: ir.Model) -> str:
        arguments = []
        for f in model.fields:
            if f.wire_name not in value or self.omitted(model, f):
                continue
            arguments.append(f"{self.attribute(model, f)}={self.build(value[f.wire_name], f.type)}")
        return f"{model.name}(" + ", ".join(arguments) + ")"
