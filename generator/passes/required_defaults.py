"""Required with a default: a property the schema both requires and gives a default, read as the
input's ``required_defaults`` setting says.

A key that must be present never needs its default, so a schema that says both most often means
"optional, with this default" (a generator of the schema marks every field with a default required,
say). ``"required"`` reads what the schema says; ``"optional"`` reads every such property as not
required, taking its default when absent. With no setting, the schema is read as written and one
warning per input counts them and names the setting.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

from .. import ir
from ..diagnostics import Location, Reporter, few
from .where import location

Setting = Literal["required", "optional"]
SETTINGS: tuple[Setting, ...] = ("required", "optional")


def read_required_defaults(module: ir.Module, reporter: Reporter, setting: Setting | None = None) -> ir.Module:
    found: list[Location] = []
    out: list[ir.Declaration] = []
    for d in module.declarations:
        if isinstance(d, ir.Model) and any(f.required and f.default is not None for f in d.fields):
            found += [location(d, "properties", f.wire_name) for f in d.fields if f.required and f.default is not None]
            if setting == "optional":
                d = replace(d, fields=tuple(replace(f, required=False) if f.default is not None else f for f in d.fields))
        out.append(d)
    if found and setting is None:
        first = found[0]
        places = [("" if place.path == first.path else place.path) + "#" + place.pointer for place in found]
        one = len(found) == 1
        said = "1 property is required and has a default" if one else \
            f"{len(found)} properties are required and have a default"
        reporter.warn(first, f"{said}: {few(places)}",
                      f'set required_defaults = "optional" to read {"it" if one else "them"} as not required',
                      kind="required default")
    return ir.Module(tuple(out), module.root) if setting == "optional" else module
