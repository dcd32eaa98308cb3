"""A side's generated models of one variant, made and imported in memory, as the payloads' judge.

The modules are the bytes ``generate`` writes (``Renderer``), in a package of their own that exists
only in ``sys.modules``: the input's module, those of the inputs it refers to, and (for dataclasses)
the package's converter, so the relative imports between them resolve as in the output package.
What they decide is the verdict: msgspec's ``Decoder`` for the msgspec variant, ``from_dict`` for
dataclasses, pydantic's ``TypeAdapter(...).validate_json`` (strict mode off, as the models are used)
for pydantic, and msgspec reading the ``TypedDict`` for that variant (where msgspec cannot, the
msgspec models decide, and ``validate`` says so).
"""

from __future__ import annotations

import functools
import itertools
import json
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any

from .. import render
from ..compare.sides import Side
from ..ir import JSON
from ..project import config as configuration
from ..project.pipeline import Renderer
from .explain import keyed

Verdict = Callable[[JSON], str | None]
"""``None`` when the model reads the value, else what it says."""

_COUNT = itertools.count()


def judge(side: Side, variant: str) -> tuple[Verdict, str | None]:
    """The verdict of ``variant``'s root model, and a note when another variant's stands in for it."""
    import msgspec

    assert side.project is not None
    root = getattr(_imported(side, variant), side.root)
    if variant == "dataclass":
        return _dataclass(root), None
    if variant == "pydantic":
        return _pydantic(root), None
    try:
        decoder = msgspec.json.Decoder(root)
    except TypeError as exc:
        if variant == "msgspec":
            raise
        note = f"msgspec cannot read the typeddict variant's {side.root} ({exc}): the msgspec models decide"
        return judge(side, "msgspec")[0], note

    def decoded(value: JSON) -> str | None:
        try:
            decoder.decode(json.dumps(value).encode())
        except msgspec.ValidationError as error:
            return str(error)
        return None

    return decoded, None


def _dataclass(root: Any) -> Verdict:
    def converted(value: JSON) -> str | None:
        try:
            root.from_dict(value)
        except ValueError as error:  # (the converter's DecodeError)
            return str(error)
        return None

    return converted


def _pydantic(root: Any) -> Verdict:
    import pydantic

    adapter: pydantic.TypeAdapter[Any] = pydantic.TypeAdapter(root)

    def validated(value: JSON) -> str | None:
        try:
            adapter.validate_json(json.dumps(value))
        except pydantic.ValidationError as error:
            return "; ".join(f"{e['msg']} at {functools.reduce(_step, e['loc'], '$')}" for e in error.errors())
        return None

    return validated


def _step(where: str, key: str | int) -> str:
    return f"{where}[{key}]" if isinstance(key, int) else keyed(where, key)


def _imported(side: Side, variant: str) -> ModuleType:
    """The side's module in ``variant``, with its siblings, executed in a package of their own."""
    assert side.project is not None
    cfg = configuration.load(side.project)
    renderer = Renderer(None, cfg.options, root=cfg.root)
    top = f"_schemagen_validate_{next(_COUNT)}"
    texts = {f"{top}.{name}.{variant}_models": renderer.render(module, variant, name)
             for name, module in side.modules.items()}
    if variant == "dataclass":
        texts[f"{top}._runtime"] = render.runtime("# the converter of a package validate made in memory")
    made: dict[str, ModuleType] = {}
    for name in [top, *(f"{top}.{p}" for p in side.modules), *texts]:
        made[name] = module = ModuleType(name)
        module.__package__ = name if name not in texts else name.rpartition(".")[0]
        if name not in texts:
            module.__path__ = []
        sys.modules[name] = module
        parent, _, last = name.rpartition(".")
        if parent in made:
            setattr(made[parent], last, module)
    order = [f"{top}._runtime"] * (variant == "dataclass")
    order += [f"{top}.{p}.{variant}_models" for p in reversed(list(side.modules))]
    for name in order:  # the converter, then each input after those it refers to (they are found after it)
        exec(compile(texts[name], name, "exec"), made[name].__dict__)  # our own output: inert by construction
    return made[f"{top}.{side.package}.{variant}_models"]
