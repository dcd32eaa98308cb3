"""`make bench` (or on its own): how schemagen's cost grows with each shape of schema (bench/shapes.py).

Each shape is grown 10 → 20 → 40 → 80 → 160; each size is read, lowered and rendered in every
variant of ``ALL_VARIANTS`` as ``schemagen generate`` does without a cache (``to_ir``, then
``pipeline.Renderer``: laid out, then formatted declaration by declaration, black where the printer
leaves a statement to it), in this process. (Not ``render.render``, black on the whole module: no run
formats that way, and black's own cost on a module of thousands of fields grows faster than the module.)
Printed: the median wall time of ``--repeat`` runs and the peak of Python's allocations (tracemalloc, one extra run),
and beside each its growth over the size before: a cost linear in the input grows about 2× a step;
4× is quadratic. One Markdown table on stdout.

    .venv/bin/python bench/growth.py [--repeat N] [--sizes 10,20,40] [--shapes depth,wide]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import threading
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from shapes import SHAPES  # noqa: E402

from schemagen import ir, render  # noqa: E402
from schemagen.cli import RECURSION_LIMIT, STACK_BYTES  # noqa: E402
from schemagen.diagnostics import Reporter  # noqa: E402
from schemagen.project.config import ALL_VARIANTS  # noqa: E402
from schemagen.project.inputs import Input  # noqa: E402
from schemagen.project.pipeline import Renderer, to_ir  # noqa: E402

SIZES = (10, 20, 40, 80, 160)
T = TypeVar("T")


def generate(document: dict[str, Any], folder: Path, black: bool = True) -> ir.Module:
    """What ``schemagen generate`` does with one input without a cache, in this process: its IR, then
    every variant (without ``black``: laid out whole and by fragments, not formatted, as
    tests/test_growth.py counts it)."""
    path = folder / "case.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    module = to_ir(Input("case", path, "case.json"), folder, Reporter())
    renderer = Renderer(None, render.RenderOptions())
    env = renderer.env
    for variant in ALL_VARIANTS:
        if black:
            renderer.render(module, variant, "case.json")
        else:
            render.layout(module, variant, "case.json", env)
        if not black:  # and declaration by declaration, as a run with a cache renders
            contexts = render.contexts(module, variant, render.RenderOptions())
            pieces = [render.fragment(d, c, env) for d, c in zip(module.declarations, contexts)]
            render.assemble(module, variant, "case.json", env, render.RenderOptions(), pieces)
    return module


def measure(document: dict[str, Any], repeat: int) -> tuple[float, float]:
    """Median seconds, and the peak MB of Python's allocations, of ``generate``."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            generate(document, folder)
            times.append(time.perf_counter() - start)
        tracemalloc.start()
        generate(document, folder)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return statistics.median(times), peak / 1e6


def on_deep_stack(work: Callable[[], T]) -> T:
    """``work()`` in a thread with the stack the command line gives the pipeline."""
    result: list[T] = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            result.append(work())
        except BaseException as exc:  # raised again in the caller's thread
            failed.append(exc)

    sys.setrecursionlimit(RECURSION_LIMIT)
    threading.stack_size(STACK_BYTES)
    worker = threading.Thread(target=run)
    worker.start()
    worker.join()
    if failed:
        raise failed[0]
    return result[0]


def table(shapes: list[str], sizes: tuple[int, ...], repeat: int) -> str:
    head = "| shape | " + " | ".join(f"n={n}" for n in sizes) + " |"
    lines = [head, "|---|" + "---:|" * len(sizes)]
    for shape in shapes:
        cells = []
        before: tuple[float, float] | None = None
        for n in sizes:
            seconds, peak = on_deep_stack(lambda: measure(SHAPES[shape](n), repeat))
            growth = "" if before is None else f" ({seconds / before[0]:.1f}×, {peak / before[1]:.1f}×)"
            cells.append(f"{seconds * 1000:.0f} ms, {peak:.1f} MB{growth}")
            before = (seconds, peak)
        lines.append(f"| {shape} | " + " | ".join(cells) + " |")
        print(lines[-1], file=sys.stderr, flush=True)
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)))
    parser.add_argument("--shapes", default=",".join(SHAPES))
    args = parser.parse_args()
    print(report(args.shapes.split(","), tuple(int(s) for s in args.sizes.split(",")), args.repeat))


def report(shapes: list[str] | None = None, sizes: tuple[int, ...] = SIZES, repeat: int = 3) -> str:
    """The table, headed (``bench/run.py``'s ``growth`` case)."""
    on_deep_stack(lambda: measure(SHAPES["wide object"](10), 1))  # imports and black's first run: not timed
    return ("Cost against size, each shape grown ×2 a step: median time and peak allocations of reading, "
            "lowering and rendering every variant (growth over the size before: ~2× is linear).\n\n"
            + table(shapes or list(SHAPES), sizes, repeat))


if __name__ == "__main__":
    main()
