"""The meta-schema check (``frontend.validate``), remembering the definitions it found valid.

A definition the check accepted without a word is not checked again: its key is its canonical text
and the validator's version, so a regeneration after a small edit checks what changed. A definition
with anything to say (an error, a warning) is checked in every run, so that its problems are always
reported.
"""

from __future__ import annotations

from ..diagnostics import Reporter
from ..frontend import validate
from ..frontend.schema import SchemaSet, canonical_text
from .store import Cache, digest

NAMESPACE = "valid"


def check(schemas: SchemaSet, reporter: Reporter, store: Cache) -> None:
    """``validate.check(schemas, reporter)``, skipping the definitions found valid before."""
    definitions = list(schemas.definitions.values())
    keys = [digest(validate.validator_version(), canonical_text(d.schema)) for d in definitions]
    known = store.get_many(NAMESPACE, keys)
    found_valid: dict[str, bytes] = {}
    for definition, key in zip(definitions, keys):
        if key in known:
            continue
        problems = validate.problems(definition)
        for problem in problems:
            reporter.add(problem)
        if not problems:
            found_valid[key] = b""
    if found_valid:
        store.put_many(NAMESPACE, found_valid)
