"""Conformance against the official JSON Schema Test Suite, through the msgspec variant.

Every case of ``tests/<draft>/<keyword>.json`` (not ``optional/``) is written to a file, lowered
with the dialect forced to ``jsonschema``, rendered as msgspec models, executed, and its test
instances decoded with ``msgspec.json.Decoder(<root type>)``. A case ends as ``generated``,
``clean error`` (a ``SchemaError``, or a schema that is not an object) or ``crash`` (anything
else). Run ``python tests/conformance.py`` for a Markdown table of the counts.
"""

from __future__ import annotations

import json
import sys
import tempfile
import typing
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

ROOT = Path(__file__).resolve().parent.parent
for _folder in (ROOT, ROOT / "bench"):
    if str(_folder) not in sys.path:
        sys.path.insert(0, str(_folder))

from schemagen.diagnostics import Reporter, SchemaError  # noqa: E402
from schemagen.project.inputs import Input
from schemagen.project.pipeline import Renderer, to_ir  # noqa: E402
from schemagen.render.options import RenderOptions  # noqa: E402
from modules import describe, loaded  # noqa: E402

SUITE = "corpora/json-schema-test-suite/tests"
#: The suite's cases rely on their draft's semantics without saying it; say it for them.
DIALECTS = {"draft7": "http://json-schema.org/draft-07/schema#",
            "draft2020-12": "https://json-schema.org/draft/2020-12/schema"}
"""The suite's test folder, relative to ``../shared``."""
DRAFTS = ("draft7", "draft2020-12")
RENDERER = Renderer(None, RenderOptions())
"""As ``generate`` renders: black's work shared between the cases."""



@dataclass(frozen=True, slots=True)
class Crash:
    """A case that failed with an exception other than a clean ``SchemaError``."""

    draft: str
    file: str
    case: str
    error: str
    """``ExceptionType: message``."""


@dataclass(frozen=True, slots=True)
class Rejection:
    """A valid instance that the generated decoder refused."""

    draft: str
    file: str
    case: str
    test: str
    error: str


@dataclass(slots=True)
class Tally:
    """The counts of one keyword file of one draft."""

    generated: int = 0
    clean_error: int = 0
    crash: int = 0
    valid_accepted: int = 0
    valid_total: int = 0
    invalid_rejected: int = 0
    invalid_total: int = 0
    crashes: list[Crash] = field(default_factory=list)
    rejections: list[Rejection] = field(default_factory=list)
    """Valid instances rejected (in generated cases)."""


Report = dict[str, dict[str, Tally]]
"""draft → keyword → tally."""


class _CaseCrash(Exception):
    """Wraps the unexpected exception of one case (so the caller can tell it from a clean error)."""


def build_decoder(schema: dict[str, Any], folder: Path) -> msgspec.json.Decoder[Any]:
    """Lower and render ``schema`` as msgspec models, exec them, and build a decoder of the root.

    Raises ``SchemaError`` for a clean refusal; any other exception is a generator bug.
    """
    path = folder / "case.json"
    path.write_text(json.dumps(schema))
    module = to_ir(Input("case", path, "case.json", "jsonschema"), path.parent, Reporter())
    source = RENDERER.render(module, "msgspec", "case")
    with loaded(source, "case") as namespace:
        root = typing.Any if module.root is None else getattr(namespace, module.root)
        return msgspec.json.Decoder(root)


def run_case(draft: str, keyword: str, case: dict[str, Any], tally: Tally, folder: Path) -> None:
    """Run one case of the suite and add its outcome to ``tally``."""
    if not isinstance(case["schema"], dict):
        tally.clean_error += 1
        return
    try:
        decoder = build_decoder({"$schema": DIALECTS[draft], **case["schema"]}, folder)
    except SchemaError:
        tally.clean_error += 1
        return
    except Exception as exc:  # noqa: BLE001 - a crash is what we are counting
        tally.crash += 1
        tally.crashes.append(Crash(draft, f"{keyword}.json", case["description"], describe(exc)))
        return
    try:
        outcomes = [(test, _decode(decoder, test["data"])) for test in case["tests"]]
    except _CaseCrash as exc:
        tally.crash += 1
        tally.crashes.append(Crash(draft, f"{keyword}.json", case["description"], str(exc)))
        return
    tally.generated += 1
    for test, refusal in outcomes:
        if test["valid"]:
            tally.valid_total += 1
            if refusal is None:
                tally.valid_accepted += 1
            else:
                tally.rejections.append(
                    Rejection(draft, f"{keyword}.json", case["description"], test["description"], refusal))
        else:
            tally.invalid_total += 1
            tally.invalid_rejected += refusal is not None


def _decode(decoder: msgspec.json.Decoder[Any], data: Any) -> str | None:
    """``None`` if ``data`` is accepted, else the validation message; other errors raise ``_CaseCrash``."""
    try:
        decoder.decode(json.dumps(data).encode())
    except msgspec.ValidationError as exc:
        return str(exc)
    except Exception as exc:  # noqa: BLE001
        raise _CaseCrash(f"while decoding {json.dumps(data)[:60]}: {describe(exc)}") from exc
    return None


def run(suite: Path, drafts: tuple[str, ...] = DRAFTS) -> Report:
    """Every keyword file of every draft in ``drafts`` (``optional/`` excluded)."""
    report: Report = {}
    with tempfile.TemporaryDirectory(prefix="schemagen-conformance-") as tmp:
        for draft in drafts:
            tallies: dict[str, Tally] = defaultdict(Tally)
            for path in sorted((suite / draft).glob("*.json")):
                for case in json.loads(path.read_text()):
                    run_case(draft, path.stem, case, tallies[path.stem], Path(tmp))
            report[draft] = dict(tallies)
    return report


def table(report: Report) -> str:
    """The report as a Markdown table, one row per draft and keyword."""
    lines = [
        "| draft | keyword | generated / clean error / crash | valid accepted | invalid rejected |",
        "|---|---|---|---|---|",
    ]
    for draft, tallies in report.items():
        for keyword, t in tallies.items():
            lines.append(f"| {draft} | {keyword} | {t.generated} / {t.clean_error} / {t.crash} "
                         f"| {t.valid_accepted}/{t.valid_total} | {t.invalid_rejected}/{t.invalid_total} |")
    return "\n".join(lines)


def main() -> None:
    suite = ROOT.parent / "shared" / SUITE
    if not suite.is_dir():
        sys.exit(f"{suite} is not here")
    report = run(suite)
    print(table(report))
    crashes = [c for tallies in report.values() for t in tallies.values() for c in t.crashes]
    if crashes:
        print(f"\n{len(crashes)} crash(es):")
        for c in crashes:
            print(f"- {c.draft} {c.file} {c.case!r}: {c.error}")


if __name__ == "__main__":
    main()
