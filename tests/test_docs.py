"""The README and docs/ as a reader meets them: a README short enough to read first (users before
contributors, everything else in docs/), links that lead somewhere, and an example that is what
`schemagen generate` writes."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "examples" / "openai" / "README.md"]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def test_readme_is_at_most_300_lines() -> None:
    lines = (ROOT / "README.md").read_text().count("\n")
    assert lines <= 300, f"README.md has {lines} lines; move the detail into a page of docs/ and link it"


def anchors(page: Path) -> set[str]:
    """The anchors GitHub gives the headings of a page: lower case, punctuation dropped, spaces as
    hyphens, a repeated heading numbered."""
    found: set[str] = set()
    count: dict[str, int] = {}
    for line in FENCE.sub("", page.read_text()).splitlines():
        if heading := re.match(r"#{1,6} (.*)", line):
            slug = re.sub(r"[^\w\- ]", "", heading.group(1).strip().lower()).replace(" ", "-")
            count[slug] = count.get(slug, -1) + 1
            found.add(slug if count[slug] == 0 else f"{slug}-{count[slug]}")
    return found


def test_every_relative_link_names_a_file_and_a_heading_that_exist() -> None:
    broken = []
    for page in PAGES:
        for target in LINK.findall(FENCE.sub("", page.read_text())):
            if re.match(r"[a-z]+:", target):
                continue  # https:, mailto:
            path, _, anchor = target.partition("#")
            file = (page.parent / path).resolve() if path else page
            if not file.exists():
                broken.append(f"{page.relative_to(ROOT)}: {target}: no file {path}")
            elif anchor and file.suffix == ".md" and anchor not in anchors(file):
                broken.append(f"{page.relative_to(ROOT)}: {target}: no heading #{anchor} in {file.relative_to(ROOT)}")
    assert not broken, "\n".join(broken)


def test_the_readme_example_is_what_generate_writes() -> None:
    """Each line of the README's `ChatCompletionChoice` that is no docstring is in the generated
    class, in the same order (the README shortens docstrings only)."""
    readme = (ROOT / "README.md").read_text()
    block = re.search(r"```python\n(class ChatCompletionChoice\(.*?)```", readme, re.S)
    assert block is not None, "README.md shows no `class ChatCompletionChoice`"
    generated = (ROOT / "generated" / "openai" / "msgspec_models.py").read_text()
    start = generated.index("class ChatCompletionChoice(")
    real = generated[start:generated.index("\n\n\n", start)].splitlines()
    shown = [line for line in block.group(1).splitlines() if line.strip() and not line.strip().startswith('"""')]
    at = 0
    for line in shown:
        assert line in real[at:], f"README.md shows {line!r}, which generated/openai/msgspec_models.py does not"
        at = real.index(line, at) + 1
