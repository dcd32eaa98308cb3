"""The IR passes, in the order they run: each a function ``(Module, Reporter) -> Module``; a pass
that reads a setting of the input gets it bound (``pipeline``)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from .. import ir
from ..diagnostics import Reporter
from ..names import Naming
from .defaults import break_endless_defaults, check_defaults
from .naming import name
from .order import order
from .refs import check_refs
from .required_defaults import Setting, read_required_defaults
from .share import share
from .tags import tag
from .record import Record
from .recorded import again, recorded, run

__all__ = ["PIPELINE", "Pass", "Record", "again", "pipeline", "recorded", "run", "stepwise"]

Pass = Callable[[ir.Module, Reporter], ir.Module]
PIPELINE: tuple[Pass, ...] = (check_refs, share, read_required_defaults, check_defaults, break_endless_defaults, name, tag,
                            order)


def pipeline(required_defaults: Setting | None = None, names: Naming = "schema") -> tuple[Pass, ...]:
    """The passes, with the input's settings bound."""
    bound: dict[Pass, Pass] = {read_required_defaults: partial(read_required_defaults, setting=required_defaults),
                               name: partial(name, names=names)}
    return tuple(bound.get(step, step) for step in PIPELINE)


def stepwise(module: ir.Module, reporter: Reporter, required_defaults: Setting | None = None,
             names: Naming = "schema") -> ir.Module:
    """The passes, one after the other, each over the whole module: what ``run`` gives (a test checks it).
    ``run`` does the same work declaration by declaration, keeping a record of it (``recorded``)."""
    for step in pipeline(required_defaults, names):
        module = step(module, reporter)
    return module

