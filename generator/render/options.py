"""Options that change how modules are written (never what the schema means)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

EnumStyle = Literal["literal", "class"]


@dataclass(frozen=True, slots=True)
class RenderOptions:
    enums: EnumStyle = "literal"
    """``"class"``: an enum definition of strings or integers is an ``enum.StrEnum``/``IntEnum``
    class in the dataclass and msgspec variants (TypedDict keeps the ``Literal``: raw JSON)."""
