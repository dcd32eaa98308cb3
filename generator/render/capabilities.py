"""What one variant's models can say of a JSON value: the one public description each variant gives
(``Variant.capabilities``), which render writes by and ``compare`` reasons with (what a side's models
accept), instead of reaching into a variant's own rules.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from .. import ir
from ..frozen import Frozen
from .annotations import TypeStyle, takes_meta


class Capabilities(Frozen, frozen=True):
    style: TypeStyle
    """The formats read as Python types of their own; whether limits are written as checks (``meta``)."""
    decodable: Callable[[ir.Type, Mapping[str, ir.Declaration]], ir.Type]
    """``t`` as the models decode it: each union they cannot tell apart widened (``t`` where they
    read every union)."""
    tag: Callable[[ir.Model], ir.Tag | None]
    """A model's tag as its class says it; ``None``: the tag's key is read as a plain field."""
    names_key: Callable[[str], bool]
    """Whether a class has a field for this key (a key it cannot name is ignored as unknown)."""
    reads_format: Callable[[object, ir.Format], bool | None] = lambda value, fmt: None
    """Whether a value is read as a string of this format; ``None``: not read as a format (its JSON type)."""

    def checks_limits(self, inner: ir.Type) -> bool:
        """Whether limits on ``inner`` (a string, a number, a container) are checked when decoding."""
        return self.style.meta and takes_meta(inner, self.style)


def every_union(t: ir.Type, declarations: Mapping[str, ir.Declaration]) -> ir.Type:
    """``decodable`` of a variant that reads every union as the schema says it."""
    return t


def every_key(key: str) -> bool:
    """``names_key`` of a variant whose classes have a field for every key."""
    return True


def schema_tag(model: ir.Model) -> ir.Tag | None:
    """``tag`` of a variant whose classes say the schema's tag as it is."""
    return model.tag
