"""The generator on a corpus of real schemas (SchemaStore), side by side with datamodel-code-generator.

Layout of a corpus folder (``CORPUS=<folder>``)::

    json/<name>.json              the schemas
    test/<name>/*                 instances the schema should accept (.json, .yaml/.yml, .toml)
    negative_test/<name>/*        instances it should reject

For every schema, in child processes (a per-schema timeout; a hang, a crash of the interpreter or
a timeout in one cannot stop the run):

- **validity**: every instance is checked with the ``jsonschema`` library
  (``validator_for(schema)``; ``$ref``s to other SchemaStore schemas are served from the corpus,
  nothing is fetched). An instance it cannot check (an unresolvable ``$ref``, a regex Python cannot
  compile) is "undetermined" and left out of the "of valid" shares.
- **schemagen**: ``to_ir`` and the three variants are rendered and executed (each module in a
  fresh namespace registered in ``sys.modules`` under a unique name); the msgspec variant builds a
  decoder for each of its types and decodes every instance with the root type (``module.root``,
  ``Any`` if None). Outcome per variant: *generated*, *clean error* (``SchemaError``) or *crash*
  (any other exception, code that does not execute, a type msgspec refuses, a timeout).
- **dcg**: ``datamodel-codegen ... --output-model-type msgspec.Struct`` in a subprocess; a non-zero
  exit, a timeout or no output is its *clean error*; output that does not execute, or a root type
  msgspec refuses, is its *crash*. The root is named with ``--class-name``.

Instances are read as JSON, YAML (PyYAML ``safe_load``; a multi-document file gives one instance
per document) or TOML (``tomllib``) and turned into JSON text (dates and times as ISO strings), so
jsonschema and msgspec (``msgspec.json.Decoder(root)``) see the same data.

Usage::

    python bench/corpus.py [--corpus DIR] [--report FILE] [--jobs 2] [--no-dcg] [--every K] [--only NAME ...]

The summary table goes to stdout, per-schema details to ``--report`` (default
``$TMPDIR/corpus-report.md``). ``make corpus [CORPUS=<folder>]`` runs it.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import multiprocessing
import multiprocessing.connection
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
import traceback
import types
import typing
import urllib.parse
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import msgspec
import yaml
from jsonschema.validators import validator_for
from referencing import Registry, Resource
from referencing.exceptions import NoSuchResource
from referencing.jsonschema import DRAFT7

ROOT = Path(__file__).resolve().parent.parent
for _folder in (ROOT, ROOT / "bench"):
    if str(_folder) not in sys.path:
        sys.path.insert(0, str(_folder))

from modules import defined_names, describe, exec_module, forget_module, one_line  # noqa: E402

from schemagen.diagnostics import Reporter, SchemaError  # noqa: E402
from schemagen.frontend import metaschemas  # noqa: E402
from schemagen.project.inputs import Input
from schemagen.project.pipeline import Renderer, to_ir  # noqa: E402
from schemagen.render.options import RenderOptions  # noqa: E402

DEFAULT_CORPUS = ROOT.parent / "shared" / "corpora" / "schemastore"
VARIANTS = ("dataclass", "typeddict", "msgspec")
KINDS = ("test", "negative_test")
SCHEMA_TIMEOUT = 60.0
"""Seconds for one schema in one child process: its validity check, or each variant schemagen makes of
it (a schemagen task has this times the number of variants, as datamodel-codegen has ``DCG_TIMEOUT``
for its one variant). SchemaStore's vector.json, 1.5 MB, takes about 50 s for the three on a free
machine (7 MB of code each, through black)."""
DCG_TIMEOUT = 60.0
"""Seconds for one ``datamodel-codegen`` subprocess."""
DCG_ROOT = "SchemagenCorpusRoot"
"""The class name given to DCG's root model (``--class-name``)."""
DCG_FLAGS = ("--input-file-type", "jsonschema", "--output-model-type", "msgspec.Struct",
             "--target-python-version", "3.11", "--use-annotated", "--use-standard-collections",
             "--use-union-operator", "--no-allow-remote-refs", "--disable-timestamp",
             "--use-msgspec-tagged-unions", "--use-msgspec-nullable-enum-alias", "--disable-warnings",
             "--formatters", "builtin", "--class-name", DCG_ROOT)

Result = dict[str, Any]
"""What a task returns: plain dicts, lists and strings (they cross a pipe)."""


# --------------------------------------------------------------------------------------------
# Instances


def _jsonable(value: Any) -> Any:
    """YAML and TOML values JSON has no word for: dates and times as ISO strings, bytes as text."""
    if isinstance(value, (_dt.datetime, _dt.date, _dt.time)):
        return value.isoformat()
    if isinstance(value, bytes):
        return value.decode("latin-1")
    raise TypeError(f"{type(value).__name__} is not JSON")


def load_instances(folder: Path) -> list[tuple[str, str | None, str | None]]:
    """``(id, JSON text, load error)`` of every instance file in ``folder``, sorted by file name.

    The id is the file name (``file#k`` for the k-th document of a multi-document YAML file).
    """
    found: list[tuple[str, str | None, str | None]] = []
    if not folder.is_dir():
        return found
    for path in sorted(p for p in folder.iterdir() if p.is_file()):
        suffix = path.suffix.lower()
        try:
            text = path.read_text(encoding="utf-8-sig")
            if suffix == ".json":
                values = [(path.name, json.loads(text))]
            elif suffix in (".yaml", ".yml"):
                documents = list(yaml.safe_load_all(text))
                if len(documents) == 1:
                    values = [(path.name, documents[0])]
                else:
                    values = [(f"{path.name}#{k}", d) for k, d in enumerate(documents)]
            elif suffix == ".toml":
                values = [(path.name, tomllib.loads(text))]
            else:
                continue
        except Exception as exc:  # noqa: BLE001 - an unreadable instance is reported, not fatal
            found.append((path.name, None, f"{type(exc).__name__}: {one_line(str(exc))}"))
            continue
        for ident, value in values:
            try:
                found.append((ident, json.dumps(value, default=_jsonable, ensure_ascii=False), None))
            except (TypeError, ValueError) as exc:
                found.append((ident, None, f"{type(exc).__name__}: {one_line(str(exc))}"))
    return found


def instances_of(corpus: Path, name: str) -> dict[str, list[tuple[str, str | None, str | None]]]:
    return {kind: load_instances(corpus / kind / name) for kind in KINDS}


# --------------------------------------------------------------------------------------------
# Helpers shared with the tests (tests/test_fuzz.py uses check_msgspec_types)


def traceback_tail(exc: BaseException, lines: int = 4) -> str:
    """The last frames of ``exc``'s traceback and its message (the part that says where it broke)."""
    text = "".join(traceback.format_exception(exc)).rstrip().splitlines()
    return "\n".join(text[-lines * 2 - 1:])


def check_msgspec_types(module: types.ModuleType, source: str) -> list[tuple[str, str]]:
    """``(name, error)`` for each type of a msgspec module for which msgspec cannot build a decoder."""
    problems = []
    classes, aliases = defined_names(source)
    for name in classes + aliases:
        value = getattr(module, name, None)
        try:
            msgspec.json.Decoder(value)
        except Exception as exc:  # noqa: BLE001
            problems.append((name, describe(exc)))
    return problems


def decode_all(decoder: msgspec.json.Decoder[Any], instances: Sequence[tuple[str, str | None, str | None]]
               ) -> dict[str, str | None]:
    """Instance id → ``None`` (accepted) or why it was rejected; unreadable instances are skipped.

    A ``ValidationError`` or ``DecodeError`` is a rejection; any other exception is a rejection whose
    message starts with ``CRASH``.
    """
    outcome: dict[str, str | None] = {}
    for ident, text, error in instances:
        if text is None or error is not None:
            continue
        try:
            decoder.decode(text.encode())
        except (msgspec.ValidationError, msgspec.DecodeError) as exc:
            outcome[ident] = one_line(str(exc))
        except Exception as exc:  # noqa: BLE001
            outcome[ident] = "CRASH " + describe(exc)
        else:
            outcome[ident] = None
    return outcome


# --------------------------------------------------------------------------------------------
# Tasks (each runs in a child process)


def _schemastore_registry(corpus: Path) -> Any:
    """A ``referencing`` registry that serves ``$ref``s to other schemas from ``corpus/json`` (no network)."""
    folder = corpus / "json"

    def retrieve(uri: str) -> Resource[Any]:
        stem = uri.split("#", 1)[0].rstrip("/").rsplit("/", 1)[-1]
        candidate = folder / stem
        if stem and candidate.is_file():
            # A file without `$schema` is read as draft 7, the draft of most of SchemaStore.
            return Resource.from_contents(json.loads(candidate.read_text(encoding="utf-8-sig")),
                                          default_specification=DRAFT7)
        raise NoSuchResource(ref=uri)  # type: ignore[call-arg]

    return Registry(retrieve=retrieve)  # type: ignore[call-arg]


def task_validity(corpus: Path, name: str) -> Result:
    """Each instance: ``True`` (the schema accepts it), ``False``, or ``None`` (could not tell, with why)."""
    schema = json.loads((corpus / "json" / f"{name}.json").read_text(encoding="utf-8-sig"))
    result: Result = {"valid": {}, "why": {}}
    try:
        cls = validator_for(schema)
        validator = cls(schema, registry=_schemastore_registry(corpus))
    except Exception as exc:  # noqa: BLE001
        validator, setup_error = None, describe(exc)
    for kind, instances in instances_of(corpus, name).items():
        verdicts: dict[str, bool | None] = {}
        for ident, text, error in instances:
            if text is None or error is not None:
                continue
            if validator is None:
                verdicts[ident] = None
                result["why"][f"{kind}/{ident}"] = setup_error
                continue
            try:
                verdicts[ident] = validator.is_valid(json.loads(text))
            except Exception as exc:  # noqa: BLE001 - e.g. referencing.exceptions.Unresolvable, re.error
                verdicts[ident] = None
                result["why"][f"{kind}/{ident}"] = describe(exc)
        result["valid"][kind] = verdicts
    return result


def _outcome(status: str, detail: str = "", phase: str = "") -> Result:
    return {"status": status, "detail": detail, "phase": phase}


def task_schemagen(corpus: Path, name: str, variants: Sequence[str] = VARIANTS, decode: bool = True,
                   dialect: str = "auto") -> Result:
    """Generate every variant of one schema; for msgspec, decode its instances."""
    path = corpus / "json" / f"{name}.json"
    result: Result = {"variants": {}, "decode": {}, "seconds": {}, "warnings": 0}
    start = time.perf_counter()
    reporter = Reporter()
    phase("to_ir")
    try:
        module = to_ir(Input("corpus_case", path, path.name, dialect), path.parent, reporter)  # type: ignore[arg-type]
    except SchemaError as exc:
        first = exc.diagnostics[0] if exc.diagnostics else None
        detail = one_line(str(first) if first is not None else str(exc))
        if len(exc.diagnostics) > 1:
            detail += f" (+{len(exc.diagnostics) - 1} more)"
        result["variants"] = {v: _outcome("error", detail, "to_ir") for v in variants}
        return result
    except Exception as exc:  # noqa: BLE001 - a crash is what we count
        result["variants"] = {v: _outcome("crash", traceback_tail(exc), "to_ir") for v in variants}
        return result
    finally:
        result["seconds"]["to_ir"] = time.perf_counter() - start
        result["warnings"] = len(reporter.warnings)
    renderer = _renderer()
    for variant in variants:
        start = time.perf_counter()
        result["variants"][variant] = _generate(module, variant, path.name, renderer, corpus, name, decode, result)
        result["seconds"][variant] = time.perf_counter() - start
    return result


_RENDERER: Renderer | None = None


def _renderer() -> Renderer:
    """One renderer per process, as a command has (made before the children are forked, it is theirs too)."""
    global _RENDERER
    if _RENDERER is None:
        _RENDERER = Renderer(None, RenderOptions())
    return _RENDERER


def warm_up() -> None:
    """Compile the templates and load black's grammar here, once, rather than in every child."""
    with tempfile.TemporaryDirectory(prefix="schemagen-corpus-") as tmp:
        path = Path(tmp) / "warm.json"
        path.write_text(json.dumps({"title": "Warm", "type": "object", "properties": {"a": {"type": "string"}}}))
        module = to_ir(Input("warm", path, path.name), path.parent, Reporter())
        for variant in VARIANTS:
            _renderer().render(module, variant, path.name)


def _generate(module: Any, variant: str, label: str, renderer: Renderer, corpus: Path, name: str, decode: bool,
              result: Result) -> Result:
    phase(f"render {variant}")
    try:
        source = renderer.render(module, variant, label)
    except SchemaError as exc:
        return _outcome("error", one_line(str(exc)), "render")
    except Exception as exc:  # noqa: BLE001
        return _outcome("crash", traceback_tail(exc), "render")
    try:
        namespace = exec_module(source, f"{name} {variant}")
    except Exception as exc:  # noqa: BLE001
        return _outcome("crash", traceback_tail(exc), "import")
    try:
        if variant != "msgspec":
            return _outcome("generated")
        problems = check_msgspec_types(namespace, source)
        if problems:
            shown = "; ".join(f"{n}: {e}" for n, e in problems[:3])
            return _outcome("crash", f"msgspec refuses {len(problems)} type(s): {shown}", "decoder")
        try:
            root = typing.Any if module.root is None else getattr(namespace, module.root)
            decoder = msgspec.json.Decoder(root)
        except Exception as exc:  # noqa: BLE001
            return _outcome("crash", traceback_tail(exc), "decoder")
        if decode:
            phase("decode")
            result["decode"] = {kind: decode_all(decoder, instances)
                                for kind, instances in instances_of(corpus, name).items()}
        return _outcome("generated")
    finally:
        forget_module(namespace)


def task_dcg(corpus: Path, name: str, timeout: float = DCG_TIMEOUT) -> Result:
    """datamodel-codegen's msgspec output for one schema, and its instances decoded with the root."""
    path = corpus / "json" / f"{name}.json"
    exe = Path(sys.executable).with_name("datamodel-codegen")
    result: Result = {"variants": {}, "decode": {}, "seconds": {}}
    start = time.perf_counter()
    phase("datamodel-codegen")
    with tempfile.TemporaryDirectory(prefix="schemagen-corpus-dcg-") as tmp:
        out = Path(tmp) / "models.py"
        try:
            done = subprocess.run([str(exe), "--input", str(path), "--output", str(out), *DCG_FLAGS],
                                  cwd=tmp, capture_output=True, text=True, timeout=timeout,
                                  stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            result["variants"]["msgspec"] = _outcome("error", f"timeout after {timeout:.0f}s", "dcg")
            return result
        finally:
            result["seconds"]["dcg"] = time.perf_counter() - start
        if done.returncode != 0 or not out.is_file():
            lines = [line for line in (done.stderr or done.stdout).splitlines() if line.strip()]
            message = lines[-1] if lines else f"exit status {done.returncode}, no output"
            result["variants"]["msgspec"] = _outcome("error", one_line(message), "dcg")
            return result
        source = out.read_text()
    try:
        namespace = exec_module(source, f"{name} dcg")
    except Exception as exc:  # noqa: BLE001
        result["variants"]["msgspec"] = _outcome("crash", traceback_tail(exc), "import")
        return result
    try:
        root = getattr(namespace, DCG_ROOT, None)
        note = "" if root is not None else f"no {DCG_ROOT} in the output: decoded as Any"
        decoder = msgspec.json.Decoder(typing.Any if root is None else root)
    except Exception as exc:  # noqa: BLE001
        forget_module(namespace)
        result["variants"]["msgspec"] = _outcome("crash", traceback_tail(exc), "decoder")
        return result
    phase("decode")
    result["decode"] = {kind: decode_all(decoder, instances) for kind, instances in instances_of(corpus, name).items()}
    forget_module(namespace)
    result["variants"]["msgspec"] = _outcome("generated", note)
    return result


# --------------------------------------------------------------------------------------------
# Running tasks in child processes


Task = tuple[str, str, Callable[..., Result], tuple[Any, ...], float]
"""``(tool, schema name, function, arguments, timeout)``."""


_phase_connection: multiprocessing.connection.Connection | None = None
"""In a child process: where ``phase`` reports what the task is doing (so a timeout can say where)."""


def phase(name: str) -> None:
    """Tell the parent which step the task has reached (no-op outside a child process)."""
    if _phase_connection is not None:
        _phase_connection.send(("phase", name))


def _child(connection: multiprocessing.connection.Connection, function: Callable[..., Result],
           arguments: tuple[Any, ...]) -> None:
    global _phase_connection
    _phase_connection = connection
    try:
        result = function(*arguments)
    except BaseException as exc:  # noqa: BLE001 - reported to the parent as a crash of the task
        result = {"task_crash": traceback_tail(exc)}
    _phase_connection = None
    connection.send(result)
    connection.close()


def run_tasks(tasks: Sequence[Task], jobs: int, progress: Callable[[int, int, Task, Result], None] | None = None
              ) -> dict[tuple[str, str], Result]:
    """Run ``tasks`` in at most ``jobs`` child processes at a time (fork), each with its own timeout.

    A task that times out, or whose process dies without an answer, gives ``{"task_crash": why}``.
    ``jobs == 0`` runs them here, one after the other, without a timeout (for a debugger).
    """
    results: dict[tuple[str, str], Result] = {}
    if jobs == 0:
        for number, task in enumerate(tasks, 1):
            tool, name, function, arguments, _ = task
            try:
                results[tool, name] = function(*arguments)
            except Exception as exc:  # noqa: BLE001
                results[tool, name] = {"task_crash": traceback_tail(exc)}
            if progress:
                progress(number, len(tasks), task, results[tool, name])
        return results
    context = multiprocessing.get_context("fork")
    pending = list(tasks)
    pending.reverse()
    running: dict[Any, tuple[Any, Task, float]] = {}
    phases: dict[Any, str] = {}
    finished = 0
    while pending or running:
        while pending and len(running) < jobs:
            task = pending.pop()
            receiver, sender = context.Pipe(duplex=False)
            process = context.Process(target=_child, args=(sender, task[2], task[3]), daemon=True)
            process.start()
            sender.close()
            running[receiver] = (process, task, time.monotonic())
        ready = multiprocessing.connection.wait(list(running), timeout=0.5)
        now = time.monotonic()
        for receiver in list(running):
            process, task, started = running[receiver]
            result: Result | None = None
            if receiver in ready:
                try:
                    message = receiver.recv()
                    if isinstance(message, tuple):  # ("phase", name): the task goes on
                        phases[receiver] = message[1]
                    else:
                        result = message
                except (EOFError, OSError):
                    process.join(5)
                    code = process.exitcode
                    why = f"signal {-code}" if code is not None and code < 0 else f"exit status {code}"
                    result = {"task_crash": f"the child process died without an answer ({why})"}
            elif now - started > task[4]:
                process.kill()
                where = f" (in {phases[receiver]})" if receiver in phases else ""
                result = {"task_crash": f"timeout: no answer after {task[4]:.0f}s{where}"}
            if result is None:
                continue
            del running[receiver]
            phases.pop(receiver, None)
            receiver.close()
            process.join(5)
            if process.is_alive():
                process.kill()
                process.join()
            result["elapsed"] = now - started
            results[task[0], task[1]] = result
            finished += 1
            if progress:
                progress(finished, len(tasks), task, result)
    return results


# --------------------------------------------------------------------------------------------
# The run and its tallies


def schema_names(corpus: Path, every: int = 1, offset: int = 0, only: Iterable[str] = ()) -> list[str]:
    names = sorted(p.stem for p in (corpus / "json").glob("*.json"))
    wanted = set(only)
    if wanted:
        names = [n for n in names if n in wanted]
    return names[offset::every]


def plan(corpus: Path, names: Sequence[str], *, dcg: bool = True, variants: Sequence[str] = VARIANTS,
         decode: bool = True, timeout: float = SCHEMA_TIMEOUT, dcg_timeout: float = DCG_TIMEOUT,
         dialect: str = "auto") -> list[Task]:
    """The tasks of a run, the largest schemas first (so a slow one does not finish the run alone)."""
    tasks: list[Task] = []
    size = {n: (corpus / "json" / f"{n}.json").stat().st_size for n in names}
    for name in sorted(names, key=lambda n: (-size[n], n)):
        if decode and "msgspec" in variants:
            tasks.append(("validity", name, task_validity, (corpus, name), timeout))
        tasks.append(("schemagen", name, task_schemagen, (corpus, name, tuple(variants), decode, dialect),
                      timeout * len(variants)))
        if dcg:
            tasks.append(("dcg", name, task_dcg, (corpus, name, dcg_timeout), dcg_timeout + timeout))
    return tasks


def run(corpus: Path = DEFAULT_CORPUS, names: Sequence[str] | None = None, *, jobs: int = 2, dcg: bool = True,
        variants: Sequence[str] = VARIANTS, decode: bool = True, timeout: float = SCHEMA_TIMEOUT,
        dcg_timeout: float = DCG_TIMEOUT, dialect: str = "auto", verbose: bool = False) -> Result:
    """Run the corpus; the returned report is what ``table`` and ``details`` print."""
    corpus = Path(corpus).resolve()  # the children run datamodel-codegen in a folder of their own
    names = schema_names(corpus) if names is None else list(names)
    tasks = plan(corpus, names, dcg=dcg, variants=variants, decode=decode, timeout=timeout,
                 dcg_timeout=dcg_timeout, dialect=dialect)
    warm_up()
    start = time.perf_counter()

    def progress(done: int, total: int, task: Task, result: Result) -> None:
        if verbose and (done % 50 == 0 or done == total):
            print(f"[corpus] {done}/{total} tasks, {time.perf_counter() - start:.0f}s", file=sys.stderr, flush=True)

    results = run_tasks(tasks, jobs, progress)
    return {"corpus": str(corpus), "names": names, "variants": list(variants), "dcg": dcg, "decode": decode,
            "results": results, "seconds": time.perf_counter() - start,
            "missing": {n: missing for n in names if (missing := missing_documents(corpus, n))}}


def missing_documents(corpus: Path, name: str) -> list[str]:
    """The documents ``name`` refers to (itself or through the corpus files it refers to) that the
    corpus does not hold: ``$ref``s to URLs, and to files missing from ``json/`` (read against the
    document's ``$id``, whose folder ``json/`` stands for, as the generator reads it).
    No tool can generate such a schema offline; the table counts them apart. (The JSON Schema
    meta-schemas are no such document: the generator ships them, as jsonschema does.)"""
    folder = corpus / "json"
    missing: set[str] = set()
    seen: set[str] = set()
    pending = [f"{name}.json"]
    while pending:
        file = pending.pop()
        if file in seen:
            continue
        seen.add(file)
        try:
            document = json.loads((folder / file).read_text(encoding="utf-8-sig"))
        except (OSError, ValueError):
            continue
        own = next((document[k] for k in ("$id", "id") if isinstance(document, dict)
                    and isinstance(document.get(k), str) and "://" in document[k]), "")
        mirrored = own.split("#", 1)[0].rsplit("/", 1)[0] + "/" if own else None  # as the generator reads it
        ids = {i for key in ("$id", "id") for i in _raw_values(document, key)}  # resources inside it
        for ref in _raw_values(document, "$ref"):
            target = urllib.parse.urljoin(own, ref).split("#", 1)[0] if own else ref.split("#", 1)[0]
            if target in ("", own.split("#", 1)[0]) or ref.split("#", 1)[0] in ids or target in ids:
                continue
            if metaschemas.canonical(target) is not None:
                continue  # a JSON Schema meta-schema: the generator ships it (and so does jsonschema)
            if mirrored and target.startswith(mirrored):
                target = target[len(mirrored):]
            if "://" not in target and (folder / target).is_file():
                pending.append(target)
            else:
                missing.add(target)
    return sorted(missing)


def _raw_values(node: Any, key: str) -> Iterator[str]:
    """Every string value of ``key`` (``$ref``, ``$id``) in a parsed document, wherever it stands."""
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if isinstance(item.get(key), str):
                yield item[key]
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def tool_rows(report: Result) -> list[tuple[str, str]]:
    rows = [("schemagen", v) for v in report["variants"]]
    if report["dcg"]:
        rows.append(("dcg", "msgspec"))
    return rows


def status_of(report: Result, tool: str, name: str, variant: str) -> Result:
    """The outcome of one variant of one schema; a task that died is a crash of every variant."""
    result = report["results"].get((tool, name), {"task_crash": "not run"})
    if "task_crash" in result:
        return _outcome("crash", result["task_crash"], "process")
    return result["variants"].get(variant, _outcome("crash", "no outcome", "process"))


def validity_of(report: Result, name: str) -> dict[str, dict[str, bool | None]]:
    result = report["results"].get(("validity", name), {})
    return result.get("valid", {}) if "task_crash" not in result else {}


class Tally(msgspec.Struct, kw_only=True):
    generated: int = 0
    error: int = 0
    crash: int = 0
    valid_accepted: int = 0
    valid: int = 0
    accepted: int = 0
    instances: int = 0
    negative_rejected: int = 0
    negatives: int = 0
    decode_crashes: int = 0
    error_missing: int = 0
    """Clean errors of schemas that need a document the corpus lacks (``missing_documents``)."""
    resolvable: int = 0
    resolvable_generated: int = 0


def tally(report: Result, tool: str, variant: str, only: set[str] | None = None) -> Tally:
    t = Tally()
    for name in report["names"]:
        if only is not None and name not in only:
            continue
        status = status_of(report, tool, name, variant)["status"]
        resolvable = name not in report.get("missing", {})
        t.resolvable += resolvable
        if status == "generated":
            t.generated += 1
            t.resolvable_generated += resolvable
        elif status == "error":
            t.error += 1
            t.error_missing += not resolvable
        else:
            t.crash += 1
        if status != "generated" or variant != "msgspec" or not report["decode"]:
            continue
        decoded = report["results"][tool, name].get("decode", {})
        verdicts = validity_of(report, name)
        for ident, refusal in decoded.get("test", {}).items():
            t.instances += 1
            t.accepted += refusal is None
            t.decode_crashes += refusal is not None and refusal.startswith("CRASH")
            if verdicts.get("test", {}).get(ident) is True:
                t.valid += 1
                t.valid_accepted += refusal is None
        for ident, refusal in decoded.get("negative_test", {}).items():
            t.negatives += 1
            t.negative_rejected += refusal is not None
            t.decode_crashes += refusal is not None and refusal.startswith("CRASH")
    return t


def _share(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.1f} %)" if whole else "–"


def table(report: Result, only: set[str] | None = None, msgspec_only: bool = False) -> str:
    """The Markdown summary: one row per tool and variant, and jsonschema's own verdicts for reference."""
    total = len(report["names"]) if only is None else len(only)
    lines = ["| tool | variant | generated | clean error (of which: needs a document the corpus lacks) | crash "
             "| generated, of the schemas the corpus resolves | valid instances accepted "
             "| all instances accepted | negative instances rejected |",
             "|---|---|---|---|---|---|---|---|---|"]
    for tool, variant in tool_rows(report):
        if msgspec_only and variant != "msgspec":
            continue
        t = tally(report, tool, variant, only)
        decoded = variant == "msgspec" and report["decode"]
        label = "schemagen" if tool == "schemagen" else "datamodel-codegen"
        lines.append(f"| {label} | {variant} | {_share(t.generated, total)} | {t.error} ({t.error_missing}) "
                     f"| {t.crash} | {_share(t.resolvable_generated, t.resolvable)} "
                     + (f"| {_share(t.valid_accepted, t.valid)} | {_share(t.accepted, t.instances)} "
                        f"| {_share(t.negative_rejected, t.negatives)} |" if decoded else "| | | |"))
    if report["decode"] and "msgspec" in report["variants"]:
        valid = invalid = unknown = negative_invalid = negatives = 0
        for name in report["names"]:
            if only is not None and name not in only:
                continue
            verdicts = validity_of(report, name)
            for verdict in verdicts.get("test", {}).values():
                valid += verdict is True
                invalid += verdict is False
                unknown += verdict is None
            for verdict in verdicts.get("negative_test", {}).values():
                negatives += 1
                negative_invalid += verdict is False
        lines.append(f"| jsonschema (reference) | – | | | | | | {_share(valid, valid + invalid + unknown)} valid"
                     f"{f', {unknown} undetermined' if unknown else ''} "
                     f"| {_share(negative_invalid, negatives)} |")
    return "\n".join(lines)


def summary(report: Result) -> str:
    parts = [f"Corpus: {report['corpus']} ({len(report['names'])} schemas), "
             f"{report['seconds']:.0f} s wall clock.", "", table(report)]
    if report["dcg"] and report["decode"] and "msgspec" in report["variants"]:
        both = {n for n in report["names"]
                if status_of(report, "schemagen", n, "msgspec")["status"] == "generated"
                and status_of(report, "dcg", n, "msgspec")["status"] == "generated"}
        parts += ["", f"On the {len(both)} schemas both tools generate (msgspec):", "",
                  table(report, both, msgspec_only=True)]
    crashes = sum(tally(report, tool, v).crash for tool, v in tool_rows(report))
    parts += ["", f"{crashes} crash(es) in all; details in the report file."]
    return "\n".join(parts)


def _indent(text: str, prefix: str = "    ") -> str:
    return "\n".join(prefix + line for line in text.splitlines())


def details(report: Result) -> str:
    """The per-schema details, as Markdown: crashes, clean errors, rejected valid instances, timings."""
    out = ["# Corpus report", "", summary(report), ""]
    names = report["names"]
    for tool, variant in tool_rows(report):
        label = f"{tool} {variant}"
        crashes = [(n, status_of(report, tool, n, variant)) for n in names]
        crashes = [(n, o) for n, o in crashes if o["status"] == "crash"]
        out += [f"## Crashes: {label} ({len(crashes)})", ""]
        for name, o in crashes:
            out += [f"- `{name}` ({o['phase']}):", "", "  ```", _indent(o["detail"], "  "), "  ```"]
        out.append("")
    for tool, variant in tool_rows(report):
        errors = [(n, status_of(report, tool, n, variant)) for n in names]
        errors = [(n, o) for n, o in errors if o["status"] == "error"]
        if variant != "msgspec" and tool == "schemagen":
            continue  # the same message as the msgspec variant (to_ir is shared)
        out += [f"## Clean errors: {tool} ({len(errors)})", ""]
        kinds = Counter(re.sub(r"'[^']*'", "'…'", o["detail"].split(": ", 2)[-1])[:90] for _, o in errors)
        out += [f"- {count} × {kind}" for kind, count in kinds.most_common()] + [""]
        out += [f"- `{n}`: {o['detail']}" for n, o in errors] + [""]
    missing = report.get("missing", {})
    out += [f"## Schemas that need a document the corpus lacks ({len(missing)})", ""]
    out += [f"- `{n}`: " + ", ".join(f"`{d}`" for d in docs) for n, docs in sorted(missing.items())] + [""]
    if report["decode"] and "msgspec" in report["variants"]:
        for tool, _ in [r for r in tool_rows(report) if r[1] == "msgspec"]:
            out += [f"## Valid instances rejected: {tool} msgspec", ""]
            for name in names:
                result = report["results"].get((tool, name), {})
                verdicts = validity_of(report, name).get("test", {})
                rejected = [(i, why) for i, why in result.get("decode", {}).get("test", {}).items()
                            if why is not None and verdicts.get(i) is True]
                for ident, why in rejected:
                    out.append(f"- `{name}` `{ident}`: {why}")
            out += ["", f"## Negative instances accepted: {tool} msgspec", ""]
            for name in names:
                accepted = [i for i, why in report["results"].get((tool, name), {}).get("decode", {})
                            .get("negative_test", {}).items() if why is None]
                if accepted:
                    out.append(f"- `{name}`: {', '.join(f'`{i}`' for i in accepted)}")
            out.append("")
        out += ["## Instances jsonschema could not check", ""]
        for name in names:
            for where, why in report["results"].get(("validity", name), {}).get("why", {}).items():
                out.append(f"- `{name}` `{where}`: {why}")
        out += ["", "## Instances that could not be read", ""]
        corpus = Path(report["corpus"])
        for name in names:
            for kind in KINDS:
                for ident, _, error in load_instances(corpus / kind / name):
                    if error:
                        out.append(f"- `{kind}/{name}/{ident}`: {error}")
        out.append("")
    timings = []
    for name in names:
        seconds = report["results"].get(("schemagen", name), {}).get("seconds", {})
        if seconds:
            timings.append((sum(seconds.values()), name, seconds))
    timings.sort(reverse=True)
    busy: Counter[str] = Counter()
    for (tool, _), result in report["results"].items():
        busy[tool] += result.get("elapsed", 0.0)
    out += ["## Time", "", f"{report['seconds']:.0f} s wall clock; seconds in child processes, per task kind: "
            + ", ".join(f"{tool} {seconds:.0f}" for tool, seconds in busy.most_common()), ""]
    out += ["## Slowest schemas (schemagen, seconds)", "", "| schema | total | to_ir | "
            + " | ".join(report["variants"]) + " |", "|---|---|---|" + "---|" * len(report["variants"])]
    for total, name, seconds in timings[:15]:
        out.append(f"| {name} | {total:.1f} | {seconds.get('to_ir', 0):.1f} | "
                   + " | ".join(f"{seconds.get(v, 0):.1f}" for v in report["variants"]) + " |")
    return "\n".join(out) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS,
                        help="folder with json/, test/, negative_test/ (default: ../shared/corpora/schemastore)")
    parser.add_argument("--report", type=Path, default=Path(tempfile.gettempdir()) / "corpus-report.md",
                        help="where the per-schema details go (default: $TMPDIR/corpus-report.md)")
    parser.add_argument("--jobs", type=int, default=2, help="child processes at a time (0: in this process)")
    parser.add_argument("--timeout", type=float, default=SCHEMA_TIMEOUT, help="seconds per schema and variant")
    parser.add_argument("--dcg-timeout", type=float, default=DCG_TIMEOUT, help="seconds per datamodel-codegen run")
    parser.add_argument("--no-dcg", action="store_true", help="schemagen only")
    parser.add_argument("--no-decode", action="store_true", help="generation only, no instances")
    parser.add_argument("--variants", nargs="+", choices=VARIANTS, default=list(VARIANTS))
    parser.add_argument("--dialect", choices=("auto", "jsonschema", "openapi"), default="auto")
    parser.add_argument("--every", type=int, default=1, help="every k-th schema by sorted name")
    parser.add_argument("--only", nargs="+", default=(), metavar="NAME", help="these schemas (file stems)")
    parser.add_argument("--json", type=Path, help="also write every task's raw result here")
    parser.add_argument("--fail-on-crash", action="store_true", help="exit 1 when a schemagen variant crashed")
    args = parser.parse_args(argv)
    if not (args.corpus / "json").is_dir():
        parser.error(f"{args.corpus}/json is not a folder")
    if args.dcg_timeout and not args.no_dcg and not shutil.which("datamodel-codegen", path=str(Path(sys.executable).parent)):
        parser.error("datamodel-codegen is not installed next to this Python (use --no-dcg)")
    names = schema_names(args.corpus, args.every, only=args.only)
    report = run(args.corpus, names, jobs=args.jobs, dcg=not args.no_dcg, variants=args.variants,
                 decode=not args.no_decode, timeout=args.timeout, dcg_timeout=args.dcg_timeout,
                 dialect=args.dialect, verbose=True)
    print(summary(report))
    args.report.parent.mkdir(parents=True, exist_ok=True)
    args.report.write_text(details(report))
    print(f"Details: {args.report}")
    if args.json:
        raw = {**report, "results": {f"{tool}/{name}": r for (tool, name), r in report["results"].items()}}
        args.json.write_text(json.dumps(raw, indent=1))
    crashed = any(tally(report, "schemagen", v).crash for v in args.variants)
    return 1 if crashed and args.fail_on_crash else 0


if __name__ == "__main__":
    sys.exit(main())
