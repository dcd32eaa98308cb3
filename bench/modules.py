"""Running generated source in this process: the corpus runner (bench/corpus.py), the conformance run
(tests/conformance.py) and the fuzzing tests share these.

Each source becomes a fresh module registered in ``sys.modules`` under a throw-away name while it is
in use (msgspec and dataclasses resolve string annotations through it); messages leave that name out.
"""

from __future__ import annotations

import ast
import itertools
import re
import sys
import types
from collections.abc import Iterator
from contextlib import contextmanager

PREFIX = "_schemagen_generated_"
_ids = itertools.count()


def exec_module(source: str, label: str = "module") -> types.ModuleType:
    """Compile and execute ``source`` as a new registered module; ``forget_module`` it when done."""
    name = f"{PREFIX}{next(_ids)}"
    module = types.ModuleType(name)
    module.__file__ = f"<{label}>"
    sys.modules[name] = module
    try:
        exec(compile(source, f"<{label}>", "exec"), module.__dict__)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def forget_module(module: types.ModuleType) -> None:
    sys.modules.pop(module.__name__, None)


@contextmanager
def loaded(source: str, label: str = "module") -> Iterator[types.ModuleType]:
    """``exec_module`` for the duration of a ``with`` block."""
    module = exec_module(source, label)
    try:
        yield module
    finally:
        forget_module(module)


def one_line(text: str, width: int = 300) -> str:
    """``text`` on one line, at most ``width`` characters, without the throw-away module names."""
    text = re.sub(rf"{PREFIX}\d+\.", "", text).replace("\r", "\\r").replace("\n", "\\n")
    return text if len(text) <= width else text[: width - 1] + "…"


def describe(exc: BaseException) -> str:
    """``Type: message`` on one line."""
    return f"{type(exc).__name__}: {one_line(str(exc))}"


def defined_names(source: str) -> tuple[list[str], list[str]]:
    """The top-level classes and type aliases a module defines itself (imports and dunders excluded),
    each in source order. An alias is ``Name = ...``, ``Name: TypeAlias = ...`` or ``type Name = ...``."""
    classes: list[str] = []
    aliases: list[str] = []
    for node in ast.parse(source).body:
        if isinstance(node, ast.ClassDef):
            classes.append(node.name)
        elif isinstance(node, ast.Assign):
            aliases.extend(t.id for t in node.targets if isinstance(t, ast.Name) and not t.id.startswith("__"))
        elif isinstance(node, ast.AnnAssign) and node.value is not None and isinstance(node.target, ast.Name):
            if not node.target.id.startswith("__"):
                aliases.append(node.target.id)
        elif type(node).__name__ == "TypeAlias":  # ``type X = ...`` (Python 3.12+)
            aliases.append(node.name.id)  # type: ignore[attr-defined]
    return classes, aliases
