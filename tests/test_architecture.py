"""The layering the design relies on, checked on the source.

- ``ir``, ``names`` and ``diagnostics`` import nothing else of the package but ``frozen`` (the base of its
  immutable records), which imports nothing of it;
- the stages (``frontend``, ``lower``, ``passes``, ``render``) never import the speed-ups (``cache``)
  nor the application (``project``, ``review``, ``compare``, ``cli``): the cache wraps them from outside;
- dialects stop at the door: nothing after the front end imports ``frontend.dialects``;
- no module imports itself through others (no import cycles);
- no module over 350 lines, no class over 250.

An import is every ``import`` statement in a module (at its top, inside a function, or under
``TYPE_CHECKING``), resolved to the module it names; a package's ``__init__`` that Python runs on the
way to a submodule is not counted as imported.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from schemagen import ir

PACKAGE = Path(__file__).resolve().parent.parent / "generator"
DIALECT_WORDS = ("openapi", "nullable", "components", "definitions", "$defs", "swagger", "discriminator")
MAX_MODULE_LINES = 350
MAX_CLASS_LINES = 250


def _name(path: Path) -> str:
    parts = ["schemagen", *path.relative_to(PACKAGE).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _imports(module: str) -> set[str]:
    """The package's modules that ``module`` imports."""
    path = MODULES[module]
    here = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = here.split(".")[: len(here.split(".")) - (node.level - 1)]
                base = ".".join(parent + ([node.module] if node.module else []))
            for alias in node.names:  # `from . import x` imports the module x, `from .a import f` the module a
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base)
    return {name for name in found if name in MODULES and name != module}


GRAPH = {module: _imports(module) for module in MODULES}


def _inside(module: str, *packages: str) -> bool:
    return any(module == f"schemagen.{p}" or module.startswith(f"schemagen.{p}.") for p in packages)


def _offences(sources: tuple[str, ...], forbidden: tuple[str, ...]) -> list[str]:
    return sorted(f"{m} imports {t}" for m, targets in GRAPH.items() if _inside(m, *sources)
                  for t in targets if _inside(t, *forbidden))


def test_the_graph_is_read() -> None:
    assert "schemagen.lower.lowering" in GRAPH and "schemagen.ir" in GRAPH["schemagen.lower.lowering"]
    assert "schemagen.frontend.dialects.jsonschema" in GRAPH["schemagen.frontend.dialects"]
    assert "schemagen.project.plan imports schemagen.cache.store" in _offences(("project",), ("cache",))


def test_the_foundations_import_nothing_else_of_the_package() -> None:
    everything = ("ir", "names", "diagnostics", "frozen", "frontend", "lower", "passes", "render", "project", "review",
                  "compare", "cache", "cli")
    for foundation in ("ir", "names", "diagnostics"):
        assert _offences((foundation,), tuple(p for p in everything if p not in (foundation, "frozen"))) == []
    assert _offences(("frozen",), tuple(p for p in everything if p != "frozen")) == []


def test_the_stages_never_import_the_cache_or_the_application() -> None:
    assert _offences(("frontend", "lower", "passes", "render"), ("cache", "project", "review", "compare", "cli")) == []


def test_the_cache_never_imports_the_application() -> None:
    assert _offences(("cache",), ("project", "review", "compare", "cli")) == []


def test_nothing_after_the_front_end_imports_a_dialect() -> None:
    assert _offences(("ir", "lower", "passes", "render"), ("frontend.dialects",)) == []


def test_compare_reads_a_variant_by_its_public_description_only() -> None:
    """What a side's models accept is read off ``Variant.capabilities`` and the one type printer,
    never off a variant's own rules (``msgspec_unions``, ``dataclass``)."""
    used = set()
    for path in sorted((PACKAGE / "compare").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 2 and (node.module or "").startswith("render"):
                used |= {f"{node.module}.{a.name}" for a in node.names}
    assert used == {"render.VARIANTS", "render.annotations.spelled"}, used


def _cycle() -> list[str]:
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> list[str]:
        if module in path:
            return path[path.index(module):] + [module]
        if module in done:
            return []
        for target in sorted(GRAPH[module]):
            found = visit(target, [*path, module])
            if found:
                return found
        done.add(module)
        return []

    return next((found for module in sorted(GRAPH) if (found := visit(module, []))), [])


def test_no_import_cycles() -> None:
    assert _cycle() == []


def test_a_cycle_would_be_found(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(GRAPH, "schemagen.ir", GRAPH["schemagen.ir"] | {"schemagen.lower.lowering"})
    assert _cycle()[0] == _cycle()[-1]


def _classes(tree: ast.Module) -> Iterator[ast.ClassDef]:
    return (node for node in ast.walk(tree) if isinstance(node, ast.ClassDef))


@pytest.mark.parametrize("module", sorted(MODULES))
def test_modules_and_classes_are_small(module: str) -> None:
    text = MODULES[module].read_text(encoding="utf-8")
    assert len(text.splitlines()) <= MAX_MODULE_LINES
    for node in _classes(ast.parse(text)):
        assert (node.end_lineno or 0) - node.lineno + 1 <= MAX_CLASS_LINES, f"class {node.name}"


def test_the_ir_knows_no_dialect_and_no_render_option() -> None:
    source = "".join(p.read_text() for p in sorted(PACKAGE.glob("ir/*.py"))).lower()
    for word in DIALECT_WORDS + ("msgspec", "typeddict", "jinja", "black"):
        assert word not in source, f"ir/ mentions {word!r}"
    for node in (ir.Field, ir.Model, ir.Alias, ir.Module, ir.Union):
        assert node.__struct_config__.frozen, f"{node.__name__} is not frozen"
        assert not node.__struct_config__.dict, f"{node.__name__} has a __dict__"


def test_templates_hold_layout_not_logic() -> None:
    templates = Path(__file__).resolve().parent.parent / "templates"
    assert list(templates.glob("*.jinja"))
    for path in templates.glob("*.jinja"):
        text = path.read_text()
        for word in ("Literal[", "NotRequired", "UnsetType", "| None", "default_factory"):
            assert word not in text, f"{path.name} builds a type expression ({word!r}); do it in Python"
