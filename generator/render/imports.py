"""The import block of a generated module: minimal, grouped and sorted as isort would."""

from __future__ import annotations

THIRD_PARTY = frozenset({"msgspec", "pydantic"})

State = tuple[tuple[tuple[str, tuple[str, ...]], ...], tuple[str, ...], tuple[tuple[str, str], ...]]
"""``Imports.state()``: ``from`` imports by module, plain imports, imports of the package's other modules."""


class Imports:
    def __init__(self) -> None:
        self._names: dict[str, set[str]] = {}
        self._modules: set[str] = set()
        self._siblings: dict[str, str] = {}

    def add_sibling(self, package: str, module: str) -> str:
        """Record ``from ..package import module as _package`` (another input's module); the alias."""
        alias = f"_{package}"
        self._siblings[alias] = f"from ..{package} import {module} as {alias}"
        return alias

    def add_local(self, key: str, line: str) -> None:
        """Record an import ``line`` of the output package itself (among other inputs' modules, by ``key``)."""
        self._siblings[key] = line

    def add_module(self, module: str) -> str:
        """Record ``import module``."""
        self._modules.add(module)
        return module

    def add(self, module: str, name: str) -> str:
        """Record ``from module import name``; returns ``name`` for use in an expression."""
        self._names.setdefault(module, set()).add(name)
        return name

    def merge(self, state: State) -> None:
        """Record every import of ``state`` (another ``Imports``'s ``state()``, a fragment's imports)."""
        names, modules, siblings = state
        for module, said in names:
            self._names.setdefault(module, set()).update(said)
        self._modules.update(modules)
        self._siblings.update(siblings)

    def state(self) -> State:
        """What is recorded, as an immutable value of builtins, sorted: the same imports always give the
        same value (and pickle to the same bytes, fast)."""
        return (tuple((m, tuple(sorted(n))) for m, n in sorted(self._names.items())), tuple(sorted(self._modules)),
                tuple(sorted(self._siblings.items())))

    def lines(self, *, future: bool) -> list[str]:
        """``from __future__`` first, then the standard library, third-party packages, other inputs."""
        groups: list[list[str]] = [["from __future__ import annotations"] if future else [], [], [],
                                   [self._siblings[a] for a in sorted(self._siblings)]]
        for module in sorted(self._modules):
            groups[2 if module in THIRD_PARTY else 1].append(f"import {module}")
        for module in sorted(self._names):
            names = ", ".join(sorted(self._names[module], key=_isort_key))
            groups[2 if module.split(".")[0] in THIRD_PARTY else 1].append(f"from {module} import {names}")
        return _join(groups)


def _join(groups: list[list[str]]) -> list[str]:
    out: list[str] = []
    for group in filter(None, groups):
        if out:
            out.append("")
        out.extend(group)
    return out


def _isort_key(name: str) -> tuple[int, str]:
    """isort's order within one import: CONSTANTS, then Classes, then functions."""
    if name.isupper() and len(name) > 1:
        return (0, name)
    return (1, name) if name[:1].isupper() else (2, name)
