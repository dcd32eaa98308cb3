"""The command that regenerates a project's output, as its headers and messages name it: ``make generate``
where the project's Makefile (at its root) has a ``generate`` target, else ``schemagen generate``.

Read from the project's files only, so the header it goes into is the same on every machine; it is part
of the configuration (``RenderOptions.command``), so a Makefile added or changed is a run to do.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..render.options import DEFAULT_COMMAND

MAKE_COMMAND = "make generate"
MAKEFILES = ("GNUmakefile", "makefile", "Makefile")
"""The names GNU make reads, in its order: the first one there is the project's Makefile."""

_RULE = re.compile(r"^(?![\t#])([^:=#\n]*)::?(?![:=])", re.MULTILINE)
"""A rule's targets (``generate check: deps``), not a variable (``X := y``) nor a recipe line."""


def regenerate(root: Path) -> str:
    for name in MAKEFILES:
        path = root / name
        if path.is_file():
            try:
                text = path.read_text(encoding="utf-8", errors="replace")
            except OSError:
                return DEFAULT_COMMAND
            targets = {target for rule in _RULE.finditer(text) for target in rule[1].split()}
            return MAKE_COMMAND if "generate" in targets else DEFAULT_COMMAND
    return DEFAULT_COMMAND
