"""The Jinja environment: a user's template folder first, then the built-in templates."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import jinja2

BUILTIN_TEMPLATES = Path(__file__).resolve().parent.parent.parent / "templates"


def environment(template_dir: Path | None = None) -> jinja2.Environment:
    """Templates from ``template_dir`` first (a user's overrides), then the built-in ones. (Jinja is
    imported here: a run with nothing to do never renders.)"""
    import jinja2

    folders = [str(p) for p in (template_dir if own_templates(template_dir) else None, BUILTIN_TEMPLATES) if p]
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(folders),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def own_templates(template_dir: Path | None) -> bool:
    """A template folder with templates of its own: they may lay a module out in any way."""
    return template_dir is not None and template_dir.is_dir() and any(template_dir.glob("*.jinja"))
