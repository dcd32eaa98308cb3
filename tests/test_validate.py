"""``schemagen validate``: recorded payloads read by an input's models, and the overlay that mends
the spec (generator/evidence/). Oracles: msgspec decoding the generated models (the explanation
refuses exactly what they refuse), and the overlay applied by ``generate`` (validating again
accepts what it was built from, and most of what it was not)."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from compare_tools import models, side as side_of_schema
from golden import ROOT
from schemagen.compare import sides
from schemagen.evidence import check, read_all
from schemagen.evidence.explain import Explainer
from test_compare_cli import run

SPEC = ROOT / "tests" / "fixtures" / "validate" / "provider.yaml"
PAYLOADS = ROOT / "tests" / "fixtures" / "payloads" / "chat_completion_out" / "OpenAIChatCompletionOut"


def recorded(rng: random.Random, n: int) -> list[dict[str, Any]]:
    """Responses as the provider really sends them: each of its deviations from its spec, now and then."""
    out = []
    for i in range(n):
        message: dict[str, Any] = {"role": "assistant", "content": None if rng.random() < 0.2 else f"reply {i}"}
        if rng.random() < 0.3:
            message["refusal"] = None if rng.random() < 0.5 else "no"
        if rng.random() < 0.3:
            message["parts"] = [{"type": "text", "text": "t"}, {"type": "image", "url": "u"}]
        choice: dict[str, Any] = {"index": 0, "message": message,
                                  "finish_reason": "content_filter" if rng.random() < 0.2 else "stop"}
        if rng.random() < 0.5:
            choice["logprobs"] = None if rng.random() < 0.6 else {"content": [0.5]}
        usage: dict[str, Any] = {"prompt_tokens": 3}
        if rng.random() < 0.6:
            usage["iterations"] = 1
        out.append({"id": f"r{i}", "choices": [choice], "usage": usage,
                    "system_fingerprint": None if rng.random() < 0.3 else "fp"})
    return out


def project(tmp_path: Path, version: str = "3.0.3") -> Path:
    """A project whose input is the provider's spec (as OpenAPI ``version``: 3.1 says null in ``type``)."""
    (tmp_path / "schemas").mkdir(parents=True)
    (tmp_path / "pyproject.toml").write_text('[tool.schemagen]\nschemas = "schemas"\noutput = "generated"\n')
    text = SPEC.read_text()
    if version.startswith("3.1"):
        text = text.replace("openapi: 3.0.3", f"openapi: {version}")
    (tmp_path / "schemas" / "provider.yaml").write_text(text)
    return tmp_path


def jsonl(path: Path, payloads: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(p) + "\n" for p in payloads))
    return path


def sse(path: Path, payloads: list[dict[str, Any]]) -> Path:
    path.write_text("".join(f"event: chunk\ndata: {json.dumps(p)}\n\n" for p in payloads) + "data: [DONE]\n\n")
    return path


def test_the_explanation_refuses_what_msgspec_refuses(tmp_path: Path) -> None:
    """On the provider's spec and on the seed's fixtures, valid and invalid: accepted exactly when the
    generated msgspec models decode the payload."""
    cases = [(project(tmp_path / "p"), "schemas/provider.yaml#ChatCompletion", recorded(random.Random(1), 60))]
    seed = [json.loads(p.read_text()) for p in sorted(PAYLOADS.rglob("*.json"))]
    cases.append((ROOT, "schemas/chat_completion_out.json", seed))
    for folder, target, payloads in cases:
        side = sides.load(str(folder / target), folder)
        decoded, explainer = models(side), Explainer(side)
        for payload in payloads:
            refused, problems = decoded.decode(payload), explainer.explain(payload)
            assert (problems == []) == (refused is None), (target, payload, refused, problems)
        assert any(explainer.explain(p) for p in payloads)


@pytest.mark.parametrize("variant", ["msgspec", "dataclass", "typeddict", "pydantic"])
def test_each_variant_judges_with_its_own_models(variant: str) -> None:
    """The seed's fixtures: the valid ones accepted, the invalid ones refused, by the variant asked for."""
    side = sides.load(str(ROOT / "schemas" / "chat_completion_out.json"), ROOT)
    files = sorted(PAYLOADS.rglob("*.json"))
    checked, note = check(side, read_all(files, [str(f) for f in files]), variant)
    assert note is None
    lax = [f for f, c in zip(files, checked) if c.accepted and f.parent.name != "valid"]
    assert [c.accepted for c in checked] == [f.parent.name == "valid" or f in lax for f in files]
    if variant != "pydantic":
        assert not lax
        return
    # pydantic's lax mode (docs/semantics.md) reads `"created": "1700000000"` as an int; nothing else differs
    assert [f.name for f in lax] == ["created_wrong_type_string.json"]
    import pydantic

    from schemagen.evidence.variants import _imported

    root = getattr(_imported(side, "pydantic"), side.root)
    with pytest.raises(pydantic.ValidationError, match="created"):
        pydantic.TypeAdapter(root).validate_json(lax[0].read_bytes(), strict=True)


@pytest.mark.parametrize("version", ["3.0.3", "3.1.0"])
def test_the_suggested_overlay_accepts_the_payloads_it_was_built_from(tmp_path: Path, version: str) -> None:
    folder = project(tmp_path, version)
    rng = random.Random(7)
    payloads = recorded(rng, 50)
    files = [str(jsonl(tmp_path / "recorded.jsonl", payloads[:30])), str(sse(tmp_path / "stream.sse", payloads[30:]))]
    before = run(folder, "validate", "schemas/provider.yaml#ChatCompletion", *files, "--format", "json",
                 "--suggest-overlay", "schemas/provider.overlay.yaml")
    assert before.returncode == 1, before.stderr
    report = json.loads(before.stdout)
    assert [(p["file"], p["line"]) for p in report["payloads"]] == \
        [(files[0], n) for n in range(1, 31)] + [(files[1], n) for n in range(2, 62, 3)]  # (not `event:`, nor [DONE])
    absent = sum("iterations" not in p["usage"] for p in payloads)
    usage = next(g for g in report["summary"] if g["schema"] == "Usage.iterations")
    assert usage["what"] == "required, absent" and usage["count"] == absent > 0
    assert "provider.yaml:" in usage["place"] and usage["place"].endswith("#/components/schemas/Usage/allOf/1/required")
    overlay = yaml.safe_load((folder / "schemas" / "provider.overlay.yaml").read_text())
    assert overlay["overlay"] == "1.0.0" and overlay["extends"] == "provider.yaml"
    targets = [a["target"] for a in overlay["actions"]]
    assert "$.components.schemas.Usage.allOf[1].required[?@ == 'iterations']" in targets
    assert all(f"of {50} recorded payloads" in a["description"] for a in overlay["actions"])
    for variant in ("msgspec", "dataclass", "typeddict", "pydantic"):
        after = run(folder, "validate", "schemas/provider.yaml#ChatCompletion", *files, "--variant", variant)
        assert after.returncode == 0, after.stdout + after.stderr
    assert run(folder, "generate").returncode == 0  # (the overlay is one generate reads without a word)


def test_an_overlay_built_from_half_accepts_most_of_the_other_half(tmp_path: Path) -> None:
    folder = project(tmp_path)
    payloads = recorded(random.Random(11), 80)
    first, second = jsonl(tmp_path / "first.jsonl", payloads[:40]), jsonl(tmp_path / "second.jsonl", payloads[40:])
    assert run(folder, "validate", "schemas/provider.yaml#ChatCompletion", str(second)).returncode == 1
    run(folder, "validate", "schemas/provider.yaml#ChatCompletion", str(first), "--suggest-overlay",
        "schemas/provider.overlay.yaml")
    held_out = run(folder, "validate", "schemas/provider.yaml#ChatCompletion", str(second), "--format", "json")
    accepted = sum(p["accepted"] for p in json.loads(held_out.stdout)["payloads"])
    assert accepted >= 36, held_out.stdout


def test_an_unknown_tag_is_reported_not_invented(tmp_path: Path) -> None:
    folder = project(tmp_path)
    payload = recorded(random.Random(3), 1)[0]
    payload["choices"][0]["message"] = {"role": "assistant", "content": "c", "parts": [{"type": "audio", "data": "x"}]}
    result = run(folder, "validate", "schemas/provider.yaml#ChatCompletion", str(jsonl(tmp_path / "a.jsonl", [payload])),
                 "--suggest-overlay", "schemas/provider.overlay.yaml")
    assert result.returncode == 1
    assert '$.choices[0].message.parts[0]: `type` is "audio", the tag of no member' in result.stdout
    assert "the payloads do not say which change is meant" in result.stderr
    actions = yaml.safe_load((folder / "schemas" / "provider.overlay.yaml").read_text())["actions"]
    assert actions and all("audio" not in json.dumps(a) and "Part" not in a["target"] for a in actions)


def test_bad_payload_files_are_all_reported_and_nothing_is_written(tmp_path: Path) -> None:
    folder = project(tmp_path)
    (tmp_path / "a.jsonl").write_text('{"id": 1}\n{"id": \n')
    (tmp_path / "b.sse").write_text("data: {nope}\n")
    result = run(folder, "validate", "schemas/provider.yaml#ChatCompletion", str(tmp_path / "a.jsonl"),
                 str(tmp_path / "b.sse"), str(tmp_path / "missing.json"), "--suggest-overlay", "schemas/o.yaml")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert f"{tmp_path / 'a.jsonl'}:2:7: invalid JSON" in result.stderr
    assert f"{tmp_path / 'b.sse'}:1:8: invalid JSON" in result.stderr
    assert "missing.json: cannot read the payload file" in result.stderr
    assert not (folder / "schemas" / "o.yaml").exists() and result.stdout == ""


def test_every_accepted_payload_exits_0() -> None:
    valid = sorted(str(p) for p in (PAYLOADS / "valid").glob("*.json"))
    result = run(ROOT, "validate", "schemas/chat_completion_out.json", *valid)
    assert result.returncode == 0, result.stdout
    assert result.stdout.endswith(f"0 of {len(valid)} payloads refused\n")


def test_an_overlay_the_input_has_keeps_its_actions(tmp_path: Path) -> None:
    folder = project(tmp_path)
    payloads = recorded(random.Random(13), 60)
    first, second = jsonl(tmp_path / "first.jsonl", payloads[:5]), jsonl(tmp_path / "second.jsonl", payloads[5:])
    target = "schemas/provider.yaml#ChatCompletion"
    run(folder, "validate", target, str(first), "--suggest-overlay", "schemas/provider.overlay.yaml")
    kept = yaml.safe_load((folder / "schemas" / "provider.overlay.yaml").read_text())["actions"]
    run(folder, "validate", target, str(second), "--suggest-overlay", "schemas/provider.overlay.yaml")
    both = yaml.safe_load((folder / "schemas" / "provider.overlay.yaml").read_text())["actions"]
    assert both[:len(kept)] == kept and len(both) > len(kept)
    assert run(folder, "validate", target, str(first), str(second)).returncode == 0


def _blocks(text: str) -> list[str]:
    return [b.split("\n", 1)[1] for b in text.split("```")[1::2]]


def test_the_walk_through_in_overlays_md_is_what_validate_prints(tmp_path: Path) -> None:
    """docs/overlays.md: the report (its elided lines aside) and the overlay, made again."""
    section = (ROOT / "docs" / "overlays.md").read_text().split("## From recorded payloads to an overlay")[1]
    report, _, overlay = _blocks(section.split("## An overlay")[0])[:3]
    folder = project(tmp_path)
    jsonl(folder / "recorded.jsonl", recorded(random.Random(5), 88))
    command = report.splitlines()[0].removeprefix("$ schemagen ").split()
    printed = run(folder, *command).stdout.splitlines()
    assert all(line in printed for line in report.splitlines()[1:] if line not in ("...", "")), printed[:8]
    run(folder, "validate", "schemas/provider.yaml#ChatCompletion", "recorded.jsonl", "--suggest-overlay",
        "schemas/provider.overlay.yaml")
    assert (folder / "schemas" / "provider.overlay.yaml").read_text() == overlay


def test_explaining_a_deep_payload_is_linear_work(tmp_path: Path) -> None:
    """A recursive model, each level's ``next`` a union with null, the one mistake at the bottom: every
    level asks whether the union takes what is below it; counted calls grow by 2 per doubling, not 4."""
    schema = {"$schema": "http://json-schema.org/draft-07/schema#", "title": "Node", "type": "object",
              "required": ["v"], "properties": {"v": {"type": "integer"},
                                                "next": {"anyOf": [{"$ref": "#"}, {"type": "null"}]}}}
    side = side_of_schema(tmp_path, schema)
    explainer = Explainer(side)

    def payload(depth: int) -> dict[str, Any]:
        node: dict[str, Any] = {"v": "bottom"}
        for _ in range(depth):
            node = {"v": 1, "next": node}
        return node

    def work(depth: int) -> int:
        calls = 0

        def count(frame: Any, event: str, arg: object) -> None:
            nonlocal calls
            calls += event == "call"

        value = payload(depth)
        sys.setprofile(count)
        try:
            problems = explainer.explain(value)
        finally:
            sys.setprofile(None)
        assert [p.where for p in problems] == ["$" + ".next" * depth + ".v"]
        return calls

    one, two, four = (work(n) for n in (12, 24, 48))
    assert (four - two) / (two - one) <= 2.4, (one, two, four)


@pytest.mark.parametrize("depth", [20_000, 200_000])
def test_a_payload_nested_too_deep_is_an_error_not_a_traceback(tmp_path: Path, depth: int) -> None:
    """Deeper than the models can be followed (read, not explained), or than JSON can be read here."""
    (tmp_path / "schemas").mkdir()
    (tmp_path / "pyproject.toml").write_text('[tool.schemagen]\nschemas = "schemas"\noutput = "generated"\n')
    (tmp_path / "schemas" / "node.json").write_text(json.dumps(
        {"title": "Node", "type": "object", "properties": {"next": {"anyOf": [{"$ref": "#"}, {"type": "null"}]}}}))
    (tmp_path / "deep.json").write_text('{"next": ' * depth + '"x"' + "}" * depth)
    result = run(tmp_path, "validate", "schemas/node.json", "deep.json")
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr[-2000:]
    assert "nests too deeply" in result.stderr


def test_swagger_says_null_its_own_way_and_a_key_no_field_names_opens_its_object(tmp_path: Path) -> None:
    (tmp_path / "schemas").mkdir()
    (tmp_path / "pyproject.toml").write_text('[tool.schemagen]\nschemas = "schemas"\noutput = "generated"\n')
    (tmp_path / "schemas" / "api.json").write_text(json.dumps({
        "swagger": "2.0", "info": {"title": "t", "version": "1"}, "paths": {}, "definitions": {
            "Out": {"type": "object", "required": ["a"], "additionalProperties": False,
                    "properties": {"a": {"type": "string"}, "b": {"type": "string"}}}}}))
    payloads = jsonl(tmp_path / "p.jsonl", [{"a": None}, {"a": "x", 'say "hi"': 1}, {"a": "x", "b": "y"}])
    first = run(tmp_path, "validate", "schemas/api.json#Out", str(payloads), "--suggest-overlay", "schemas/api.overlay.yaml")
    assert first.returncode == 1, first.stderr
    actions = yaml.safe_load((tmp_path / "schemas" / "api.overlay.yaml").read_text())["actions"]
    assert {"target": "$.definitions.Out.properties.a", "description": "null in 1 of 3 recorded payloads",
            "update": {"x-nullable": True}} in actions
    assert any(a["target"] == "$.definitions.Out.additionalProperties" and a.get("remove") for a in actions)
    again = run(tmp_path, "validate", "schemas/api.json#Out", str(payloads))
    assert again.returncode == 0, again.stdout + again.stderr


def test_what_is_no_json_is_an_error_and_a_byte_order_mark_is_none(tmp_path: Path) -> None:
    folder = project(tmp_path)
    good = recorded(random.Random(2), 1)[0]
    (tmp_path / "bom.json").write_bytes(b"\xef\xbb\xbf" + json.dumps(good).encode())
    (tmp_path / "nan.jsonl").write_text(json.dumps(good) + "\n" + '{"id": NaN}\n')
    result = run(folder, "validate", "schemas/provider.yaml#ChatCompletion", str(tmp_path / "bom.json"),
                 str(tmp_path / "nan.jsonl"))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert f"{tmp_path / 'nan.jsonl'}:2" in result.stderr and "NaN is no JSON number" in result.stderr
    assert "bom.json" not in result.stderr


def test_pydantic_s_refusal_is_placed_as_the_explanation_places_keys() -> None:
    """Where the explanation finds nothing, the pydantic models' own words stand: each place a JSONPath."""
    import pydantic

    from schemagen.evidence.variants import _pydantic

    class Holder(pydantic.BaseModel):
        counts: dict[str, int]

    said = _pydantic(Holder)({"counts": {"plain": 1, "b c": "x"}})
    assert said is not None and said.endswith('at $.counts["b c"]'), said
