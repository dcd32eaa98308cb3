"""``names = "sdk"``: the names the official SDKs of these APIs give a spec's definitions, by rules read
off how they name them, applied to any spec (never a table of one spec's names).

- **Twins**: of two definitions whose names differ only in one word, ``Request`` in one and
  ``Response`` in the other, and not as the last word (``RequestTextBlock``/``ResponseTextBlock``,
  ``BetaRequestCitation``/``BetaResponseCitation``), the response side is the bare name
  (``TextBlock``): what a client reads is the thing itself, what it sends is a parameter. As the last
  word (``CreateOrderRequest``/``CreateOrderResponse``) the word is the noun and stays.
- **Param**: a definition a response reads (a response body, or what one refers to, transitively)
  whose name ends in the word ``Param`` is the bare name (``WebSearchToolParam`` → ``WebSearchTool``).

A bare name is taken only where it is free: no definition's name says the same words (in any case
or spelling), and no other definition's rules make it too. So a name depends on the set of names
the spec gives, never on the order definitions are met, and adding an unrelated definition renames
nothing. (How the words are cased is ``passes.naming``'s part of the setting.)
"""

from __future__ import annotations

from collections.abc import Mapping

from ..frontend.schema import Definition, reached
from ..names import alike, claimed_once, words


def sdk_names(definitions: Mapping[str, Definition], responses: frozenset[str] | None) -> dict[str, str]:
    """By key, the SDK's name of each definition the schema names whose name the rules change.

    ``responses``: the keys of the response bodies (``SchemaSet.responses``); ``None``: every
    definition may be read (no operations say otherwise)."""
    given = {key: d for key, d in definitions.items() if not d.derived}
    said = {alike(d.name) for d in given.values()}
    read = set(given) if responses is None else reached(definitions, responses)
    wanted: dict[str, list[str]] = {}
    for key, d in given.items():
        bare = _twin_bare(words(d.name), said)
        if key in read and len(bare) > 1 and bare[-1] == "Param":
            bare = bare[:-1]
        if bare != words(d.name):
            wanted[key] = bare
    return claimed_once({key: "".join(bare) for key, bare in wanted.items()}, (d.name for d in given.values()))


def _twin_bare(name: list[str], said: set[tuple[str, ...]]) -> list[str]:
    """``name`` without its one ``Response`` word that has a ``Request`` twin (see the module), else as it is."""
    found = [i for i, word in enumerate(name[:-1]) if word == "Response"
             and tuple(w.lower() for w in name[:i] + ["Request"] + name[i + 1:]) in said]
    return name[:found[0]] + name[found[0] + 1:] if len(found) == 1 else name

