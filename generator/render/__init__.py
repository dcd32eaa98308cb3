"""Rendering: IR → view model (Python) → module text (Jinja) → formatted source (black).

``layout`` writes a module as the templates lay it out; ``render`` formats that with black, whole.
``fragment`` writes one declaration from the inputs it names, and ``assemble`` the module around
fragments: the built-in layout, declaration by declaration (what ``cache.memo`` wraps).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import ir
from .dataclass import runtime
from .format import format_whole
from .fragment import Fragment, FragmentContext, assemble, contexts, fragment
from .options import RenderOptions
from .templates import BUILTIN_TEMPLATES, environment, own_templates
from .variants import VARIANTS
from .view import build

if TYPE_CHECKING:
    import jinja2

__all__ = ["BUILTIN_TEMPLATES", "VARIANTS", "Fragment", "FragmentContext", "RenderOptions", "assemble", "contexts", "environment",
           "fragment", "layout", "own_templates", "render", "runtime"]


def layout(module: ir.Module, variant: str, source: str, env: jinja2.Environment,
           options: RenderOptions = RenderOptions()) -> str:
    """One variant of ``module`` as the template writes it, before black; ``source`` is named in the header."""
    rules = VARIANTS[variant]
    return env.get_template(rules.template).render(module=build(module, rules, source, options))


def render(module: ir.Module, variant: str, source: str, env: jinja2.Environment,
           options: RenderOptions = RenderOptions()) -> str:
    """The formatted source of one variant of ``module``: ``layout``, then black on the whole module."""
    return format_whole(layout(module, variant, source, env, options))

