"""Defaults: a default that does not fit its field's type is reported and dropped, never emitted."""

from __future__ import annotations

from dataclasses import replace

from .. import ir
from ..diagnostics import Reporter
from ..ir.values import fits
from .where import location


def check_defaults(module: ir.Module, reporter: Reporter) -> ir.Module:
    declarations = {d.name: d for d in module.declarations}
    out: list[ir.Declaration] = []
    for d in module.declarations:
        if isinstance(d, ir.Model):
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
        out.append(d)
    return ir.Module(tuple(out), module.root)


def _short(value: object, limit: int = 60) -> str:
    """The default as the schema wrote it, cut so that the warning stays one short line."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."
