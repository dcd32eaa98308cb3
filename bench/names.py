"""How a description's declarations are named: what the schema names, what schemagen invents, and how.

    .venv/bin/python bench/names.py [SCHEMA] [--list KIND]

``SCHEMA`` defaults to OpenAI's description (../shared/corpora/openai/openapi.yaml). Prints the
declarations (classes and aliases) after the passes, and of them:

- ``invented``: names the schema does not give (inline declarations);
- ``one place, several names``: schema places (file and pointer) declared more than once;
- ``long``: invented names over 40 characters;
- ``repeated word``: names that say a word twice in a row (``…FileFile``);
- ``twice-said word``: invented names that say a word (of 4 letters or more) twice anywhere;
- ``numbered``: names that end in ``_<n>``;
- ``positional``: names with ``Option<n>``/``Item<n>`` in them;
- ``not PascalCase``: names the schema gives that keep an underscore.

``--list KIND`` prints the names of one kind (its first word: ``--list numbered``).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from schemagen import ir  # noqa: E402
from schemagen.diagnostics import Reporter  # noqa: E402
from schemagen.names import words  # noqa: E402
from schemagen.project.inputs import Input  # noqa: E402
from schemagen.project.pipeline import to_ir  # noqa: E402

OPENAI = ROOT.parent / "shared" / "corpora" / "openai" / "openapi.yaml"
POSITIONAL = re.compile(r"(Option|Item)\d")
NUMBERED = re.compile(r"_\d+$")


def kinds(module: ir.Module) -> dict[str, list[str]]:
    declarations = module.declarations
    places: dict[tuple[str, str], list[str]] = defaultdict(list)
    for d in declarations:
        if d.origin is not None:
            places[d.origin.path, d.origin.pointer].append(d.name)
    invented = [d.name for d in declarations if d.inline]
    return {
        "declarations": [d.name for d in declarations],
        "invented": invented,
        "one place, several names": [" = ".join(n) for n in places.values() if len(n) > 1],
        "long": [n for n in invented if len(n) > 40],
        "repeated word": [n for n in (d.name for d in declarations) if _repeats(n)],
        "twice-said word": [n for n in invented if _twice(n)],
        "numbered": [d.name for d in declarations if NUMBERED.search(d.name)],
        "positional": [d.name for d in declarations if POSITIONAL.search(d.name)],
        "not PascalCase": [d.name for d in declarations if not d.inline and "_" in d.name.strip("_")],
    }


def _repeats(name: str) -> bool:
    said = [w.lower() for w in words(name)]
    return any(a == b for a, b in zip(said, said[1:]))


def _twice(name: str) -> bool:
    said = [w.lower() for w in words(name) if len(w) >= 4]
    return len(said) != len(set(said))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("schema", nargs="?", type=Path, default=OPENAI)
    parser.add_argument("--list")
    args = parser.parse_args()
    path = args.schema.resolve()
    module = to_ir(Input("names", path, path.name), path.parent, Reporter())
    found = kinds(module)
    if args.list:
        [kind] = [k for k in found if k.split()[0] == args.list]
        print("\n".join(sorted(found[kind])))
        return
    for kind, names in found.items():
        print(f"{kind:<26} {len(names):>6}")


if __name__ == "__main__":
    main()
