"""The diff of ``generated/`` after a big schema update, as git's default algorithm (myers) and
histogram show it: the figures in docs/reviewing.md.

The update is OpenAI's description (../shared/corpora/openai/openapi.yaml) gaining every second of
its component schemas that no other component refers to: ~160 new models spread over the whole
alphabet, as when a provider adds endpoints. In a throw-away git repository, the description
without them is generated and committed, then the whole description is generated; the
``git diff --stat`` summary of ``generated/`` is printed for each algorithm.

    .venv/bin/python bench/review_diff.py [--keep]

``--keep`` leaves the repository and prints where it is. Not part of ``make test``.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import yaml

from subset import mentions  # bench/, the script's folder

ROOT = Path(__file__).resolve().parent.parent
OPENAI = ROOT.parent / "shared" / "corpora" / "openai" / "openapi.yaml"
PYTHON = ROOT / ".venv" / "bin" / "python"
GIT_ENV = {"GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@example.com", "GIT_COMMITTER_NAME": "bench",
           "GIT_COMMITTER_EMAIL": "bench@example.com", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}


def without_unreferenced(text: str) -> tuple[str, int]:
    """The description with every second component schema that no other one mentions cut out (the
    text of the others kept byte for byte), and how many were cut."""
    schemas = yaml.safe_load(text)["components"]["schemas"]
    mentioned = {m for name, schema in schemas.items() for m in mentions(schema) if m != name}
    dropped = set([name for name in schemas if name not in mentioned][::2])
    start = text.index("\n  schemas:\n") + len("\n  schemas:\n")
    end = re.compile(r"^  \S", re.M).search(text, start)
    stop = end.start() if end else len(text)
    heads = [m.start() for m in re.finditer(r"^    [^ \n][^\n]*:\n", text[start:stop], re.M)]
    blocks = [text[start + a:start + b] for a, b in zip(heads, [*heads[1:], stop - start])]
    names = [yaml.safe_load(block.split("\n", 1)[0]).popitem()[0] for block in blocks]
    if sorted(names) != sorted(schemas):
        raise SystemExit("the component schemas are not one block of lines each; cannot cut them")
    kept = "".join(block for name, block in zip(names, blocks) if name not in dropped)
    return text[:start] + text[start:start + heads[0]] + kept + text[stop:], len(dropped)


def run(repo: Path, *command: str) -> str:
    done = subprocess.run(command, cwd=repo, capture_output=True, text=True, env={**os.environ, **GIT_ENV})
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr}")
    return done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", action="store_true", help="keep the repository")
    args = parser.parse_args()
    if not OPENAI.is_file():
        raise SystemExit(f"{OPENAI} is missing (see docs/conformance.md#the-corpora)")
    after = OPENAI.read_text(encoding="utf-8")
    before, added = without_unreferenced(after)
    repo = Path(tempfile.mkdtemp(prefix="schemagen-review-diff-"))
    try:
        (repo / "pyproject.toml").write_text('[tool.schemagen]\nschemas = "schemas"\noutput = "generated"\n')
        (repo / "schemas").mkdir()
        source = repo / "schemas" / "openai.yaml"
        generate = (str(PYTHON), "-m", "schemagen", "--project", str(repo), "generate")
        source.write_text(before, encoding="utf-8")
        run(repo, *generate)
        run(repo, "git", "init", "-q")
        run(repo, "git", "add", "-A")
        run(repo, "git", "commit", "-q", "-m", "before")
        source.write_text(after, encoding="utf-8")
        run(repo, *generate)
        print(f"{added} component schemas added to OpenAI's description; git diff --stat -- generated/:")
        for algorithm in ("myers", "histogram"):
            summary = run(repo, "git", "-c", f"diff.algorithm={algorithm}", "diff", "--stat", "--", "generated")
            print(f"  {algorithm:<9} {summary.splitlines()[-1].strip()}")
        if args.keep:
            print(f"kept: {repo}")
    finally:
        if not args.keep:
            shutil.rmtree(repo)


if __name__ == "__main__":
    main()
