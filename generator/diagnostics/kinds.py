"""Every kind of warning (``Diagnostic.kind``), as the summary line counts them and ``ignore`` entries
name them (a test checks that each ``kind=`` of the generator is here, and that the docs list them)."""

from __future__ import annotations

WARNING_KINDS = (
    "untagged union", "tag conflict", "open tuple", "unsupported keyword", "ignored keyword",
    "unenforced constraint", "impossible schema", "invalid schema", "loose enum", "allOf conflict",
    "allOf cycle", "alias cycle", "dropped default", "unportable key", "unmatched overlay action",
    "overlay action", "unknown required key", "stray mapping", "rejected value", "$ref sibling",
    "required default", "operation reference", "empty input",
)
"""The kinds of the warnings about a schema or an overlay: those an ``ignore`` entry may acknowledge."""

STALE_IGNORE = "stale ignore"
"""An ``ignore`` entry that matched no warning of the run (it cannot be ignored itself)."""
