"""``schemagen validate``: the side, the payloads, what the models say of them, and the overlay to write."""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from ..compare import sides
from ..diagnostics.positions import locate_all
from ..frontend.read import read_document
from ..project.overlays import OverlayFile
from ..project.pipeline import mended
from . import Checked, check, place_of, read_all, report
from .explain import Problem
from .suggest import Suggestion, suggest


def run(target: str, payload_files: list[str], project: Path | None, output: str, overlay: Path | None,
        variant: str = "msgspec") -> int:
    """Prints the report; writes ``overlay`` when asked. Exit status: 0 when every payload is accepted."""
    try:
        side = sides.load(target, project)
    except sides.CompareError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if variant == "pydantic" and importlib.util.find_spec("pydantic") is None:
        print("error: the pydantic variant's models need pydantic, which is not installed here: "
              "pip install 'schemagen[pydantic]'", file=sys.stderr)
        return 1
    payloads = read_all([Path(f) for f in payload_files], payload_files)
    try:
        checked, note = check(side, payloads, variant)
    except RecursionError:
        print("error: a payload nests too deeply for its models to be followed into it", file=sys.stderr)
        return 1
    if note:
        print(f"note: {note}", file=sys.stderr)
    assert side.source is not None and side.project is not None
    root = side.project
    documents = dict(mended(p, side.source, root) for p in side.source.files)
    place = _Places(checked, documents, root)
    sys.stdout.write(report.as_json(checked, place) if output == "json" else report.text(checked, place))
    if overlay is not None:
        written = _write_overlay(overlay, checked, documents, root, side.source.overlays)
        for line in written.unmended:
            print(f"note: {line}", file=sys.stderr)
        print(f"{overlay}: {len(written.actions)} action(s) from {len(checked)} payload(s)" if written.actions
              else f"{overlay}: not written: nothing the payloads show can be mended by an overlay", file=sys.stderr)
    return 0 if all(c.accepted for c in checked) else 1


class _Places:
    """Each problem's ``file:line:col#pointer``, every file's positions looked up once."""

    def __init__(self, checked: list[Checked], documents: dict[str, Any], root: Path) -> None:
        self.checked = checked  # (keeps the problems, whose ids key ``places``, alive)
        self.places = {id(p): place_of(p, documents) for c in checked for p in c.problems}
        wanted: dict[str, set[str]] = {}
        for file, pointer in self.places.values():
            wanted.setdefault(file, set()).add(pointer)
        self.positions = {file: locate_all(root / file, sorted(pointers)) for file, pointers in wanted.items() if file}

    def __call__(self, problem: Problem) -> str:
        file, pointer = self.places[id(problem)]
        found = self.positions.get(file, {}).get(pointer)
        return f"{file}{f':{found[0]}:{found[1]}' if found else ''}#{pointer}"


def _write_overlay(path: Path, checked: list[Checked], documents: dict[str, Any], root: Path,
                   present: tuple[OverlayFile, ...]) -> Suggestion:
    """The overlay of the file most problems are written in, written whole or not at all. An overlay
    the input already has keeps its actions (the document was read with them), the new ones after."""
    counts: dict[str, int] = {}
    for c in checked:
        for p in c.problems:
            origin = p.owner.declaration.origin
            if origin is not None and origin.path in documents:
                counts[origin.path] = counts.get(origin.path, 0) + 1
    display = max(sorted(counts), key=lambda d: counts[d]) if counts else next(iter(documents))
    document = documents[display]
    found = suggest(document, display, [c.problems for c in checked], _says_nullable(document))
    if not found.actions:
        return found
    before = next((o for o in present if o.path.resolve() == path.resolve()), None)
    if before is not None:
        kept = read_document(before.path, before.display)
        found = Suggestion([*kept.get("actions", []), *found.actions], found.unmended)
    extends = os.path.relpath(root / display, path.absolute().parent)
    body = {"overlay": "1.0.0",
            "info": {"title": f"What {len(checked)} recorded payloads say of {display}", "version": "1.0.0"},
            "extends": Path(extends).as_posix(), "actions": found.actions}
    if path.suffix in (".yaml", ".yml"):
        import yaml

        text = yaml.safe_dump(body, sort_keys=False, allow_unicode=True, width=120)
    else:
        text = json.dumps(body, indent=2, ensure_ascii=False) + "\n"
    folder = path.absolute().parent
    with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=folder, delete=False, suffix=".tmp") as out:
        out.write(text)
    os.replace(out.name, path)
    return found


def _says_nullable(document: Any) -> str | None:
    """The keyword that says null: ``nullable`` in OpenAPI 3.0, ``x-nullable`` in Swagger 2.0; ``None``
    in 3.1 and JSON Schema, where null is a type."""
    if not isinstance(document, dict):
        return None
    if "swagger" in document:
        return "x-nullable"
    return "nullable" if str(document.get("openapi", "")).startswith("3.0") else None
