"""The IR passes, in the order they run: each a function ``(Module, Reporter) -> Module``."""

from __future__ import annotations

from collections.abc import Callable

from .. import ir
from ..diagnostics import Reporter
from .defaults import check_defaults
from .naming import name
from .order import order
from .refs import check_refs
from .share import share
from .tags import tag

Pass = Callable[[ir.Module, Reporter], ir.Module]
PIPELINE: tuple[Pass, ...] = (check_refs, share, check_defaults, name, tag, order)


def run(module: ir.Module, reporter: Reporter) -> ir.Module:
    for step in PIPELINE:
        module = step(module, reporter)
    return module

