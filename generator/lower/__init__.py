"""Lowering: the canonical ``SchemaSet`` into an ``ir.Module``.

Reads only the canonical form (JSON Schema 2020-12 plus ``discriminator``); knows no dialect.
Definitions keep the name the schema gives them; inline objects are named ``<Parent><Property>``.
Anything the IR cannot say is widened to a type that accepts at least every valid value, with a
warning that names the keyword and its pointer.

By rule: ``lowering`` (declarations, and the dispatch on what a schema is), ``references``
(``$ref``), ``folding`` (``allOf``, and a ``$ref`` with constraining siblings), ``objects``,
``arrays``, ``literals`` (``const``, ``enum``), ``unions`` (``anyOf``, ``oneOf``); beside them
``merge`` (an intersection folded into one schema), ``shapes`` (what one schema says on its own),
``constraints`` (limits and formats), and ``context`` (what the rules share). ``units``: a
definition lowered on its own, from what it reads of the others.
"""

from .context import External
from .lowering import lower

__all__ = ["External", "lower"]
