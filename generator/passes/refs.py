"""Invariant: every reference names a declaration of the module, and names are unique."""

from __future__ import annotations

from collections.abc import Container, Iterable

from .. import ir
from ..diagnostics import Reporter
from ..ir.walk import declaration_refs


def check_refs(module: ir.Module, reporter: Reporter) -> ir.Module:
    names = [d.name for d in module.declarations]
    assert len(names) == len(set(names)), "declaration names must be unique"
    known = set(names)
    for d in module.declarations:
        for target in _targets(d):
            assert target in known, f"{d.name} refers to undeclared {target}"
    assert module.root is None or module.root in known
    return module


def check(declarations: Iterable[ir.Declaration], known: Container[str]) -> None:
    """``check_refs`` of ``declarations``, in a module of the names ``known`` (unique: a mapping's keys)."""
    for d in declarations:
        for target in _targets(d):
            assert target in known, f"{d.name} refers to undeclared {target}"


def _targets(d: ir.Declaration) -> tuple[str, ...]:
    return tuple(declaration_refs(d))
