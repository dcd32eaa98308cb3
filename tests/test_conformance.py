"""The official JSON Schema Test Suite through the msgspec variant (see ``conformance.py``).

No case may crash the generator, and for the keywords in ``SUPPORTED`` every valid instance of
every generated case must decode. Skipped when ``../shared`` is absent.
"""

from __future__ import annotations

import pytest

from conformance import SUITE, Report, run
from conftest import shared

# Suite files (one per keyword) whose valid instances must all decode. This list may only grow.
# ENFORCED: the msgspec variant also rejects invalid instances (see the table in docs/conformance.md).
ENFORCED: tuple[str, ...] = (
    "additionalItems", "allOf", "anchor", "anyOf", "default", "definitions", "defs", "exclusiveMaximum",
    "exclusiveMinimum", "infinite-loop-detection", "maxItems", "maxLength", "maxProperties", "maximum",
    "minItems", "minLength", "minProperties", "minimum", "multipleOf", "oneOf", "pattern",
)
# WIDENED: read as annotations, or not enforced with a warning; the wider type accepts every valid value.
WIDENED: tuple[str, ...] = (
    "contains", "content", "dependencies", "dependentRequired", "dependentSchemas", "dynamicRef",
    "format", "if-then-else", "maxContains", "minContains", "not", "propertyNames",
    "unevaluatedItems", "unevaluatedProperties", "uniqueItems",
)
SUPPORTED = ENFORCED + WIDENED
# Left out, by deliberate difference (docs/conformance.md, "Deliberate differences"): a schema with object keywords and no
# `type` is an object, one with `items` an array (properties, required, additionalProperties,
# patternProperties, items, prefixItems, ref); `1.0` is not an integer (type, const, enum);
# a custom meta-schema's vocabulary is not read (vocabulary).

MIN_GENERATED = {"draft7": 200, "draft2020-12": 300}
"""At least this many cases of each draft must turn into a decoder (244 and 359 today)."""


@pytest.fixture(scope="module")
def report() -> Report:
    return run(shared(SUITE), tuple(MIN_GENERATED))


def test_no_case_crashes_the_generator(report: Report) -> None:
    crashes = [c for tallies in report.values() for t in tallies.values() for c in t.crashes]
    assert not crashes, f"{len(crashes)} crash(es):\n" + "\n".join(
        f"  {c.draft} {c.file} {c.case!r}: {c.error}" for c in crashes)


def test_supported_keywords_accept_every_valid_instance(report: Report) -> None:
    rejected = [r for tallies in report.values() for keyword, t in tallies.items() if keyword in SUPPORTED
                for r in t.rejections]
    assert not rejected, f"{len(rejected)} valid instance(s) rejected:\n" + "\n".join(
        f"  {r.draft} {r.file} {r.case!r} / {r.test!r}: {r.error}" for r in rejected)


def test_the_numbers_are_not_vacuous(report: Report) -> None:
    for draft, least in MIN_GENERATED.items():
        generated = sum(t.generated for t in report[draft].values())
        assert generated >= least, f"{draft}: only {generated} cases generated"
    exercised = {keyword for tallies in report.values() for keyword, t in tallies.items() if t.valid_accepted}
    assert not set(SUPPORTED) - exercised, f"SUPPORTED keywords never exercised: {set(SUPPORTED) - exercised}"


def test_enforced_keywords_reject_invalid_instances(report: Report) -> None:
    for keyword in ENFORCED:
        tallies = [tallies[keyword] for tallies in report.values() if keyword in tallies]
        rejected = sum(t.invalid_rejected for t in tallies)
        total = sum(t.invalid_total for t in tallies)
        assert total == 0 or rejected > 0, f"{keyword}: no invalid instance rejected"
