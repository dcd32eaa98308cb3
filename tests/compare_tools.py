"""Helpers for the tests of ``schemagen compare``: a side from a schema, its msgspec models, and a
check that a witness shows its difference when decoded with both sides' real msgspec models.
"""

from __future__ import annotations

import itertools
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import msgspec

from schemagen import ir, render
from schemagen.compare import Comparison, Difference, compare
from schemagen.compare.sides import Side
from schemagen.diagnostics import Reporter
from schemagen.project.inputs import Input
from schemagen.project.pipeline import to_ir

_COUNTER = itertools.count()


@dataclass
class Models:
    """One side and its msgspec variant, imported."""

    side: Side
    module: ModuleType

    def decode(self, payload: Any) -> str | None:
        """``None`` when the root model decodes ``payload``, else msgspec's message."""
        try:
            msgspec.json.decode(json.dumps(payload).encode(), type=getattr(self.module, self.side.root))
            return None
        except msgspec.ValidationError as exc:
            return str(exc)


def lowered(folder: Path, schema: Any, name: str = "schema.json", package: str = "x") -> ir.Module:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(json.dumps(schema))
    return to_ir(Input(package, path, name), folder, Reporter())


def side_of(module: ir.Module, package: str = "x", root: str | None = None, label: str = "side") -> Side:
    name = root or module.root
    assert name is not None, "the schema has no root: name one"
    return Side(f"{label}#{name}", {package: module}, package, name)


def side(folder: Path, schema: Any, root: str | None = None) -> Side:
    return side_of(lowered(folder, schema), root=root, label=folder.name)


def models(s: Side) -> Models:
    """The msgspec variant of ``s`` (one package, no references to other inputs), imported."""
    source = render.layout(s.modules[s.package], "msgspec", "compare.json", render.environment())
    name = f"compare_models_{next(_COUNTER)}"
    module = ModuleType(name)
    sys.modules[name] = module
    exec(compile(source, name, "exec"), module.__dict__)
    return Models(s, module)


def run(a: Side, b: Side) -> Comparison:
    return compare(a, b)


def compared(tmp_path: Path, a: Any, b: Any) -> Comparison:
    """``a`` against ``b``, with every witness checked against the real msgspec models of both."""
    one, other = side(tmp_path / "a", a), side(tmp_path / "b", b)
    found = run(one, other)
    decoders: dict[str, Models] = {"a": models(one), "b": models(other)}
    for d in found.differences:
        if d.direction == "docs":
            assert d.witness is None
            continue
        accepting, refusing = (decoders["a"], decoders["b"]) if d.direction == "a->b" else (decoders["b"], decoders["a"])
        problem = shows(d, accepting, refusing)
        assert problem is None, f"{d.direction} {d.where}: {d.what}: {problem}; witness {d.witness}"
    return found


def lines(c: Comparison, *directions: str) -> list[str]:
    return [f"{d.direction} {d.where or '(root)'}: {d.what}" for d in c.differences
            if not directions or d.direction in directions]


_AT = re.compile(r" - at `\$(.*)`$")


def location(message: str) -> tuple[str, str | None]:
    """Where msgspec's ``message`` says the payload fails (indices as ``[]``, map keys as ``{}``), and the key
    it names for a missing or unknown field."""
    at = _AT.search(message)
    path = re.sub(r"\[\d+\]", "[]", at.group(1) if at else "").replace("[...]", "{}")
    named = re.search(r"(?:missing required|contains unknown) field `([^`]*)`", message)
    return path, named.group(1) if named else None


def expected_location(d: Difference) -> str:
    """The difference's place as msgspec would name it (union members left out)."""
    text = ""
    for kind, key in d.segments:
        if kind == "field":
            text += f".{key}"
        elif kind in ("item", "index"):
            text += "[]"
        elif kind == "value":
            text += "{}"
    return text


def shows(d: Difference, accepting: Models, other: Models) -> str | None:
    """``None`` when the witness of ``d`` is decoded by ``accepting`` and refused by ``other`` at the
    difference's place; else what is wrong."""
    if not d.witnessed:
        return None
    problem = accepting.decode(d.witness)
    if problem is not None:
        return f"the accepting side refuses the witness: {problem}"
    refusal = other.decode(d.witness)
    if refusal is None:
        return "the other side decodes the witness"
    path, named = location(refusal)
    wanted = expected_location(d)
    if path == wanted or (named is not None and f"{path}.{named}" == wanted) or (
            "unknown fields pass" in d.what and named is not None):
        return None
    if "unknown field" in refusal and wanted.startswith(path):
        return None  # a key only the accepting side has, refused by the other's closed model
    tag = re.search(r"\((.*)=.*\) only in", d.what)
    if tag and path == f"{wanted}.{tag.group(1)}":
        return None  # a member of a tagged union only one side has: refused at its tag
    return f"refused elsewhere: {refusal!r}, expected at {wanted!r}"
