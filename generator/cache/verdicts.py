"""The meta-schema check (``frontend.validate``), remembering the definitions it found valid.

A definition the check accepted without a word is not checked again: its key is the validator's version and
what the definition is a pure function of: what its normal form was made from, where the normaliser's keeper
says (``normalised.Keeper.made_from``: the text it was read from, the dialect's context), else its canonical
text. A regeneration after a small edit checks what changed, without writing out the others. A definition
with anything to say (an error, a warning) is checked in every run, so that its problems are always
reported.

In a first run of a large input, the definitions to check are shared out among processes
(``forked``); what they find is reported in the definitions' order, as if checked here.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..diagnostics import Reporter
from ..frontend import validate
from ..frontend.schema import SchemaSet, canonical_text
from .forked import shared_out
from .store import Cache, digests

PARALLEL_FROM = 256 * 1024
"""Characters of definitions to check from which other processes check some of them (the check reads
some 5 MB of canonical text a second; starting a process costs a few milliseconds)."""

NAMESPACE = "valid"


def check(schemas: SchemaSet, reporter: Reporter, made_from: Mapping[str, str], store: Cache,
          processes: int = 1) -> None:
    """``validate.check(schemas, reporter)``, skipping the definitions found valid before (``made_from``: what
    definitions were made from, by key, where it is known); those to check, when they are many, checked by
    up to ``processes`` processes (``forked``)."""
    version = validate.validator_version()
    definitions = list(schemas.definitions.values())
    texts: dict[int, str] = {}

    def text(i: int) -> str:
        if i not in texts:
            texts[i] = canonical_text(definitions[i].schema)
        return texts[i]

    made = [made_from.get(key) for key in schemas.definitions]
    key = digests(version)  # (the validator's version and meta-schema hashed once)
    keys = [key("made from " + m) if m is not None else key(text(i)) for i, m in enumerate(made)]
    known = store.get_many(NAMESPACE, keys)
    unknown = [i for i, key in enumerate(keys) if key not in known]
    checked = shared_out(unknown, lambda i: len(text(i)), lambda i: validate.problems(definitions[i]), processes,
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
