"""How many of an official SDK's model classes schemagen names alike, with ``names = "schema"`` and ``"sdk"``.

    .venv/bin/python bench/sdk_names.py SDK_TYPES [SCHEMA] [--misses N]

``SDK_TYPES`` is the ``types`` folder of an SDK's package, as its wheel unpacks it (``unzip
openai-*.whl`` → ``openai/types``); ``SCHEMA`` is the API's description (default: OpenAI's, in
../shared). The SDK's model classes are the classes of its ``types`` modules that derive from
``BaseModel`` (directly or through another of them): the types a response is read into (request
parameters are ``TypedDict``s, not counted). Printed: how many there are, and how many of them are
the name of one of schemagen's declarations, for each setting. The SDK is read, never imported, and
no name of it is written into schemagen: it is the measure only.
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from schemagen.diagnostics import Reporter  # noqa: E402
from schemagen.names import NAMINGS  # noqa: E402
from schemagen.project.inputs import Input  # noqa: E402
from schemagen.project.pipeline import to_ir  # noqa: E402

OPENAI = ROOT.parent / "shared" / "corpora" / "openai" / "openapi.yaml"


def sdk_models(types: Path) -> set[str]:
    """The names of the classes under ``types`` that derive from ``BaseModel``, transitively."""
    bases: dict[str, set[str]] = {}
    for path in sorted(types.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                bases.setdefault(node.name, set()).update(_base_name(b) for b in node.bases)
    models = {"BaseModel"}
    while True:
        more = {name for name, of in bases.items() if name not in models and of & models}
        if not more:
            return models - {"BaseModel"}
        models |= more


def _base_name(node: ast.expr) -> str:
    return node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("types", type=Path)
    parser.add_argument("schema", nargs="?", type=Path, default=OPENAI)
    parser.add_argument("--misses", type=int, default=0, help="print this many SDK names no declaration has")
    args = parser.parse_args()
    models = sdk_models(args.types)
    path = args.schema.resolve()
    print(f"{len(models)} model classes in {args.types}")
    for naming in NAMINGS:
        ours = {d.name for d in to_ir(Input("sdk", path, path.name, names=naming), path.parent, Reporter()).declarations}
        same = models & ours
        print(f"names = {naming!r:<9} {len(same):>5} of {len(models)} named alike ({len(ours)} declarations)")
        if args.misses:
            print("  " + "\n  ".join(sorted(models - ours)[: args.misses]))


if __name__ == "__main__":
    main()
