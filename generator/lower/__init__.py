"""Lowering: the canonical ``SchemaSet`` into an ``ir.Module``."""

from .core import External, lower

__all__ = ["External", "lower"]
