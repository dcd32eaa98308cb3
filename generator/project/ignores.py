"""``ignore``: the warnings a project acknowledges, so that a run that finds nothing new prints none.

```toml
[tool.schemagen]
ignore = ["untagged union:#/components/schemas/Foo", "rejected value"]
```

An entry is ``KIND[:POINTER-PREFIX]``: the warning's kind as the summary line prints it (or with
hyphens, ``untagged-union``; case is not significant), and optionally a JSON pointer, as the warning
prints it, that the warning's pointer must start with, at a segment boundary (``#/a/B`` holds
``#/a/B/c``, not ``#/a/Bc``). Entries of the table hold for every input; an input's own
(``[[tool.schemagen.inputs]]``) for its warnings only. An entry that matches no warning of the run
is a warning of its own (``stale ignore``), so that the list does not outlive what it acknowledged.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..diagnostics import Diagnostic, Location
from ..diagnostics.kinds import STALE_IGNORE, WARNING_KINDS

_CANONICAL = {kind.lower().replace("-", " "): kind for kind in WARNING_KINDS}


@dataclass(frozen=True, slots=True)
class Ignore:
    kind: str
    """As ``Diagnostic.kind`` spells it."""
    prefix: str | None
    """A JSON pointer without its ``#``; ``None``: the kind anywhere."""
    setting: str
    """Where the entry is written: its pointer in ``pyproject.toml`` (``/tool/schemagen/ignore/0``)."""
    text: str

    def matches(self, warning: Diagnostic) -> bool:
        if warning.kind != self.kind:
            return False
        if self.prefix is None:
            return True
        found = warning.location.pointer
        return found == self.prefix or found.startswith(self.prefix + "/")


Fail = Callable[[str, str, str | None], None]


def read(value: Any, key: str, fail: Fail) -> tuple[Ignore, ...]:
    """The entries of the ``ignore`` list at ``key`` (``ignore``, ``inputs/0/ignore``: relative to
    ``[tool.schemagen]``); ``fail(key, message, hint)`` for each that is wrong."""
    if value is None:
        return ()
    if not isinstance(value, list):
        fail(key, f'must be a list of "KIND[:POINTER]" strings, not {value!r}', 'for example ["untagged union"]')
        return ()
    found = []
    for i, entry in enumerate(value):
        here = f"{key}/{i}"
        if not isinstance(entry, str):
            fail(here, f'each entry must be a string "KIND[:POINTER]", not {entry!r}', None)
            continue
        written, colon, prefix = entry.partition(":")
        kind = _CANONICAL.get(written.strip().lower().replace("-", " "))
        if kind is None:
            import difflib  # (here: only a mistake needs it)

            close = difflib.get_close_matches(written.strip().lower().replace("-", " "), list(_CANONICAL), n=1)
            fail(here, f"{written.strip()!r} is not a kind of warning; expected one of: {', '.join(WARNING_KINDS)}",
                 f"did you mean {_CANONICAL[close[0]]!r}?" if close else None)
            continue
        prefix = prefix.strip()
        if colon and not (prefix == "#" or prefix.startswith("#/")):
            fail(here, f"{prefix!r} is not a JSON pointer as warnings print it",
                 f"start it with '#/', as in {kind}:#/components/schemas/Name")
            continue
        found.append(Ignore(kind, (prefix[1:] or None) if colon else None, "/tool/schemagen/" + here, entry))
    return tuple(found)


def sift(warnings: Iterable[Diagnostic], entries: Sequence[Ignore],
         used: set[Ignore]) -> tuple[list[Diagnostic], list[Diagnostic]]:
    """``warnings`` (those kept, those an entry acknowledges); each entry that matched is added to ``used``."""
    kept: list[Diagnostic] = []
    ignored: list[Diagnostic] = []
    for warning in warnings:
        matched = [e for e in entries if e.matches(warning)]
        used.update(matched)
        (ignored if matched else kept).append(warning)
    return kept, ignored


def stale(entries: Iterable[Ignore], used: set[Ignore], root: Path) -> list[Diagnostic]:
    """A ``stale ignore`` warning for each entry that is not in ``used``, at its line in ``pyproject.toml``."""
    unused = [e for e in entries if e not in used]
    if not unused:
        return []
    from ..diagnostics.toml_positions import locate_toml  # (only where an entry is stale)

    try:
        text = (root / "pyproject.toml").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        text = ""
    found = []
    for entry in unused:
        line, column = locate_toml(text, entry.setting) or (None, None)
        found.append(Diagnostic(Location("pyproject.toml", entry.setting, line, column),
                                f"`ignore` entry {entry.text!r} matches no warning of this run",
                                "remove it: what it acknowledged is gone", "warning", STALE_IGNORE))
    return found


def of_one_input(warnings: Iterable[Diagnostic], everywhere: Sequence[Ignore], own: Sequence[Ignore],
                 root: Path) -> list[Diagnostic]:
    """The warnings of a run of one input (``render``, ``ir``, ``lint PATH``) that no entry acknowledges,
    and its own entries that matched none (the table's may hold for the other inputs)."""
    used: set[Ignore] = set()
    kept, _ = sift(warnings, [*everywhere, *own], used)
    return kept + stale(own, used, root)
