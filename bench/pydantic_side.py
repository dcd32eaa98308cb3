"""schemagen's pydantic variant beside datamodel-code-generator's pydantic v2 output
(``--output-model-type pydantic_v2.BaseModel``) on OpenAI's description (../shared/corpora/openai/openapi.yaml):
what the two modules hold, how fast their models read the same payloads, what importing them costs.

    .venv/bin/python bench/pydantic_side.py [--repeat N] [--dcg FILE]

``make bench`` (bench/run.py, its ``pydantic`` case) times both tools writing the module, in the same
repetitions, then prints these tables, reading the module datamodel-codegen wrote in its last run. Run
alone, this runs datamodel-codegen once (as bench/run.py does: its default formatters), or reads ``--dcg
FILE``, a module it wrote; schemagen's modules are rendered in this process.

- Classes: top-level ``class`` statements, and of them ``RootModel`` and ``Enum`` classes; type aliases;
  lines. ``copies``: classes whose text, their own name taken out, is byte for byte that of a class the
  schema names (a component; its name without the characters an identifier cannot hold), as
  bench/classes.py counts them; ``twins``: classes the schema does not name whose text is that of an
  earlier one of them (one invented class written again under another name). ``numbered``: names the
  schema does not give that end in a number (``Type3``); ``positional``: such names with ``Option<n>`` or
  ``Item<n>`` in them (bench/names.py's rule).
- Reading: the payloads of bench/decode.py (every example object of the description, ``openai_examples``,
  here those whose component is a class in both modules; and its large chat completion), each read by
  ``model_validate_json`` of both modules and, for reference, by ``msgspec.json.decode`` into schemagen's
  msgspec variant. What each refuses is counted, and what one pydantic module refuses and the other reads
  is named (the first few); the times are over the payloads all three read, the least CPU time of
  ``--repeat`` rounds (each round runs every reader once, after an untimed round). The large payload is
  timed twice: as a user runs it, and with the garbage collector paused. Its full collections walk every
  object the decoded payload holds, and how often they come depends on the process more than on the models,
  so the paused row is the one that compares the models.
- Importing: each module imported in a fresh interpreter (byte code already cached), the time of the
  ``import`` statement alone (``import pydantic`` included: its own row says how much), median of
  ``--repeat``, and the process's peak resident set.
"""

from __future__ import annotations

import argparse
import gc
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from classes import blocks  # noqa: E402
from modules import defined_names  # noqa: E402

OPENAI = ROOT.parent / "shared" / "corpora" / "openai" / "openapi.yaml"
PYTHON = ROOT / ".venv" / "bin" / "python"
DCG = ROOT / ".venv" / "bin" / "datamodel-codegen"
DCG_TYPE = "pydantic_v2.BaseModel"
NUMBERED = re.compile(r"\d$")
POSITIONAL = re.compile(r"(Option|Item)\d")
SHOWN = 5
"""Refused payloads named per module."""


# --- classes ------------------------------------------------------------------------------------------

def identifier(component: str) -> str:
    """The class name both tools give a component: its name less what an identifier cannot hold
    (``Beta_AgentTagParam`` → ``BetaAgentTagParam``, ``Error-2`` → ``Error2``)."""
    return re.sub(r"[^0-9A-Za-z]", "", component)


def schema_names(components: Iterable[str]) -> set[str]:
    """The class names the schema gives."""
    return {identifier(name) for name in components}


@dataclass
class Structure:
    classes: int
    root_models: int
    enums: int
    aliases: int
    lines: int
    copies: list[str]
    twins: list[str]
    numbered: list[str]
    positional: list[str]


def structure(text: str, named: set[str]) -> Structure:
    """The counts of one module (``named``: ``schema_names``)."""
    classes, aliases = defined_names(text)
    bases = dict(re.findall(r"^class (\w+)\((.*?)\):", text, re.M))
    bodies = blocks(text)
    components = {bodies[name] for name in classes if name in named}
    invented = [name for name in classes if name not in named]
    seen: set[str] = set()
    twins = []
    for name in invented:
        if bodies[name] in seen:
            twins.append(name)
        seen.add(bodies[name])
    return Structure(
        classes=len(classes),
        root_models=sum("RootModel[" in bases.get(name, "") for name in classes),
        enums=sum(bool(re.search(r"\bEnum\b|\b(Str|Int)Enum\b", bases.get(name, ""))) for name in classes),
        aliases=len(aliases),
        lines=text.count("\n"),
        copies=[name for name in invented if bodies[name] in components],
        twins=twins,
        numbered=[name for name in invented if NUMBERED.search(name)],
        positional=[name for name in invented if POSITIONAL.search(name)],
    )


def structure_table(modules: dict[str, str], named: set[str]) -> str:
    rows = ["| pydantic module of OpenAI's description | classes | of them RootModel | Enum | aliases | lines | "
            "copies | twins | numbered | positional |", "| --- |" + " ---: |" * 9]
    notes = []
    for label, text in modules.items():
        s = structure(text, named)
        share = f"{len(s.numbered):,} ({len(s.numbered) / max(s.classes, 1):.0%})"
        rows.append(f"| {label} | {s.classes:,} | {s.root_models:,} | {s.enums:,} | {s.aliases:,} | {s.lines:,} | "
                    f"{len(s.copies):,} | {len(s.twins):,} | {share} | {len(s.positional):,} |")
        for kind, names in (("numbered", s.numbered), ("copies", s.copies)):
            if names:
                notes.append(f"{label}, {kind}, e.g.: {', '.join(names[:6])}")
    return "\n".join(rows + [""] + [f"- {note}" for note in notes])


# --- reading payloads ---------------------------------------------------------------------------------

@dataclass
class Reader:
    label: str
    read: Callable[[str, bytes], object]
    """(component, JSON) → the value; raises when the payload is refused."""
    has: Callable[[str], bool]
    """Whether the module has a class for the component."""


def pydantic_reader(label: str, module: Any, classes: dict[str, str]) -> Reader:
    """``classes``: component → class name in ``module``."""
    from pydantic import BaseModel

    def model(component: str) -> Any:
        found = getattr(module, classes.get(component, ""), None)
        return found if isinstance(found, type) and issubclass(found, BaseModel) else None

    return Reader(label, lambda component, data: model(component).model_validate_json(data),
                  lambda component: model(component) is not None)


def refusal(exc: Exception) -> str:
    errors = getattr(exc, "errors", None)
    if callable(errors) and errors():
        first = errors()[0]
        return f"{'.'.join(map(str, first['loc'])) or '$'}: {first['msg']}"[:160]
    return str(exc).splitlines()[0][:160]


def refusals(payloads: list[tuple[str, str, bytes]], readers: list[Reader]) -> dict[str, dict[int, str]]:
    """Reader → the payloads it refuses (their index) → why."""
    refused: dict[str, dict[int, str]] = {r.label: {} for r in readers}
    for i, (_, component, data) in enumerate(payloads):
        for reader in readers:
            try:
                reader.read(component, data)
            except Exception as exc:  # noqa: BLE001 (each library raises its own error)
                refused[reader.label][i] = refusal(exc)
    return refused


def interleaved(repeat: int, runs: dict[str, Callable[[], object]], paused: bool = False) -> dict[str, float]:
    """The least CPU time of each run, over ``repeat`` rounds that each do every run once (after an untimed
    round: pydantic and msgspec work out a few things on first use), so that a change of load, or of the
    garbage collector's work, falls on each alike; ``paused``: with the collector paused while timed."""
    for run in runs.values():
        run()
    gc.collect()
    gc.freeze()  # what setting up and the untimed round left: not the collector's work while timed
    times: dict[str, list[float]] = {label: [] for label in runs}
    for _ in range(repeat):
        for label, run in runs.items():
            if paused:
                gc.disable()
            start = time.process_time()
            run()
            times[label].append(time.process_time() - start)
            gc.enable()
    return {label: min(spent) for label, spent in times.items()}


def reading_table(payloads: list[tuple[str, str, bytes]], large: bytes, readers: list[Reader], repeat: int) -> str:
    """``payloads``: (where, component, JSON); ``readers[0]`` is the reference, ``readers[1:]`` the pydantic
    modules."""
    usable = [(where, c, data) for where, c, data in payloads if all(r.has(c) for r in readers)]
    refused = refusals(usable, readers)
    common = [(c, data) for i, (_, c, data) in enumerate(usable) if not any(i in r for r in refused.values())]
    pairs = [(b, a) for j, b in enumerate(readers) for a in readers[:j]]
    rows = ["| payloads (msgspec: `msgspec.json.decode`, schemagen's msgspec variant; the others: "
            "`model_validate_json`) | JSON bytes | " + " | ".join(f"{r.label} ms" for r in readers) + " | " +
            " | ".join(f"{b.label} ÷ {a.label}" for b, a in pairs) + " |",
            "| --- | ---: |" + " ---: |" * (len(readers) + len(pairs))]
    big = [("CreateChatCompletionResponse", large)]
    for what, timed, rounds, paused in ((f"{len(common)} examples all {len(readers)} read", common, 20, False),
                                        ("one large chat completion", big, 1, False),
                                        ("the same, the garbage collector paused", big, 1, True)):
        batch = timed * rounds  # the small ones several times over, for times well above the clock's noise
        spent = interleaved(repeat, {r.label: lambda r=r: [r.read(c, d) for c, d in batch] for r in readers}, paused)
        rows.append(f"| {what} | {sum(len(d) for _, d in timed):,} | " +
                    " | ".join(f"{t / rounds * 1000:.1f}" for t in spent.values()) + " | " +
                    " | ".join(f"{spent[b.label] / spent[a.label]:.2f}×" for b, a in pairs) + " |")
    return "\n".join(rows) + "\n\n" + acceptance_table(usable, len(payloads) - len(usable), refused, readers)


def acceptance_table(usable: list[tuple[str, str, bytes]], left_out: int, refused: dict[str, dict[int, str]],
                     readers: list[Reader]) -> str:
    """How many payloads each reader reads and refuses, and of those it refuses how many each other reads;
    then the first few that one pydantic module refuses and the other reads, with why."""
    rows = [f"| reader (of {len(usable)} examples; {left_out} more have a class in one pydantic module only) | "
            "read | refused | " + " | ".join(f"of them read by {r.label}" for r in readers) + " |",
            "| --- | ---: | ---: |" + " ---: |" * len(readers)]
    for reader in readers:
        mine = refused[reader.label]
        read_by = [str(sum(i not in refused[o.label] for i in mine)) if o is not reader else "" for o in readers]
        rows.append(f"| {reader.label} | {len(usable) - len(mine)} | {len(mine)} | {' | '.join(read_by)} |")
    notes = []
    for reader in readers[1:]:
        for other in readers[1:]:
            only = [(usable[i][0], why) for i, why in refused[reader.label].items() if i not in refused[other.label]]
            if other is not reader and only:
                notes.append(f"- refused by {reader.label}, read by {other.label}: "
                             + "; ".join(f"`{where}`: {why}" for where, why in only[:SHOWN]))
    return "\n".join(rows + ([""] + notes if notes else []))


# --- importing ----------------------------------------------------------------------------------------

IMPORT = ("import re, time; start = time.perf_counter(); import {name}; seconds = time.perf_counter() - start; "
          "print(seconds, re.search(r'VmHWM:\\s*(\\d+)', open('/proc/self/status').read())[1])")
"""The peak is the process's own ``VmHWM`` (``ru_maxrss`` would start from this process's: it is kept across
``exec``)."""


def import_table(modules: dict[str, str], repeat: int) -> str:
    """``modules``: label → source; each timed as ``import`` in a fresh interpreter."""
    rows = [f"| import in a fresh interpreter | lines | median s (of {repeat}) | peak MB |",
            "| --- | ---: | ---: | ---: |"]
    with tempfile.TemporaryDirectory(prefix="schemagen-pydantic-") as folder:
        names = {"`import pydantic` alone": ("pydantic", 0)}
        for i, (label, text) in enumerate(modules.items()):
            (Path(folder) / f"m{i}.py").write_text(text, encoding="utf-8")
            names[label] = (f"m{i}", text.count("\n"))
        for label, (name, lines) in names.items():
            code = IMPORT.format(name=name)
            subprocess.run([PYTHON, "-c", code], cwd=folder, check=True, capture_output=True)  # byte code written
            runs = [subprocess.run([PYTHON, "-c", code], cwd=folder, check=True, capture_output=True, text=True)
                    .stdout.split() for _ in range(repeat)]
            seconds = statistics.median(float(s) for s, _ in runs)
            peak = max(int(kb) for _, kb in runs) / 1024
            rows.append(f"| {label} | {f'{lines:,}' if lines else ''} | {seconds:.2f} | {peak:.0f} |")
    return "\n".join(rows)


# --- all of it ----------------------------------------------------------------------------------------

def run_dcg(folder: Path) -> str:
    target = folder / "openapi.py"
    subprocess.run([DCG, "--input", OPENAI, "--input-file-type", "openapi", "--output-model-type", DCG_TYPE,
                    "--output", target], check=True, capture_output=True)
    return target.read_text(encoding="utf-8")


def report(theirs: str | None, repeat: int = 5) -> str:
    """The three tables; ``theirs``: datamodel-codegen's module (None: schemagen's alone)."""
    import msgspec

    from decode import large_completion
    from modules import exec_module
    from openai_examples import component_classes, examples
    from schemagen.diagnostics import Reporter
    from schemagen.frontend.read import read_document
    from schemagen.project.inputs import Input
    from schemagen.project.pipeline import Renderer, to_ir
    from schemagen.render.options import RenderOptions

    module = to_ir(Input("openai", OPENAI, "openapi.yaml"), OPENAI.parent, Reporter())
    renderer = Renderer(None, RenderOptions())
    ours, reference = (renderer.render(module, v, "openapi.yaml") for v in ("pydantic", "msgspec"))
    texts = {"schemagen (pydantic variant)": ours, **({f"datamodel-codegen ({DCG_TYPE})": theirs} if theirs else {})}
    document = read_document(OPENAI, "openapi.yaml")
    named = schema_names(document["components"]["schemas"])
    out = [structure_table(texts, named)]

    classes = component_classes(module)
    ms = exec_module(reference, "openai msgspec")
    readers = [Reader("msgspec",
                      lambda c, d: msgspec.json.decode(d, type=getattr(ms, classes[c])), lambda c: c in classes),
               pydantic_reader("schemagen", exec_module(ours, "openai pydantic"), classes)]
    if theirs:
        readers.append(pydantic_reader("datamodel-codegen", exec_module(theirs, "openai dcg pydantic"),
                                       {c: identifier(c) for c in document["components"]["schemas"]}))
    payloads = [(where, c, json.dumps(v).encode()) for where, c, v in examples(document)
                if any(r.has(c) for r in readers[1:])]
    sample = next(v for _, c, v in examples(document) if c == "CreateChatCompletionResponse")
    large = json.dumps(large_completion(sample)).encode()
    out.append(reading_table(payloads, large, readers, repeat))
    out.append(import_table({**{f"{label} models": t for label, t in texts.items()},
                             "schemagen (msgspec variant), for reference": reference}, max(repeat, 3)))
    return "\n\n".join(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--dcg", type=Path,
                        help="datamodel-codegen's pydantic module of the description (default: run it)")
    args = parser.parse_args()
    if not OPENAI.exists():
        print(f"{OPENAI} is not here: nothing to measure", file=sys.stderr)
        return 1
    if args.dcg:
        theirs = args.dcg.read_text(encoding="utf-8")
    else:
        with tempfile.TemporaryDirectory(prefix="schemagen-dcg-") as folder:
            theirs = run_dcg(Path(folder))
    print(report(theirs, args.repeat))
    return 0


if __name__ == "__main__":
    sys.exit(main())
