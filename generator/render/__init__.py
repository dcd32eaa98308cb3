"""Rendering: IR → view model (Python) → module text (Jinja) → formatted source (black)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from .. import ir
from . import dataclass, msgspec, typeddict
from .format import format_source
from .memo import Memo
from .options import RenderOptions
from .view import Variant, build

if TYPE_CHECKING:
    import jinja2

VARIANTS: dict[str, Variant] = {v.name: v for v in (dataclass, typeddict, msgspec)}  # type: ignore[misc]
BUILTIN_TEMPLATES = Path(__file__).resolve().parent.parent.parent / "templates"


def environment(template_dir: Path | None = None) -> jinja2.Environment:
    """Templates from ``template_dir`` first (a user's overrides), then the built-in ones. (Jinja is
    imported here: a run with nothing to do never renders.)"""
    return _environment(template_dir if own_templates(template_dir) else None)


def own_templates(template_dir: Path | None) -> bool:
    """A template folder with templates of its own: they may lay a module out in any way."""
    return template_dir is not None and template_dir.is_dir() and any(template_dir.glob("*.jinja"))


def _environment(template_dir: Path | None) -> jinja2.Environment:
    import jinja2

    folders = [str(p) for p in (template_dir, BUILTIN_TEMPLATES) if p is not None]
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(folders),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def render(module: ir.Module, variant: str, source: str, env: jinja2.Environment,
           options: RenderOptions = RenderOptions(), memo: Memo | None = None) -> str:
    """The formatted source of one variant of ``module``; ``source`` is named in the header.

    ``memo``: declarations rendered in earlier runs are taken from its cache (``render.memo``; for the
    built-in templates' layout only).
    """
    rules = VARIANTS[variant]
    template = env.get_template(rules.template)
    if memo is not None:
        return format_source(memo.render(module, rules, source, template, options))
    return format_source(template.render(module=build(module, rules, source, options)))
