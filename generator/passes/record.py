"""What the passes keep of a run (``recorded``): what they made of and said of each declaration (``Kept``), the
summaries their decisions over the module read (``Summaries``), and those decisions (``Record``). (When a changed
declaration's summary leaves a decision as it was is the decision's own: ``share.alike``, ``tags.alike``.)"""

from __future__ import annotations

from collections.abc import Mapping

from .. import ir
from ..diagnostics import Diagnostic, Location
from ..frozen import Frozen
from .order import Placement, Summary as OrderSummary
from .share import Summary as ShareSummary
from .tags import Summary as TagSummary

Said = tuple[Diagnostic, ...]


class Kept(Frozen, frozen=True):
    """What the passes made of one declaration of the module they were given, and said of it."""

    refers: tuple[str, ...] = ()
    """The names it refers to (``share.Summary.refers``): who reaches a changed declaration."""
    found: tuple[Location, ...] = ()
    """Its properties required with a default (``required_defaults.read``)."""
    said: tuple[Said, Said, Said] = ((), (), ())
    """What ``check_defaults``, ``break_endless_defaults`` and ``naming`` said of it."""
    cut: Said = ()
    """What ``order`` said where it cut its reference back into a cycle."""
    final: ir.Declaration | None = None
    """What the passes made of it; ``None``: it went (``share``), or it is the declaration given (``same``)."""
    same: bool = False
    """The passes left it as it was given (most declarations): it is not kept twice."""


class Summaries(Frozen, frozen=True):
    """What the passes that decide over the whole module read of one declaration: read again only where
    a decision is made again, or compared with a changed declaration's."""

    share: ShareSummary
    tags: TagSummary | None = None
    order: OrderSummary | None = None
    """(``None`` for a declaration that went.)"""


class Record(Frozen, frozen=True):
    """What the passes decided over a module, and made of each declaration (``each``, by its name there)."""

    names: tuple[tuple[str, bool], ...]
    """Each declaration's name, and whether it is inline, in order."""
    root: str | None
    read: frozenset[str]
    """The declarations whose text ``share.decide`` read."""
    outlines: frozenset[tuple[object, ...]]
    """``share.outlines`` of the summaries ``share.decide`` was given."""
    gone: Mapping[str, str | None]
    classes: Mapping[str, str]
    tagged: Mapping[str, ir.Tag | None]
    tagging: Said
    """What ``tags.decide`` said."""
    members: frozenset[str]
    """``tags.members`` of the summaries ``tags.decide`` was given."""
    placement: Placement
    each: Mapping[str, Kept]
    summaries: Mapping[str, Summaries]
    """Each declaration's, by its name there. (A cache may read each one only when it is asked for.)"""
