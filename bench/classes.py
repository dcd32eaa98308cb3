"""Class counts of a generated description: how many classes, how many are copies, how many are named by position.

    .venv/bin/python bench/classes.py [SCHEMA] [--out FOLDER]

``SCHEMA`` defaults to OpenAI's description (../shared/corpora/openai/openapi.yaml). Prints, per
variant (the four, pydantic included): classes, lines, classes named by position (``Option<n>`` anywhere
in the name) and classes whose text, with their own name taken out, is byte for byte the text of a class
the schema names (a component or definition); with ``--out``, writes the four modules there.
bench/pydantic_side.py counts the pydantic module beside datamodel-code-generator's.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from schemagen.diagnostics import Reporter  # noqa: E402
from schemagen.names import OUTPUT_NAMES  # noqa: E402
from schemagen.project.inputs import Input  # noqa: E402
from schemagen.project.pipeline import Renderer, to_ir  # noqa: E402
from schemagen.render.options import RenderOptions  # noqa: E402

OPENAI = ROOT.parent / "shared" / "corpora" / "openai" / "openapi.yaml"
POSITIONAL = re.compile(r"Option\d")
CLASS = re.compile(r"^class (\w+)\b", re.M)


def blocks(source: str) -> dict[str, str]:
    """Each top-level class's text with its own name replaced, by class name."""
    starts = [(m.start(), m.group(1)) for m in CLASS.finditer(source)]
    out = {}
    for (start, name), (end, _) in zip(starts, [*starts[1:], (len(source), "")]):
        text = source[start:end]
        first = text.index("\n") + 1
        cut = re.compile(r"^(?![)\]])\S", re.M).search(text, first)  # the class ends where the next top-level statement starts
        text = text[: cut.start()] if cut else text
        out[name] = re.sub(rf"\b{name}\b", "@", text).rstrip()
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("schema", nargs="?", type=Path, default=OPENAI)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    path = args.schema.resolve()
    module = to_ir(Input("measured", path, path.name), path.parent, Reporter())
    named = {d.name for d in module.declarations if not d.inline}
    renderer = Renderer(None, RenderOptions())
    print(f"{'variant':<10} {'classes':>8} {'lines':>8} {'positional':>11} {'copies':>7}")
    for variant in ("dataclass", "typeddict", "msgspec", "pydantic"):
        text = renderer.render(module, variant, path.name)
        if args.out:
            args.out.mkdir(parents=True, exist_ok=True)
            (args.out / f"{variant}_models.py").write_text(text)
        classes = {name: body for name, body in blocks(text).items() if name not in OUTPUT_NAMES}  # not the converter's
        components = {body for name, body in classes.items() if name in named}
        copies = sorted(name for name, body in classes.items() if name not in named and body in components)
        positional = [name for name in classes if POSITIONAL.search(name)]
        print(f"{variant:<10} {len(classes):>8} {text.count(chr(10)):>8} "
              f"{len(positional):>5} ({len(positional) / max(len(classes), 1):4.0%}) {len(copies):>7}")
        if variant == "dataclass" and copies:
            print("  copies, e.g.: " + ", ".join(copies[:6]))


if __name__ == "__main__":
    main()
