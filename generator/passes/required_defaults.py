"""Required with a default: a property the schema both requires and gives a default, read as the
input's ``required_defaults`` setting says.

A key that must be present never needs its default, so a schema that says both most often means
"optional, with this default" (a generator of the schema marks every field with a default required,
say). ``"required"`` reads what the schema says; ``"optional"`` reads every such property as not
required, taking its default when absent. With no setting, the schema is read as written and one
warning per input counts them and names the setting.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

from .. import ir
from ..diagnostics import Location, Reporter, few
from ..frozen import replace
from ..ir.values import fits
from .where import location

Setting = Literal["required", "optional"]
SETTINGS: tuple[Setting, ...] = ("required", "optional")


def read_required_defaults(module: ir.Module, reporter: Reporter, setting: Setting | None = None) -> ir.Module:
    """Runs before ``check_defaults``, so that a default is checked against the fields as the setting
    reads them (``{}`` fits a model whose required fields have defaults once those are optional)."""
    module, found = read(module, setting)
    warn([place for d in module.declarations for place in found.get(d.name, ())], reporter)
    return module


def read(module: ir.Module, setting: Setting | None) -> tuple[ir.Module, dict[str, tuple[Location, ...]]]:
    """The module as ``setting`` reads it; with no setting, where each declaration has properties that
    "optional" would read as not required (each depends on the declaration and what it reaches)."""
    both = {(d.name, f.wire_name) for d in module.declarations if isinstance(d, ir.Model)
            for f in d.fields if f.required and f.default is not None}
    if setting == "optional":
        return _optional(module, both), {}
    if setting == "required" or not both:
        return module, {}
    # what "optional" would read as not required (a default that never fits: check_defaults')
    read = both & {(d.name, f.wire_name) for d in _optional(module, both).declarations if isinstance(d, ir.Model)
                   for f in d.fields if not f.required}
    found = {d.name: places for d in module.declarations if isinstance(d, ir.Model)
             if (places := tuple(location(d, "properties", f.wire_name) for f in d.fields if (d.name, f.wire_name) in read))}
    return module, found


def warn(found: Sequence[Location], reporter: Reporter) -> None:
    """The one warning that counts the properties ``found`` (in the module's order), if any."""
    if found:
        first = found[0]
        places = [("" if place.path == first.path else place.path) + "#" + place.pointer for place in found]
        one = len(found) == 1
        said = "1 property is required and has a default" if one else \
            f"{len(found)} properties are required and have a default"
        reporter.warn(first, f"{said}: {few(places)}",
                      f'set required_defaults = "optional" to read {"it" if one else "them"} as not required',
                      kind="required default")


def _optional(module: ir.Module, candidates: set[tuple[str, str]]) -> ir.Module:
    """``candidates`` (declaration, wire name) read as not required, but for those whose default does not
    fit even so: they stay required, and ``check_defaults`` leaves their default out. Keeping one
    required can make another's default not fit, so until nothing changes."""
    while candidates:
        out = tuple(_with_optional(d, candidates) for d in module.declarations)
        declarations = {d.name: d for d in out}
        unfit = {(d.name, f.wire_name) for d in out if isinstance(d, ir.Model) for f in d.fields
                 if (d.name, f.wire_name) in candidates and not _fits(f, declarations)}
        if not unfit:
            return ir.Module(out, module.root)
        candidates = candidates - unfit
    return module


def _with_optional(d: ir.Declaration, names: set[tuple[str, str]]) -> ir.Declaration:
    if not isinstance(d, ir.Model) or not any((d.name, f.wire_name) in names for f in d.fields):
        return d  # (a declaration left as it is stays the same object)
    return replace(d, fields=tuple(replace(f, required=False) if (d.name, f.wire_name) in names else f
                                   for f in d.fields))


def _fits(f: ir.Field, declarations: Mapping[str, ir.Declaration]) -> bool:
    return f.default is not None and fits(f.default.value, f.type, declarations)
