"""Short invented names: an inline class's name without the name of the definition it is declared in,
where that says enough and no other class has or wants it.

An inline class is named after the definition it is written in and the way from there
(``CreateChatCompletionRequestWebSearchOptionsUserLocation``). Without the definition's name
(``WebSearchOptionsUserLocation``) it is shorter, and reads as the SDKs name nested types (relative to
their top class). The short name is taken when it has two words or more (one word, ``Url`` of
``…ContentPartImageUrl``, may have lost the word it shared with the definition's name), and no
declaration's name says the same words, and no other inline class's short name is the same. So it
depends on the set of names, never on the order classes are met; a class only loses its short name
to an edit that makes another class want the same one (``schemagen diff`` reads that as a rename).

Which names are shortened is the ``names`` setting's: long ones (over ``LONG`` characters) with
``"schema"``, every one with ``"sdk"``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .. import ir
from ..ir.walk import rename_all
from ..names import Naming, claimed_once, words

LONG = 40
"""With ``names = "schema"``, an invented name longer than this is shortened where it may be."""


def shortened(module: ir.Module, declared_in: Mapping[str, str], names: Naming) -> ir.Module:
    """``module`` with the inline classes of ``declared_in`` (name → the name of the definition they
    are declared in) renamed to their short names, where they may be (see the module)."""
    return rename_all(module, short_names([d.name for d in module.declarations], declared_in, names))


def short_names(taken: Iterable[str], declared_in: Mapping[str, str], names: Naming) -> dict[str, str]:
    """The short name of each inline class of ``declared_in`` that may take one, among the declarations
    named ``taken``."""
    wanted: dict[str, str] = {}
    for name, root in declared_in.items():
        short = name[len(root):]
        if name.startswith(root) and (names == "sdk" or len(name) > LONG) and short[:1].isupper() \
                and len(words(short)) >= 2:
            wanted[name] = short
    return claimed_once(wanted, taken) if wanted else {}
