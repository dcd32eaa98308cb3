"""Rendering: IR → view model (Python) → module text (Jinja) → formatted source (black).

``layout`` writes a module as the templates lay it out; ``render`` formats that with black, whole.
``fragment`` writes one declaration from the inputs it names, and ``assemble`` the module around
fragments (``head``: what comes before them): the built-in layout, declaration by declaration (what
``cache.memo`` wraps).

The package's names are loaded when first used (PEP 562): importing a light submodule (``options``,
``format``, ``templates``), as reading the configuration does, runs no renderer, and so a run with
nothing to do imports none (nor the IR they build on).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from .options import RenderOptions

if TYPE_CHECKING:
    import jinja2

    from .. import ir
    from .dataclass import runtime
    from .fragments import Fragment, FragmentContext, Links, assemble, contexts, fragment, head, links, shared_options
    from .templates import BUILTIN_TEMPLATES, environment, own_templates
    from .variants import VARIANTS

__all__ = ["BUILTIN_TEMPLATES", "VARIANTS", "Fragment", "FragmentContext", "Links", "RenderOptions", "assemble",
           "contexts", "environment", "fragment", "head", "layout", "links", "own_templates", "render", "runtime",
           "shared_options"]

_FROM = {"BUILTIN_TEMPLATES": "templates", "environment": "templates", "own_templates": "templates",
         "runtime": "dataclass", "VARIANTS": "variants", "Fragment": "fragments", "FragmentContext": "fragments",
         "assemble": "fragments", "contexts": "fragments", "fragment": "fragments",
         "head": "fragments", "Links": "fragments", "links": "fragments",
         "shared_options": "fragments"}
"""The submodule each re-exported name is taken from."""


def layout(module: ir.Module, variant: str, source: str, env: jinja2.Environment,
           options: RenderOptions = RenderOptions()) -> str:
    """One variant of ``module`` as the template writes it, before black; ``source`` is named in the header."""
    from .variants import VARIANTS
    from .view import build

    rules = VARIANTS[variant]
    return env.get_template(rules.template).render(module=build(module, rules, source, options))


def render(module: ir.Module, variant: str, source: str, env: jinja2.Environment,
           options: RenderOptions = RenderOptions()) -> str:
    """The formatted source of one variant of ``module``: ``layout``, then black on the whole module."""
    from .format import format_whole

    return format_whole(layout(module, variant, source, env, options))


if not TYPE_CHECKING:
    def __getattr__(name: str) -> object:
        """A re-exported name, imported (and kept) when first asked for."""
        if name not in _FROM:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{__name__}.{_FROM[name]}"), name)
        globals()[name] = value
        return value
