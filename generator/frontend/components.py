"""OpenAPI component files: a file whose ``$id`` is ``#/components/schemas/Name`` declares that one
component. Told apart here, with nothing imported, because finding the inputs (``project.inputs``)
asks it of every folder on every run, also on one with nothing to do; ``dialects.openapi`` reads them."""

from __future__ import annotations

from typing import Any

COMPONENTS = "#/components/schemas/"


def component_name(document: Any) -> str | None:
    """The component a single-component file declares through its ``$id``, if any."""
    if isinstance(document, dict):
        ident = document.get("$id")
        if isinstance(ident, str) and ident.startswith(COMPONENTS) and len(ident) > len(COMPONENTS):
            return ident[len(COMPONENTS):]
    return None
