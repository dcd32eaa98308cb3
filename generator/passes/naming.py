"""Naming: every class and field gets a valid, unique, deterministic Python name.

Wire names are kept beside the Python names; declarations the schema names keep their name
when it is already a valid identifier, and win over inline declarations on a clash.
"""

from __future__ import annotations

from collections.abc import Container
from dataclasses import replace

from .. import ir
from ..diagnostics import Reporter
from ..ir.walk import rename_all, types
from ..names import (FIELD_RESERVED, FORMAT_NAMES, MODULE_NAMES, OUTPUT_NAMES, RESERVED, Both, identifier,
                     portable_wire_name, unique)
from .where import location


def name(module: ir.Module, reporter: Reporter) -> ir.Module:
    reserved = RESERVED | OUTPUT_NAMES | MODULE_NAMES
    taken: set[str] = set()
    renamed: dict[str, str] = {}
    # Names the schema gives first, and among them the ones already valid: those keep their name.
    for d in sorted(module.declarations, key=lambda d: (d.inline, not _valid(d.name, reserved))):
        renamed[d.name] = unique(identifier(d.name, style="pascal", reserved=reserved), taken)
    module = rename_all(module, renamed)
    declarations = tuple(_name_fields(d) if isinstance(d, ir.Model) else d for d in module.declarations)
    for d in declarations:
        for f in d.fields if isinstance(d, ir.Model) else ():
            if not portable_wire_name(f.wire_name):
                reporter.warn(location(d, "properties", f.wire_name),
                              f"the key {f.wire_name!r} holds a quote, backslash or control character, which msgspec "
                              "cannot rename to; the msgspec variant has no field for it (it is ignored there)",
                              kind="unportable key")
    return ir.Module(declarations, module.root)


def _name_fields(model: ir.Model) -> ir.Model:
    """Fields keep their keys where valid: a field shadows a name only inside its class (its body and
    annotations), so only what that class uses is reserved (the classes its annotations name)."""
    used = {FORMAT_NAMES[t.format] for f in model.fields for t in types(f.type) if isinstance(t, ir.Scalar) and t.format}
    used |= {t.name for f in model.fields for t in types(f.type) if isinstance(t, ir.Ref)}
    reserved = Both(FIELD_RESERVED, used)
    taken: set[str] = set()
    names: dict[str, str] = {}
    for f in sorted(model.fields, key=lambda f: not _valid(f.wire_name, reserved)):  # valid keys keep theirs
        names[f.wire_name] = unique(identifier(f.wire_name, style="snake", reserved=reserved), taken)
    if all(f.name == names[f.wire_name] for f in model.fields):
        return model
    return replace(model, fields=tuple(replace(f, name=names[f.wire_name]) for f in model.fields))


def _valid(text: str, reserved: Container[str]) -> bool:
    return identifier(text, style="snake", reserved=reserved) == text
