"""The output variants by name: each one's rules (``view.Variant``)."""

from __future__ import annotations

from . import dataclass, msgspec, pydantic, typeddict
from .view import Variant

VARIANTS: dict[str, Variant] = {v.name: v for v in (dataclass, typeddict, msgspec, pydantic)}
