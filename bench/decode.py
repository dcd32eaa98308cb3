"""Reading OpenAI-sized payloads: the dataclass variant's ``from_dict`` beside msgspec reading the msgspec
variant, on OpenAI's full description (../shared/corpora/openai/openapi.yaml); and the size of the modules.

    .venv/bin/python bench/decode.py [--repeat N]

Payloads: every example object in the description that both variants read (each component's
``x-oaiMeta`` example and ``example``, each operation's example response: ``openai_examples``, the
set tests/test_openai_corpus.py reads), and one large chat completion: the
description's ``CreateChatCompletionResponse`` example with 8 choices of 500 log-probability tokens
each (about 1 MB of JSON). Times are the least CPU time of ``--repeat`` runs over all payloads
(after one untimed run: the converter works out each class's plan on first use); "ratio" is the
dataclass variant's time over msgspec's. ``json.loads + from_dict`` is what a user runs on bytes;
``from_dict`` alone is the converter. ``bench/run.py`` prints this table after its own.
"""

from __future__ import annotations

import argparse
import copy
import gc
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import msgspec  # noqa: E402

from schemagen.diagnostics import Reporter  # noqa: E402
from schemagen.frontend.read import read_document  # noqa: E402
from schemagen.project.inputs import Input  # noqa: E402
from schemagen.project.pipeline import Renderer, to_ir  # noqa: E402
from schemagen.render.dataclass import runtime  # noqa: E402
from schemagen.render.options import RenderOptions  # noqa: E402
from modules import exec_module  # noqa: E402
from openai_examples import component_classes, examples  # noqa: E402

OPENAI = ROOT.parent / "shared" / "corpora" / "openai" / "openapi.yaml"


def large_completion(sample: dict[str, Any]) -> dict[str, Any]:
    """The chat completion example grown to 8 choices of 500 tokens with their log probabilities."""
    token = {"token": "Hello", "logprob": -0.31725305, "bytes": [72, 101, 108, 108, 111],
             "top_logprobs": [{"token": t, "logprob": -1.5, "bytes": [104, 105]} for t in ("Hi", "Hey", "Yo")]}
    grown = copy.deepcopy(sample)
    choice = grown["choices"][0]
    choice["logprobs"] = {"content": [token] * 500, "refusal": None}
    grown["choices"] = [{**choice, "index": i} for i in range(8)]
    return grown


def best(repeat: int, run: Callable[[], object]) -> float:
    """The least CPU time of ``repeat`` runs (CPU time: less disturbed than wall time on a shared machine)."""
    run()  # the converter works out each class's plan on first use: not timed
    times = []
    for _ in range(repeat):
        start = time.process_time()
        run()
        times.append(time.process_time() - start)
    return min(times)


def measure(repeat: int = 5) -> str:
    module = to_ir(Input("openai", OPENAI, "openapi.yaml"), OPENAI.parent, Reporter())
    renderer = Renderer(None, RenderOptions())
    texts = {v: renderer.render(module, v, "openapi.yaml") for v in ("dataclass", "msgspec")}
    ms, dc = (exec_module(texts[v], f"openai {v}") for v in ("msgspec", "dataclass"))
    classes = component_classes(module)
    document = read_document(OPENAI, "openapi.yaml")
    both = []
    for _, component, value in examples(document):
        name = classes.get(component)
        data = json.dumps(value).encode()
        try:
            msgspec.json.decode(data, type=getattr(ms, name)) if name else None
            getattr(dc, name).from_dict(json.loads(data)) if name else None
        except (msgspec.ValidationError, ValueError):
            continue
        if name:
            both.append((name, data))
    sample = next(json.loads(d) for n, d in both if n == "CreateChatCompletionResponse")
    large = [("CreateChatCompletionResponse", json.dumps(large_completion(sample)).encode())]
    gc.collect()
    gc.freeze()  # what setting up left (the IR, the module texts): not the collector's work while timed
    rows = ["| payloads | JSON bytes | msgspec.json.decode ms | json.loads + from_dict ms | ratio | from_dict alone ms "
            "| to_dict ms |", "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]  # CPU ms
    for label, payloads, rounds in ((f"{len(both)} examples of the description", both, 20),
                                    ("one large chat completion", large, 1)):
        decoders = [(msgspec.json.Decoder(getattr(ms, n)), getattr(dc, n), d, json.loads(d)) for n, d in payloads]
        size = sum(len(d) for _, _, d, _ in decoders)
        decoders *= rounds  # the small ones several times over, for times well above the clock's noise
        fast = best(repeat, lambda: [decoder.decode(d) for decoder, _, d, _ in decoders]) / rounds
        ours = best(repeat, lambda: [cls.from_dict(json.loads(d)) for _, cls, d, _ in decoders]) / rounds
        alone = best(repeat, lambda: [cls.from_dict(parsed) for _, cls, _, parsed in decoders]) / rounds
        objects = [cls.from_dict(parsed) for _, cls, _, parsed in decoders]
        written = best(repeat, lambda: [o.to_dict() for o in objects]) / rounds
        rows.append(f"| {label} | {size:,} | {fast * 1000:.1f} | {ours * 1000:.1f} | {ours / fast:.1f}× | "
                    f"{alone * 1000:.1f} | {written * 1000:.1f} |")
    converter = runtime("# Generated by schemagen")
    lines = ["| module of the whole description | lines | bytes |", "| --- | ---: | ---: |"]
    for v in ("dataclass", "msgspec"):
        lines.append(f"| {v}_models.py | {texts[v].count(chr(10)):,} | {len(texts[v].encode()):,} |")
    lines.append(f"| the package's converter, `_runtime.py` (imported by the dataclass module) | {converter.count(chr(10)):,} | "
                 f"{len(converter.encode()):,} |")
    metadata = sum(line.count('"nullable": True') + line.count('"null_default": True') for line in texts["dataclass"].splitlines())
    lines.append(f"| fields with `nullable`/`null_default` metadata (dataclass) | {metadata:,} | |")
    return "\n".join(rows) + "\n\n" + "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    if not OPENAI.exists():
        print(f"{OPENAI} is not here: nothing to measure", file=sys.stderr)
        return 1
    print(measure(args.repeat))
    return 0


if __name__ == "__main__":
    sys.exit(main())
