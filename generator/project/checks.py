"""The checks of a set as stages: the pure functions ``pipeline.Stages`` runs unless the cache wraps them.

Each is given what the set's definitions were made from, by key, where that is known
(``normalised.Keeper.made_from``), which the cache's wrappers keep what they found by; the pure ones ignore it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ..diagnostics import Reporter
from ..frontend import lint, validate
from ..frontend.schema import SchemaSet

Check = Callable[[SchemaSet, Reporter, Mapping[str, str]], None]


def in_turn(work: Callable[[Reporter], None], size: int) -> Callable[[], Reporter] | None:
    """The checks are not done ahead: they are done before lowering, in turn."""
    return None


def checked(schemas: SchemaSet, reporter: Reporter, made_from: Mapping[str, str]) -> None:
    """The meta-schema check of a set (``validate.check``; ``cache.verdicts`` keeps the definitions found valid)."""
    validate.check(schemas, reporter)


def examples_checked(schemas: SchemaSet, reporter: Reporter, made_from: Mapping[str, str]) -> None:
    """``lint.examples`` of a set (``cache.linted`` keeps what it says of each definition)."""
    lint.examples(schemas, reporter)


def linted(schemas: SchemaSet, reporter: Reporter, made_from: Mapping[str, str]) -> None:
    """``lint.check`` of a set (``cache.linted`` keeps what it says of each definition)."""
    lint.check(schemas, reporter)
