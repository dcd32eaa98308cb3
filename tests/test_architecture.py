"""The layering the design relies on, checked on the source: dialects stop at the door."""

from __future__ import annotations

import ast
from pathlib import Path

from generator import ir

PACKAGE = Path(__file__).resolve().parent.parent / "generator"
DIALECT_WORDS = ("openapi", "nullable", "components", "definitions", "$defs", "swagger", "discriminator")


def _imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            found.add(("." * node.level) + (node.module or ""))
            found.update(("." * node.level) + (node.module or "") + "." + a.name for a in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return found


def test_nothing_after_lowering_imports_a_dialect() -> None:
    late = [*PACKAGE.glob("ir/*.py"), *PACKAGE.glob("lower/*.py"), *PACKAGE.glob("passes/*.py"), *PACKAGE.glob("render/*.py")]
    for path in late:
        assert not any("dialects" in name for name in _imports(path)), f"{path.name} imports a dialect module"


def test_the_ir_knows_no_dialect_and_no_render_option() -> None:
    source = "".join(p.read_text() for p in PACKAGE.glob("ir/*.py")).lower()
    for word in DIALECT_WORDS + ("msgspec", "typeddict", "jinja", "black"):
        assert word not in source, f"ir.py mentions {word!r}"
    for node in (ir.Field, ir.Model, ir.Alias, ir.Module, ir.Union):
        assert node.__dataclass_params__.frozen  # type: ignore[attr-defined]
        assert "__slots__" in vars(node), f"{node.__name__} is not slotted"


def test_templates_hold_layout_not_logic() -> None:
    templates = Path(__file__).resolve().parent.parent / "templates"
    for path in templates.glob("*.jinja"):
        text = path.read_text()
        for word in ("Literal[", "NotRequired", "UnsetType", "| None", "default_factory"):
            assert word not in text, f"{path.name} builds a type expression ({word!r}); do it in Python"
