"""Options that change how modules are written (never what the schema means)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

EnumStyle = Literal["literal", "class"]
DEFAULT_COMMAND = "schemagen generate"


@dataclass(frozen=True, slots=True)
class RenderOptions:
    enums: EnumStyle = "literal"
    """``"class"``: an enum definition of strings or integers is an ``enum.StrEnum``/``IntEnum``
    class in the dataclass and msgspec variants (TypedDict keeps the ``Literal``: raw JSON)."""
    command: str = DEFAULT_COMMAND
    """What the header of each module tells its reader to run instead of editing it (the project's
    choice: ``project.command``)."""
