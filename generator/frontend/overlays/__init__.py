"""Overlays (OpenAPI Overlay Specification 1.0.0): a vendored document mended before it is normalised.

``document`` recognises and checks an overlay and compiles its JSONPath targets; ``apply`` runs its
actions on a document; ``origins`` keeps where each changed part was written, so that diagnostics
still point into the vendored file (or into the overlay, for what an overlay added).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ...diagnostics import Diagnostic, Reporter, SchemaError
from .apply import apply
from .document import Overlay, parse, sniff
from .origins import Origins

__all__ = ["Origins", "Overlay", "mend", "parse", "sniff"]


def mend(document: Any, display: str, overlays: Sequence[tuple[Path, str, Any]], reporter: Reporter) -> Origins:
    """Apply ``overlays`` (each: its path, display path and parsed document) to ``document`` (read from
    ``display``), in order, in place. Raises ``SchemaError`` with the problems of all of them."""
    problems: list[Diagnostic] = []
    origins = Origins(display, document)
    for path, shown, raw in overlays:
        apply(document, display, parse(raw, shown, path, reporter, problems), origins, reporter, problems)
    if problems:
        raise SchemaError(problems)
    return origins
