"""The meta-schema check (``frontend.validate``), remembering the definitions it found valid.

A definition the check accepted without a word is not checked again: its key is its canonical text
and the validator's version, so a regeneration after a small edit checks what changed. A definition
with anything to say (an error, a warning) is checked in every run, so that its problems are always
reported.

In a first run of a large input, the definitions to check are shared out among processes
(``forked``); what they find is reported in the definitions' order, as if checked here.
"""

from __future__ import annotations

from ..diagnostics import Reporter
from ..frontend import validate
from ..frontend.schema import SchemaSet, canonical_text
from .forked import shared_out
from .store import Cache, digest

PARALLEL_FROM = 256 * 1024
"""Characters of definitions to check from which other processes check some of them (the check reads
some 5 MB of canonical text a second; starting a process costs a few milliseconds)."""

NAMESPACE = "valid"


def check(schemas: SchemaSet, reporter: Reporter, store: Cache, processes: int = 1) -> None:
    """``validate.check(schemas, reporter)``, skipping the definitions found valid before; those to check,
    when they are many, checked by up to ``processes`` processes (``forked``)."""
    definitions = list(schemas.definitions.values())
    texts = [canonical_text(d.schema) for d in definitions]
    keys = [digest(validate.validator_version(), text) for text in texts]
    known = store.get_many(NAMESPACE, keys)
    unknown = [i for i, key in enumerate(keys) if key not in known]
    checked = shared_out(unknown, lambda i: len(texts[i]), lambda i: validate.problems(definitions[i]), processes,
                         PARALLEL_FROM)
    found_valid: dict[str, bytes] = {}
    for i, problems in zip(unknown, checked):
        if problems is None:  # (the check raised, or its process sent nothing back: checked here, as alone)
            problems = validate.problems(definitions[i])
        for problem in problems:
            reporter.add(problem)
        if not problems:
            found_valid[keys[i]] = b""
    if found_valid:
        store.put_many(NAMESPACE, found_valid)
