"""Golden cases: ``tests/golden/<case>/`` holds inputs and the expected output of each variant.

A case has one or more inputs (entries whose name starts with ``input``: a schema file, a
folder of component files, or a split OpenAPI project's folder with its root ``openapi.yaml``); all of them must give the same expected output. ``expected/`` has
``<variant>_models.py`` for each variant, or ``error.txt`` for a case that must fail.
``options.toml`` may set ``dialect``, ``enums`` and ``required_defaults``. Rewrite expectations with ``make golden``.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from schemagen import render
from schemagen.diagnostics import Reporter, SchemaError
from schemagen.project.command import regenerate
from schemagen.project.config import ALL_VARIANTS
from schemagen.project.inputs import Input, root_documents
from schemagen.project.pipeline import to_ir
from schemagen.render.options import RenderOptions

GOLDEN = Path(__file__).resolve().parent / "golden"
ROOT = GOLDEN.parent.parent


@dataclass(frozen=True)
class Case:
    folder: Path

    @property
    def name(self) -> str:
        return self.folder.name

    @property
    def inputs(self) -> list[Path]:
        found = sorted(p for p in self.folder.iterdir() if p.name.startswith("input"))
        return [next(iter(root_documents(p)), p) if p.is_dir() else p for p in found]  # a split project: its root

    @property
    def settings(self) -> dict[str, str]:
        options = self.folder / "options.toml"
        return tomllib.loads(options.read_text()) if options.exists() else {}

    @property
    def dialect(self) -> str:
        return self.settings.get("dialect", "auto")

    @property
    def options(self) -> RenderOptions:
        return RenderOptions(enums="class" if self.settings.get("enums") == "class" else "literal",
                             command=regenerate(ROOT))  # (the cases are this project's: its Makefile's)

    @property
    def label(self) -> str:
        return self.folder.relative_to(ROOT).as_posix() + "/"


def cases() -> list[Case]:
    return [Case(p) for p in sorted(GOLDEN.iterdir()) if p.is_dir()]


def generate(case: Case, source: Path) -> dict[str, str]:
    """Expected-file name → text: each variant's module, or ``error.txt`` with the diagnostics."""
    reporter = Reporter()
    item = Input("case", source, source.relative_to(ROOT).as_posix(), case.dialect,  # type: ignore[arg-type]
                 required_defaults=case.settings.get("required_defaults"))  # type: ignore[arg-type]
    try:
        module = to_ir(item, ROOT, reporter)
    except SchemaError as exc:
        return {"error.txt": "".join(f"{d}\n" for d in exc.diagnostics)}
    env = render.environment()
    out = {f"{v}_models.py": render.render(module, v, case.label, env, case.options) for v in ALL_VARIANTS}
    if reporter.warnings:
        out["warnings.txt"] = "".join(f"{d}\n" for d in reporter.warnings)
    return out
