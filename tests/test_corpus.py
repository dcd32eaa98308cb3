"""The corpus runner (bench/corpus.py): its bookkeeping on a tiny made-up corpus, and the generator
on a fixed sample of SchemaStore (../shared/corpora/schemastore): no crash, at least 98 % of the
schemas the corpus can resolve generated, every valid instance accepted.

The sample is every ``SAMPLE_EVERY``-th schema by sorted name (48 of 476), schemagen only: all three
variants generated and executed, the msgspec one decoding the sample's instances. ``make corpus``
runs every schema, beside datamodel-code-generator.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

from conftest import bench_module, shared

SAMPLE_EVERY = 10
GENERATED_SHARE = 0.98
SAMPLE_TIMEOUT = 120.0
"""Seconds per schema and variant: generous, a shared machine can be slow; a hang is still a crash."""


corpus = bench_module("corpus")


# --- the runner itself, on a corpus made here -------------------------------------------------


def _write(path: Path, value: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(value if isinstance(value, str) else json.dumps(value))


@pytest.fixture(scope="module")
def made_up(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("corpus")
    pet = {"$schema": "http://json-schema.org/draft-07/schema#", "title": "Pet", "type": "object",
           "required": ["name"], "properties": {"name": {"type": "string", "maxLength": 5},
                                                "age": {"type": "integer", "minimum": 0},
                                                "owner": {"$ref": "people.json#/definitions/Person"}}}
    _write(root / "json" / "pet.json", pet)
    _write(root / "json" / "people.json", {"definitions": {"Person": {"type": "object",
                                                                      "properties": {"n": {"type": "string"}}}}})
    _write(root / "test" / "pet" / "ok.json", {"name": "Rex", "age": 3, "owner": {"n": "Ann"}})
    _write(root / "test" / "pet" / "ok.yaml", "name: Tom\nage: 2\n")
    _write(root / "test" / "pet" / "ok.toml", 'name = "Kit"\n')
    _write(root / "test" / "pet" / "too-long.json", {"name": "Rexxxxxxx"})  # the schema rejects it too
    _write(root / "test" / "pet" / "broken.yaml", "name: [unclosed\n")
    _write(root / "negative_test" / "pet" / "no-name.json", {"age": 1})
    _write(root / "negative_test" / "pet" / "negative-age.yaml", "name: Rex\nage: -1\n")
    _write(root / "json" / "unresolved.json", {"$ref": "#/definitions/Missing"})
    _write(root / "json" / "remote.json", {"properties": {"a": {"$ref": "https://example.com/a.json"}}})
    _write(root / "json" / "anything.json", {"$schema": "http://json-schema.org/draft-07/schema#",
                                             "description": "any value at all"})
    _write(root / "test" / "anything" / "x.json", [1, "two"])
    return root


@pytest.fixture(scope="module")
def made_up_report(made_up: Path) -> dict[str, Any]:
    return corpus.run(made_up, jobs=2, dcg=False)


def test_runner_counts_generated_clean_errors_missing_documents_and_instances(made_up_report: dict[str, Any]) -> None:
    report = made_up_report
    assert report["missing"] == {"remote": ["https://example.com/a.json"]}
    msgspec = corpus.tally(report, "schemagen", "msgspec")
    # anything, people, pet generated (pet with people.json's Person copied in); unresolved, remote not
    assert (msgspec.generated, msgspec.error, msgspec.error_missing, msgspec.crash) == (3, 2, 1, 0)
    assert (msgspec.resolvable_generated, msgspec.resolvable) == (3, 4)
    assert corpus.status_of(report, "schemagen", "unresolved", "dataclass")["status"] == "error"
    # pet: 4 readable instances (the broken YAML is reported, not counted), 3 of them valid;
    # anything: 1 instance, valid, decoded as Any
    assert (msgspec.valid_accepted, msgspec.valid) == (4, 4)
    assert (msgspec.accepted, msgspec.instances) == (4, 5)
    assert (msgspec.negative_rejected, msgspec.negatives) == (2, 2)
    table = corpus.table(report)
    assert ("| schemagen | msgspec | 3/5 (60.0 %) | 2 (1) | 0 | 3/4 (75.0 %) | 4/4 (100.0 %) | 4/5 (80.0 %) "
            "| 2/2 (100.0 %) |") in table
    details = corpus.details(report)
    assert "broken.yaml" in details and "unresolved reference" in details
    assert "- `remote`: `https://example.com/a.json`" in details


def _sleep_forever() -> dict[str, Any]:
    time.sleep(60)
    return {}


def _die() -> dict[str, Any]:
    os._exit(3)


def test_runner_counts_a_hang_or_a_dead_child_as_a_crash() -> None:
    tasks = [("schemagen", "hang", _sleep_forever, (), 1.0), ("schemagen", "dies", _die, (), 10.0)]
    start = time.monotonic()
    results = corpus.run_tasks(tasks, jobs=2)
    assert time.monotonic() - start < 15
    assert "timeout" in results["schemagen", "hang"]["task_crash"]
    assert "exit status 3" in results["schemagen", "dies"]["task_crash"]


# --- the generator on a sample of SchemaStore ---------------------------------------------------


@pytest.fixture(scope="module")
def sample_report() -> dict[str, Any]:
    folder = shared("corpora/schemastore")
    names = corpus.schema_names(folder, SAMPLE_EVERY)
    return corpus.run(folder, names, jobs=2, dcg=False, timeout=SAMPLE_TIMEOUT)


def test_sample_has_no_crash(sample_report: dict[str, Any]) -> None:
    crashes = []
    for variant in corpus.VARIANTS:
        for name in sample_report["names"]:
            outcome = corpus.status_of(sample_report, "schemagen", name, variant)
            if outcome["status"] == "crash":
                crashes.append(f"{name} ({variant}, {outcome['phase']}): {outcome['detail'].splitlines()[-1]}")
    decode_crashes = [f"{name} {kind}/{ident}: {why}"
                      for name in sample_report["names"]
                      for kind, outcomes in sample_report["results"].get(("schemagen", name), {})
                      .get("decode", {}).items()
                      for ident, why in outcomes.items() if why is not None and why.startswith("CRASH")]
    assert not crashes + decode_crashes, "\n".join(crashes + decode_crashes)


def test_sample_is_generated_where_the_corpus_resolves_it(sample_report: dict[str, Any]) -> None:
    names = [n for n in sample_report["names"] if n not in sample_report["missing"]]
    failed = {name: corpus.status_of(sample_report, "schemagen", name, "msgspec") for name in names}
    failed = {name: outcome for name, outcome in failed.items() if outcome["status"] != "generated"}
    share = 1 - len(failed) / len(names)
    assert share >= GENERATED_SHARE, (
        f"{len(names) - len(failed)}/{len(names)} ({share:.1%}) generated, want {GENERATED_SHARE:.0%}:\n"
        + "\n".join(f"  {name}: {outcome['detail'].splitlines()[-1][:200]}" for name, outcome in failed.items()))


def test_sample_accepts_every_valid_instance(sample_report: dict[str, Any]) -> None:
    t = corpus.tally(sample_report, "schemagen", "msgspec")
    rejected = [f"{name} {ident}: {why}" for name in sample_report["names"]
                for ident, why in sample_report["results"].get(("schemagen", name), {}).get("decode", {})
                .get("test", {}).items()
                if why is not None and corpus.validity_of(sample_report, name).get("test", {}).get(ident) is True]
    assert t.valid > 0 and t.valid_accepted == t.valid, "\n".join(rejected)
