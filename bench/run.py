"""`make bench`: schemagen beside datamodel-code-generator, timed in one run; one Markdown table on stdout.

Cases, each in a throw-away project (a copy of this one's Makefile, pyproject.toml and lock, its .venv
linked), so that what is timed is what a user runs, ``make generate``; each project writes the three
variants datamodel-codegen also writes (this project's own configuration adds the pydantic variant), so
its pyproject.toml differs from this one's and what is run is what ``make generate`` runs there,
``python -m schemagen generate`` (make would first rebuild the linked .venv):

- ``seeds``: this project's ``schemas/``;
- ``openai``: OpenAI's description (../shared/corpora/openai/openapi.yaml, ~1,400 component schemas);
- ``providers``: that description beside this project's ``schemas/`` (several inputs, as a project of
  several providers' specs is); its edit changes a seed (a small input), not OpenAI's;
- ``openai-10``, ``-100``, ``-1000``: subsets of its components, closed under references (cost against
  input size).

Runs: ``cold`` (empty schemagen cache in a fresh ``SCHEMAGEN_CACHE_DIR``, no output yet), ``no-op`` (nothing
changed since the last run), ``edit`` (one component's description changed; a different text each
repetition, so the cache never holds the answer); for ``openai``, also ``edit (shape)`` (a property
added to that component, a different one each repetition: its class gains a field).
datamodel-code-generator has no cache: each of its runs is a cold run, one per variant
(``--output-model-type``), with its default formatters (black, isort); its "all 3" row is the median of the three variants' sum, and their largest peak. Each repetition runs
everything once (schemagen cold, no-op, edit; datamodel-codegen's three variants), so a change of load
on a shared machine falls on all of them alike.

Columns: the median wall time of ``--repeat`` runs; "CPU s", the median user + system time of the run's
processes (less disturbed than wall time when the machine is shared); "peak MB", the largest resident set of any one
process of the run (``/usr/bin/time``'s %M); "tree MB", the largest sum of proportional set sizes over
the run's process tree (``make`` and what it starts), sampled every 20 ms; "ratio": for a schemagen
cold run, datamodel-code-generator's time over schemagen's (× faster) and schemagen's peak over
datamodel-code-generator's; for a no-op or edit run, its time as a share of schemagen's cold run.

With the ``pydantic`` case, schemagen writing only its pydantic variant of OpenAI's description (``variants =
["pydantic"]``), cold and no-op, beside datamodel-codegen's ``pydantic_v2.BaseModel`` output, in the same
repetitions; then, after the table, the tables of bench/pydantic_side.py (classes, copies and numbered names of
both modules; ``model_validate_json`` on the same payloads; import time), from the module of its last run.

Then, with the ``decode`` case, a second table (bench/decode.py): reading OpenAI-sized payloads with the
dataclass variant's ``from_dict`` beside msgspec reading the msgspec variant (the ratio), and the size of
both modules of OpenAI's whole description, with the converter's share.

Then, with the ``growth`` case, a third (bench/growth.py): how the cost grows with each shape of schema
(depth, unions in unions, ``allOf`` and ``$ref`` chains, width, long enums, shared members), ×2 a step.

    .venv/bin/python bench/run.py [--quick] [--repeat N] [--no-dcg]
                                  [--cases seeds,openai,subsets,pydantic,decode,growth]

``--quick``: one repetition, no 1,000-schema subset. Not part of ``make test``.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OPENAI = ROOT.parent / "shared" / "corpora" / "openai" / "openapi.yaml"
PYTHON = ROOT / ".venv" / "bin" / "python"
DCG = ROOT / ".venv" / "bin" / "datamodel-codegen"
DCG_TYPES = {"dataclass": "dataclasses.dataclass", "typeddict": "typing.TypedDict", "msgspec": "msgspec.Struct"}
THREE = tuple(DCG_TYPES)
"""What a case's project writes, unless it says otherwise: the variants datamodel-codegen writes too."""
SUBSETS = (10, 100, 1000)

sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))


@dataclass
class Sample:
    seconds: float
    peak_mb: float
    tree_mb: float
    cpu: float = 0.0
    """User and system CPU seconds of the run and all its processes."""


@dataclass
class Row:
    case: str
    tool: str
    variants: str
    run: str
    samples: list[Sample] = field(default_factory=list)
    note: str = ""

    @property
    def seconds(self) -> float:
        return statistics.median(s.seconds for s in self.samples)

    @property
    def peak(self) -> float:
        return max(s.peak_mb for s in self.samples)

    @property
    def tree(self) -> float:
        return max(s.tree_mb for s in self.samples)

    @property
    def cpu(self) -> float:
        return statistics.median(s.cpu for s in self.samples)


# --- measuring one run --------------------------------------------------------------------------------

def _children(pid: int) -> list[int]:
    found = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as handle:
                found += [int(p) for p in handle.read().split()]
    except OSError:
        pass
    return found


def _pss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup") as handle:
            for line in handle:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def _tree_pss_kb(root: int) -> int:
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        total += _pss_kb(pid)
        todo += _children(pid)
    return total


TIME = Path("/usr/bin/time")


def measure(command: Sequence[str | Path], cwd: Path, env: dict[str, str]) -> Sample:
    """Wall time, peak resident set, peak tree PSS (sampled) of one run; fails on a non-zero exit.

    The peak resident set comes from ``/usr/bin/time`` when there is one: a child of this process
    would report this process's own peak (Linux keeps the high-water mark across ``exec``)."""
    with tempfile.TemporaryFile() as log, tempfile.NamedTemporaryFile("r") as rss:
        if TIME.exists():
            command = [TIME, "-f", "%M", "-o", rss.name, *command]
        start = time.perf_counter()
        process = subprocess.Popen([str(c) for c in command], cwd=cwd, env=env, stdout=log, stderr=log)
        peak_tree = 0
        done = threading.Event()

        def sample() -> None:
            nonlocal peak_tree
            while not done.is_set():
                peak_tree = max(peak_tree, _tree_pss_kb(process.pid))
                done.wait(0.02)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        done.set()
        sampler.join()
        if process.returncode != 0:
            log.seek(0)
            tail = log.read().decode(errors="replace")[-3000:]
            raise SystemExit(f"failed ({process.returncode}): {' '.join(map(str, command))} in {cwd}\n{tail}")
        reported = rss.read().split()
        peak_kb = int(reported[-1]) if TIME.exists() and reported and reported[-1].isdigit() else usage.ru_maxrss
    return Sample(seconds, peak_kb / 1024, peak_tree / 1024, usage.ru_utime + usage.ru_stime)


# --- projects -----------------------------------------------------------------------------------------

SNAPSHOT: Path | None = None
"""A copy of generator/ and templates/ taken when the bench starts, run instead of the working tree (an
edit made meanwhile would make every no-op run a full one)."""


def snapshot(work: Path) -> Path:
    folder = work / "snapshot"
    for name in ("generator", "templates"):
        shutil.copytree(ROOT / name, folder / name, ignore=shutil.ignore_patterns("__pycache__"))
    return folder


def environment(cache: Path | None = None) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # both tools run as installed: byte code cached
    env.pop("MAKEFLAGS", None)
    if SNAPSHOT is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(SNAPSHOT), *filter(None, [env.get("PYTHONPATH")])])
    if cache is not None:
        env["SCHEMAGEN_CACHE_DIR"] = str(cache)
    return env


def project(folder: Path, schemas: dict[str, Path | str], variants: tuple[str, ...] = THREE) -> Path:
    """A project like this one (same Makefile, configuration, lock, .venv) with ``schemas``, writing
    ``variants`` (the three datamodel-codegen writes too, unless a case says otherwise: this project's own
    configuration writes the pydantic variant as well)."""
    folder.mkdir(parents=True)
    for name in ("Makefile", "pyproject.toml", "requirements.lock"):
        shutil.copy(ROOT / name, folder / name)
    config = folder / "pyproject.toml"
    text = re.sub(r"(?m)^variants = .*\n", "", config.read_text(encoding="utf-8"))
    line = "variants = [" + ", ".join(f'"{v}"' for v in variants) + "]"
    config.write_text(text.replace("[tool.schemagen]\n", f"[tool.schemagen]\n{line}\n", 1), encoding="utf-8")
    (folder / ".venv").symlink_to(ROOT / ".venv")
    (folder / "schemas").mkdir()
    for name, content in schemas.items():
        target = folder / "schemas" / name
        if isinstance(content, Path) and content.is_dir():
            shutil.copytree(content, target)
        elif isinstance(content, Path):
            shutil.copy(content, target)
        else:
            target.write_text(content, encoding="utf-8")
    return folder


def make_generate(folder: Path) -> list[str | Path]:
    stamp = subprocess.run("cat pyproject.toml requirements.lock | cksum | cut -d' ' -f1", shell=True, cwd=folder,
                           capture_output=True, text=True).stdout.strip()
    if not (ROOT / ".venv" / f".installed-{stamp}").exists():  # make would rebuild the venv: run what it runs
        return [PYTHON, "-m", "schemagen", "generate"]
    return ["make", "-s", "generate"]


# --- the runs -----------------------------------------------------------------------------------------

class Bench:
    def __init__(self, work: Path, repeat: int, dcg: bool) -> None:
        self.work = work
        self.repeat = repeat
        self.dcg = dcg
        self.rows: list[Row] = []
        self.count = 0
        self.outputs: dict[str, Path] = {}
        """``--output-model-type`` → the folder of datamodel-codegen's last run of it."""

    def note(self, text: str) -> None:
        print(f"[bench {time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)

    def fresh(self, name: str) -> Path:
        self.count += 1
        return self.work / f"{self.count:03}-{name}"

    def case(self, case: str, folder: Path, edit: Callable[[Path, int], None] | None,
             inputs: list[tuple[Path, str]], variants: str = "all 3", types: dict[str, str] = DCG_TYPES,
             reshape: Callable[[Path, int], None] | None = None) -> None:
        """Repetition by repetition, so that a change of load on a shared machine falls on every run alike:
        schemagen cold, no-op and edit (and, with ``reshape``, an edit of the shape), then datamodel-codegen once
        per variant (``types``; with several, their sum is a row too). ``variants``: what the project's
        configuration writes."""
        command = make_generate(folder)
        ours = {run: Row(case, "schemagen", variants, run) for run in ("cold", "no-op", "edit", "edit (shape)")}
        theirs = {variant: Row(case, "datamodel-codegen", variant, "cold") for variant in types}
        both = Row(case, "datamodel-codegen", variants, "cold")
        for i in range(self.repeat):
            self.note(f"{case}: repetition {i + 1}/{self.repeat}")
            shutil.rmtree(folder / "generated", ignore_errors=True)
            env = environment(self.fresh("cache"))
            ours["cold"].samples.append(measure(command, folder, env))
            ours["no-op"].samples.append(measure(command, folder, env))
            for run, change in (("edit", edit), ("edit (shape)", reshape)):
                if change is not None:
                    change(folder, i + 1)
                    ours[run].samples.append(measure(command, folder, env))
                    change(folder, 0)  # back to the original
            if self.dcg:
                samples = [self.datamodel_codegen(inputs, model_type) for model_type in types.values()]
                for row, sample in zip(theirs.values(), samples):
                    row.samples.append(sample)
                both.samples.append(Sample(sum(s.seconds for s in samples), max(s.peak_mb for s in samples),
                                           max(s.tree_mb for s in samples), sum(s.cpu for s in samples)))
        self.rows += [row for row in ours.values() if row.samples]
        if self.dcg:
            self.rows += [*theirs.values(), *([both] if len(types) > 1 else [])]

    def datamodel_codegen(self, inputs: list[tuple[Path, str]], model_type: str) -> Sample:
        """One variant; with several inputs, one run each, their numbers added up."""
        out = self.fresh("dcg")
        out.mkdir()
        total = Sample(0, 0, 0)
        for path, kind in inputs:
            target = out / (path.stem + ("" if path.is_dir() else ".py"))
            sample = measure([DCG, "--input", path, "--input-file-type", kind, "--output-model-type", model_type,
                              "--output", target], out, environment())
            total = Sample(total.seconds + sample.seconds, max(total.peak_mb, sample.peak_mb),
                           max(total.tree_mb, sample.tree_mb), total.cpu + sample.cpu)
        self.outputs[model_type] = out
        return total


def edit_json_description(path: Path) -> Callable[[Path, int], None]:
    original = path.read_text(encoding="utf-8")

    def edit(folder: Path, i: int) -> None:
        text = original if i == 0 else original.replace('"description": "', f'"description": "Edited {i}. ', 1)
        (folder / "schemas" / path.relative_to(ROOT / "schemas")).write_text(text, encoding="utf-8")
    return edit


def edit_yaml_component(original: str, name: str) -> Callable[[Path, int], None]:
    """Changes the description of one component of an OpenAPI YAML document (a plain one-line scalar)."""
    lines = original.splitlines(keepends=True)
    start = lines.index(f"    {name}:\n")
    for index in range(start + 1, len(lines)):
        line = lines[index]
        if not line.startswith("      "):
            raise SystemExit(f"{name} has no one-line description to edit")
        match = re.match(r"      description: ([^|>'\"\s].*)\n", line)
        if match and not lines[index + 1].startswith("       "):
            break

    def edit(folder: Path, i: int) -> None:
        changed = list(lines)
        if i:
            changed[index] = line.rstrip("\n") + f" (edited {i})\n"
        (folder / "schemas" / "openapi.yaml").write_text("".join(changed), encoding="utf-8")
    return edit


def reshape_yaml_component(original: str, name: str) -> Callable[[Path, int], None]:
    """Adds a property (a different one each repetition) to one component of an OpenAPI YAML document: an
    edit of its shape, which changes its class's fields, not only a docstring."""
    lines = original.splitlines(keepends=True)
    start = lines.index(f"    {name}:\n")
    index = next((i for i in range(start + 1, len(lines)) if lines[i] == "      properties:\n"
                  and all(line.startswith("      ") for line in lines[start + 1:i])), None)
    if index is None:
        raise SystemExit(f"{name} has no properties to add one to")

    def edit(folder: Path, i: int) -> None:
        added = [f"        edited_{i}:\n", "          type: string\n"] if i else []
        (folder / "schemas" / "openapi.yaml").write_text("".join(lines[:index + 1] + added + lines[index + 1:]),
                                                         encoding="utf-8")
    return edit


def first_editable_component(text: str) -> str:
    in_schemas = False
    name = None
    for line in text.splitlines():
        if line == "  schemas:":
            in_schemas = True
        elif in_schemas and re.fullmatch(r"    [A-Za-z0-9_.-]+:", line):
            name = line.strip()[:-1]
        elif in_schemas and name and re.fullmatch(r"      description: [^|>'\"\s].*", line):
            return name
    raise SystemExit("no component with a one-line description")


# --- the table ----------------------------------------------------------------------------------------

def table(rows: list[Row], repeat: int) -> str:
    lines = [f"| case | tool | variants | run | median s (of {repeat}) | CPU s | peak MB | tree MB | ratio |",
             "| --- | --- | --- | --- | ---: | ---: | ---: | ---: | --- |"]
    for row in rows:
        ratio = row.note
        cold = next((r for r in rows if r.case == row.case and r.tool == "schemagen" and r.run == "cold"
                     and r.variants == row.variants), None)
        if row.tool == "schemagen" and cold is not None:
            dcg = next((r for r in rows if r.case == row.case and r.tool == "datamodel-codegen"
                        and r.variants == row.variants), None)
            if row.run == "cold" and dcg is not None:
                ratio = f"{dcg.seconds / row.seconds:.1f}× faster; peak {row.peak / dcg.peak:.2f} of its"
            elif row.run != "cold":
                ratio = f"{row.seconds / cold.seconds:.1%} of cold"
        seconds, cpu = (f"{x:.2f}" if x < 10 else f"{x:.1f}" for x in (row.seconds, row.cpu))
        lines.append(f"| {row.case} | {row.tool} | {row.variants} | {row.run} | {seconds} | {cpu} | {row.peak:.0f} | "
                     f"{row.tree:.0f} | {ratio} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="one repetition, no 1,000-schema subset")
    parser.add_argument("--repeat", type=int, default=None, help="repetitions per measurement (default 3)")
    parser.add_argument("--no-dcg", dest="dcg", action="store_false", help="leave datamodel-codegen out")
    parser.add_argument("--cases", default="seeds,openai,providers,subsets,pydantic,decode,growth",
                        help="comma-separated: seeds, openai, providers, subsets, pydantic, decode, growth")
    parser.add_argument("--keep", type=Path, help="work in this folder and keep it (default: a temporary one)")
    args = parser.parse_args(argv)
    repeat = args.repeat or (1 if args.quick else 3)
    cases = set(args.cases.split(","))
    work = args.keep or Path(tempfile.mkdtemp(prefix="schemagen-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    bench = Bench(work, repeat, args.dcg)
    global SNAPSHOT
    SNAPSHOT = snapshot(work)
    try:
        startup = Row("start-up", "python", "-", "`python -c pass`")
        imports = Row("start-up", "schemagen", "-", "`import schemagen.cli`")
        measure([PYTHON, "-c", "import schemagen.cli"], ROOT, environment())  # byte code written once
        for _ in range(max(repeat, 3)):
            startup.samples.append(measure([PYTHON, "-c", "pass"], ROOT, environment()))
            imports.samples.append(measure([PYTHON, "-c", "import schemagen.cli"], ROOT, environment()))
        bench.rows += [startup, imports]

        if "seeds" in cases:
            folder = project(bench.fresh("seeds"), {p.name: p for p in sorted((ROOT / "schemas").iterdir())})
            bench.case("seeds", folder, edit_json_description(ROOT / "schemas" / "openai" / "TokenLogprob.json"),
                       [(p, "jsonschema") for p in sorted((ROOT / "schemas").iterdir())])
        if cases & {"openai", "providers", "subsets", "pydantic", "decode"} and not OPENAI.exists():
            bench.note(f"{OPENAI} is not here: OpenAI cases left out")
            cases -= {"openai", "providers", "subsets", "pydantic", "decode"}
        if "openai" in cases:
            text = OPENAI.read_text(encoding="utf-8")
            folder = project(bench.fresh("openai"), {"openapi.yaml": OPENAI})
            component = first_editable_component(text)
            bench.note(f"openai: the edit changes the description of {component}; the edit of the shape adds "
                       "a property to it")
            bench.case("openai", folder, edit_yaml_component(text, component), [(OPENAI, "openapi")],
                       reshape=reshape_yaml_component(text, component))
        if "providers" in cases:  # several inputs: an edit of a small one beside a large one
            seeds = {p.name: p for p in sorted((ROOT / "schemas").iterdir())}
            folder = project(bench.fresh("providers"), {**seeds, "openapi.yaml": OPENAI})
            bench.note("providers: the edit changes a description of the seed TokenLogprob.json, beside OpenAI's")
            bench.case("providers", folder, edit_json_description(ROOT / "schemas" / "openai" / "TokenLogprob.json"),
                       [*((p, "jsonschema") for p in seeds.values()), (OPENAI, "openapi")])
        if "subsets" in cases:
            import yaml
            from subset import closed_subset

            from schemagen.frontend.read import read_document

            document = read_document(OPENAI, "openapi.yaml")
            for size in SUBSETS[:2] if args.quick else SUBSETS:
                subset = closed_subset(document, size)
                count = len(subset["components"]["schemas"])
                case = f"openai-{count}"
                path = bench.fresh(f"subset-{size}.yaml")
                path.write_text(yaml.dump(subset, Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper), sort_keys=False,
                                          allow_unicode=True), encoding="utf-8")
                folder = project(bench.fresh(case), {"openapi.yaml": path})
                bench.case(case, folder, None, [(path, "openapi")])
        theirs = None
        if "pydantic" in cases:
            from pydantic_side import DCG_TYPE

            folder = project(bench.fresh("openai-pydantic"), {"openapi.yaml": OPENAI}, ("pydantic",))
            bench.case("openai", folder, None, [(OPENAI, "openapi")], "pydantic", {"pydantic": DCG_TYPE})
            theirs = (bench.outputs[DCG_TYPE] / "openapi.py").read_text(encoding="utf-8") if args.dcg else None
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)
    print(table(bench.rows, repeat))
    if "pydantic" in cases:
        from pydantic_side import report as pydantic_report

        bench.note("pydantic: classes, model_validate_json and imports of both tools' pydantic modules")
        print("\n" + pydantic_report(theirs, max(repeat, 5)))
    if "decode" in cases:
        from decode import measure as decoding

        bench.note("decode: from_dict beside msgspec on OpenAI's examples")
        print("\n" + decoding(max(repeat, 5)))
    if "growth" in cases:
        from growth import SIZES as GROWTH_SIZES, report as growth

        bench.note("growth: each shape of bench/shapes.py at sizes ×2")
        print("\n" + growth(sizes=GROWTH_SIZES[:4] if args.quick else GROWTH_SIZES, repeat=repeat))
    print(f"\n{os.cpu_count()} CPUs; load average before the last run: {os.getloadavg()[0]:.1f}; "
          f"{time.strftime('%Y-%m-%d %H:%M')}; python {sys.version.split()[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
