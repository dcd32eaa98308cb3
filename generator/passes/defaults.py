"""Defaults: a default that does not fit its field's type, or whose value would never be finished
being built, is reported and dropped, never emitted."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .. import ir
from ..diagnostics import Reporter
from ..frozen import replace
from ..ir.values import fits
from .where import location


def check_defaults(module: ir.Module, reporter: Reporter) -> ir.Module:
    declarations = {d.name: d for d in module.declarations}
    return ir.Module(tuple(checked(d, declarations, reporter) for d in module.declarations), module.root)


def checked(d: ir.Declaration, declarations: Mapping[str, ir.Declaration], reporter: Reporter) -> ir.Declaration:
    """``d`` without the defaults that do not fit their field's type (``declarations``: the module's, by name)."""
    if not isinstance(d, ir.Model):
        return d
    fields = []
    for f in d.fields:
        if f.default is not None and not fits(f.default.value, f.type, declarations):
            reporter.warn(location(d, "properties", f.wire_name, "default"),
                          f"default {_short(f.default.value)} does not fit the type of {f.wire_name!r}; it is left out",
                          kind="dropped default")
            f = replace(f, default=None)
        fields.append(f)
    if fields != list(d.fields):
        d = replace(d, fields=tuple(fields))  # (a declaration left as it is stays the same object)
    return d


def break_endless_defaults(module: ir.Module, reporter: Reporter) -> ir.Module:
    """A model's default is built with the defaults of the fields it leaves out (``Node()``). Where one
    of those is again the same field's default (``child`` of ``Node`` defaults to ``{}``, a ``Node``
    whose ``child`` is absent), building it never ends: the default that closes the circle is dropped.
    (Runs after ``read_required_defaults``, which can make a field take its default.)"""
    declarations = {d.name: d for d in module.declarations}
    for d in module.declarations:
        declarations[d.name] = finished(d, declarations, reporter)
    return ir.Module(tuple(declarations[d.name] for d in module.declarations), module.root)


def finished(d: ir.Declaration, declarations: dict[str, ir.Declaration], reporter: Reporter) -> ir.Declaration:
    """``d`` without the defaults whose building never ends, built with ``declarations`` as they are now:
    each declaration is put back in them as it changes (the pass goes in the module's order)."""
    if not isinstance(d, ir.Model) or all(f.default is None for f in d.fields):
        return d
    for f in d.fields:
        if f.default is not None and (circle := _endless(f.default.value, f.type, declarations, ((d.name, f),))):
            reporter.warn(location(d, "properties", f.wire_name, "default"),
                          f"default {_short(f.default.value)} of {f.wire_name!r} is never finished: "
                          f"built with the defaults it leaves out, it needs itself ({circle}); it is left out",
                          kind="dropped default")
            d = replace(d, fields=tuple(replace(g, default=None) if g is f else g for g in d.fields))
            declarations[d.name] = d
    return d


Building = tuple[tuple[str, ir.Field], ...]
"""The fields whose defaults are being built, outermost first."""


def _endless(value: Any, t: ir.Type, declarations: Mapping[str, ir.Declaration], building: Building,
             aliases: frozenset[tuple[str, int]] = frozenset()) -> str | None:
    """Where building ``value`` as ``t`` comes back to a default being built, the circle
    (``Node.child -> Node.child``); else ``None``. Every member ``value`` fits is followed. ``aliases``:
    the aliases followed for each value (by ``id``), as in ``ir.values.fits``."""
    def again(v: Any, inner: ir.Type) -> str | None:
        return _endless(v, inner, declarations, building, aliases)

    match t:
        case ir.Array(item) if isinstance(value, list):
            return _first(again(v, item) for v in value)
        case ir.Map(item) if isinstance(value, dict):
            return _first(again(v, item) for v in value.values())
        case ir.Tuple(items) if isinstance(value, list):
            return _first(again(v, i) for v, i in zip(value, items))
        case ir.Union(members):
            return _first(again(value, m) for m in members if fits(value, m, declarations))
        case ir.Constrained(inner, _):
            return again(value, inner)
        case ir.Ref(name, None) if isinstance(target := declarations.get(name), ir.Alias):
            key = (name, id(value))
            return None if key in aliases else _endless(value, target.type, declarations, building, aliases | {key})
        case ir.Ref(name, None) if isinstance(target := declarations.get(name), ir.Model) and isinstance(value, dict):
            for g in target.fields:
                if g.wire_name in value:
                    found = again(value[g.wire_name], g.type)
                elif g.default is None:
                    continue
                elif (name, g) in building:
                    return " -> ".join(f"{n}.{h.wire_name}" for n, h in (*building, (name, g)))
                else:
                    found = _endless(g.default.value, g.type, declarations, (*building, (name, g)))
                if found:
                    return found
    return None


def _first(circles: Iterable[str | None]) -> str | None:
    return next((c for c in circles if c), None)


def _short(value: object, limit: int = 60) -> str:
    """The default as the schema wrote it, cut so that the warning stays one short line."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."
