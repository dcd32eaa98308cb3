"""The IR passes, in the order they run. Each is a function ``Module -> Module``."""

from __future__ import annotations

from collections.abc import Callable

from .. import ir
from .naming import name
from .order import order
from .refs import check_refs
from .tags import tag

Pass = Callable[[ir.Module], ir.Module]
PIPELINE: tuple[Pass, ...] = (check_refs, name, tag, order)


def run(module: ir.Module) -> ir.Module:
    for step in PIPELINE:
        module = step(module)
    return module
