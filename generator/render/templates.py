"""The Jinja environment: a user's template folder first, then the built-in templates."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import jinja2


def _builtin_templates() -> Path:
    """The folder of the built-in templates: the checkout's top-level ``templates/``, their one source.

    A wheel carries that folder as the package ``schemagen._templates`` (pyproject.toml maps it there), and
    the import system says where it is. A checkout, run as it is or installed editable, has no such package
    inside ``generator/`` (setuptools' editable import hook does not find a namespace package mapped inside a
    regular one): there the folder is beside ``generator/``. ``find_spec`` rather than
    ``importlib.resources.files``: on Python 3.11 the latter gives a namespace package as a ``MultiplexedPath``,
    not a real folder, and its import (tempfile among others) adds some 3 ms to a run with nothing to do."""
    root = __name__.partition(".")[0]  # `schemagen` installed; the checkout's folder name when run from it
    spec = importlib.util.find_spec(f"{root}._templates")
    if spec is not None and spec.submodule_search_locations:
        return Path(next(iter(spec.submodule_search_locations)))
    return Path(__file__).resolve().parent.parent.parent / "templates"


BUILTIN_TEMPLATES = _builtin_templates()
"""A real folder: Jinja loads from it and ``cache.fingerprint`` digests its files, the same ones."""


def environment(template_dir: Path | None = None, compiled: jinja2.BytecodeCache | None = None) -> jinja2.Environment:
    """Templates from ``template_dir`` first (a user's overrides), then the built-in ones; ``compiled``: where
    their code is kept once compiled, if anywhere. (Jinja is imported here: a run with nothing to do never
    renders.)"""
    import jinja2

    folders = [str(p) for p in (template_dir if own_templates(template_dir) else None, BUILTIN_TEMPLATES) if p]
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(folders),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=False,  # a run reads each template once: no `stat` of its file per declaration
        bytecode_cache=compiled,
    )


def own_templates(template_dir: Path | None) -> bool:
    """A template folder with templates of its own: they may lay a module out in any way."""
    return template_dir is not None and template_dir.is_dir() and any(template_dir.glob("*.jinja"))
