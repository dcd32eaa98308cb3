"""Diagnostics: errors and warnings as values with a location (``errors``), and the line and column
of a JSON pointer in a file, found when there is something to report (``positions``). This package
imports nothing else of the generator."""

from .errors import Diagnostic, Location, Reporter, SchemaError, collected, few, pointer, tokens

__all__ = ["Diagnostic", "Location", "Reporter", "SchemaError", "collected", "few", "pointer", "tokens"]
