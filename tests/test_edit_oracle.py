"""After an edit, a run through the caches the earlier runs left writes what a run without any cache
writes: the same files and warnings (or the same errors).

OpenAI's description (part of it; all of it, with its operations, with SCHEMAGEN_CONTRACT_FULL=1) is
edited at random between runs: a description reworded or dropped, a property added or dropped, a
property no longer required, a component nothing refers to dropped, an enum's value or a tag's changed
(which the classes that refer to it read). Every speed-up an edit goes through (YAML read by pieces,
the definitions found valid, the render memo and the modules spliced from it, the formatted chunks,
the kept result, the definitions kept by their pieces and lowered again when they read an edited one)
is checked here against the stages alone, on a real description. The first run
writes through the render pool (its declarations cut into parts, made in other processes and kept by
this one), which the edits after it then read.
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest
import yaml

from schemagen.cache import definitions, memo, store as caching
from schemagen.diagnostics import SchemaError
from schemagen.project import config as configuration, plan as generate, write

from conftest import bench_module, shared

SUBSET = bench_module("subset")

EDITS = 6
DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)

Outcome = tuple[dict[str, str], list[str]] | list[str]
"""The files and warnings of a run, or its errors."""


def _outcome(project: Path, cache: str, monkeypatch: pytest.MonkeyPatch, written: bool = False) -> Outcome:
    """``written``: the files are written, as the command writes them (the next run splices its modules
    from them)."""
    monkeypatch.setenv(caching.ENV, cache)
    config = configuration.load(project)
    try:
        result = generate.plan(config)
    except SchemaError as exc:
        return [str(d) for d in exc.diagnostics]
    if written:
        write.apply(config.output, result.files, write.compare(config.output, result.files))
    return {str(p): text for p, text in result.files.items()}, [str(w) for w in result.warnings]


def _answered(monkeypatch: pytest.MonkeyPatch, owner: type, method: str) -> list[bool]:
    """Whether each call of ``owner.method`` gave an answer (not ``None``), as the calls come."""
    original = getattr(owner, method)
    answered: list[bool] = []

    def spied(self: Any, *args: Any) -> Any:
        found = original(self, *args)
        answered.append(found is not None)
        return found

    monkeypatch.setattr(owner, method, spied)
    return answered


def _edit(document: dict[str, Any], rnd: random.Random) -> str:
    """One random edit of one of ``document``'s component schemas, in place; what it did."""
    schemas: dict[str, Any] = document["components"]["schemas"]
    kind = rnd.choice(sorted(EDIT))
    named = {m for schema in schemas.values() for m in SUBSET.mentions(schema)}
    name = rnd.choice([n for n, schema in schemas.items() if isinstance(schema, dict) and APPLIES[kind](schema)
                       and (kind != "drop component" or n not in named)])
    EDIT[kind](schemas, name, rnd)
    return f"{name}: {kind}"


def _properties(schema: dict[str, Any]) -> dict[str, Any]:
    found = schema.get("properties")
    return found if isinstance(found, dict) else {}


def _tags(schema: dict[str, Any]) -> list[dict[str, Any]]:
    return [p for p in _properties(schema).values() if _values(p)]


def _other_value(schema: dict[str, Any]) -> None:
    schema["enum"] = [f"{schema['enum'][0]}_edited", *schema["enum"][1:]]


APPLIES = {
    "reword": lambda s: True,
    "drop description": lambda s: "description" in s,
    "add property": lambda s: "properties" in s,
    "drop property": lambda s: bool(_properties(s)),
    "not required": lambda s: isinstance(s.get("required"), list) and bool(s["required"]),
    "drop component": lambda s: True,  # (one nothing refers to)
    "other enum value": lambda s: _values(s),  # (read by the classes whose defaults it gives)
    "other tag": lambda s: bool(_tags(s)),  # (read by the unions that tell it apart by it)
}
EDIT = {
    "reword": lambda d, n, rnd: d[n].update(description=f"{d[n].get('description', '')} Edited {rnd.randrange(99)}."),
    "drop description": lambda d, n, rnd: d[n].pop("description"),
    "add property": lambda d, n, rnd: d[n]["properties"].update({f"edited_{rnd.randrange(99)}": rnd.choice(
        [{"type": "string"}, {"type": "integer"}, {"type": "object", "properties": {"x": {"type": "number"}}}])}),
    "drop property": lambda d, n, rnd: d[n]["properties"].pop(rnd.choice(sorted(d[n]["properties"]))),
    "not required": lambda d, n, rnd: d[n].update(required=d[n]["required"][1:]),
    "drop component": lambda d, n, rnd: d.pop(n),
    "other enum value": lambda d, n, rnd: _other_value(d[n]),
    "other tag": lambda d, n, rnd: _other_value(rnd.choice(_tags(d[n]))),
}


def _values(schema: Any) -> bool:
    return isinstance(schema, dict) and isinstance(schema.get("enum"), list) and bool(schema["enum"]) \
        and isinstance(schema["enum"][0], str)


@pytest.mark.parametrize("seed", [1, 2])
def test_a_run_after_random_edits_of_openais_description_writes_what_a_run_without_the_cache_writes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    full = os.environ.get("SCHEMAGEN_CONTRACT_FULL") == "1"
    text = shared("corpora/openai/openapi.yaml").read_text(encoding="utf-8")
    document = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    if not full:
        document = SUBSET.closed_subset(document, 300)
    # Its lists at the top (servers, tags) are dumped unindented, which the pieces' cutter does not cut:
    # without them, the text is read by pieces, as the published one is, and so are its edits.
    document = {key: value for key, value in document.items() if not isinstance(value, list)}
    project = tmp_path / "project"
    (project / "schemas").mkdir(parents=True)
    (project / "pyproject.toml").write_text('[tool.schemagen]\nschemas = "schemas"\noutput = "generated"\n'
                                            'variants = ["dataclass", "typeddict", "msgspec"]\njobs = 2\n',
                                            encoding="utf-8")  # (two processes on any machine: the pool too)
    target = project / "schemas" / "openapi.yaml"
    cache = str(tmp_path / "cache")
    rnd = random.Random(seed)
    put_back = _answered(monkeypatch, definitions.Definitions, "_again")
    spliced = _answered(monkeypatch, memo.Memo, "_spliced")
    for round in range(EDITS + 1):
        said = _edit(document, rnd) if round else "as published"
        target.write_text(yaml.dump(document, Dumper=DUMPER, sort_keys=False, allow_unicode=True, width=100),
                          encoding="utf-8")
        kept = _outcome(project, cache, monkeypatch, written=True)
        assert kept == _outcome(project, "off", monkeypatch), f"after edit {round}: {said}"
    assert any(put_back)  # (the edits went through the definitions kept, not only the whole lowering)
    assert spliced and all(spliced)  # (and their modules were spliced from the files written before)
