"""The table of docs/semantics.md, "pydantic's lax mode": where the pydantic variant (strict mode off) reads
a payload otherwise than the msgspec variant. tests/test_pydantic_lax.py reads each row with the models
generated for it; tests/test_pydantic_agreement.py lets the variants differ only where a row does, in kind.

A row's **kind** is what a disagreement is matched by. Where pydantic reads what msgspec refuses:
msgspec's message without its place (``Expected `int`, got `float` ``; an enum value as its JSON type,
``Invalid enum value <bool>``; a union of expected types as each of them, null aside). Where msgspec
reads what pydantic refuses: the type of pydantic's error, with what the payload and msgspec's reading
hold at its place (``missing``, absent, a string: the tag msgspec took as the class's own).
"""

from __future__ import annotations

import json
import re
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from conftest import bench_module
from golden import ROOT
from pydantic_reading import Reading, at, msgspec_reads, pydantic_reads, read_otherwise
from schemagen.diagnostics import Reporter
from schemagen.project.inputs import Input
from schemagen.project.pipeline import Renderer, to_ir
from schemagen.render.options import RenderOptions

SEMANTICS = ROOT / "docs" / "semantics.md"
HEADING = "## pydantic's lax mode"
COLUMNS = ["case", "schema", "payload", "msgspec", "pydantic"]
SHAPES = {
    "Circle": {"type": "object", "required": ["kind"],
               "properties": {"kind": {"const": "circle"}, "radius": {"type": "number"}}},
    "Square": {"type": "object", "required": ["kind"],
               "properties": {"kind": {"const": "square"}, "side": {"type": "number"}}},
    "Shape": {"oneOf": [{"$ref": "#/$defs/Circle"}, {"$ref": "#/$defs/Square"}]},
}
"""The definitions a row's schema may refer to, as the section's introduction says."""


@dataclass(frozen=True)
class Outcome:
    """A variant's column: the JSON it reads back, or its refusal (msgspec's message, pydantic's error type)."""

    reads: Any = None
    refusal: str | None = None


@dataclass(frozen=True)
class Row:
    case: str
    schema: Any
    text: str
    """The payload as the table writes it (a number's digits are its own: ``json.dumps`` would round them)."""
    msgspec: Outcome
    pydantic: Outcome

    @property
    def payload(self) -> Any:
        return json.loads(self.text)


@cache
def rows() -> tuple[Row, ...]:
    """The rows of the section's table in docs/semantics.md."""
    text = SEMANTICS.read_text()
    assert HEADING in text, f"{SEMANTICS.name} has no section {HEADING!r}"
    section = text.split(HEADING, 1)[1].split("\n## ", 1)[0]
    lines = [line for line in section.splitlines() if line.startswith("|")]
    assert lines and _cells(lines[0]) == COLUMNS, f"the table's columns are not {COLUMNS}"
    return tuple(Row(case, json.loads(_code(schema)), _code(payload), _outcome(ms), _outcome(py))
                 for case, schema, payload, ms, py in map(_cells, lines[2:]))


def _cells(line: str) -> list[str]:
    return [cell.strip().replace("\\|", "|") for cell in re.split(r"(?<!\\)\|", line.strip())[1:-1]]


def _code(cell: str) -> str:
    match = re.fullmatch(r"(`+)(.+?)\1", cell)
    assert match, f"not a code span: {cell!r}"
    return match.group(2).strip()


def _outcome(cell: str) -> Outcome:
    if cell.startswith("reads "):
        return Outcome(reads=json.loads(_code(cell.removeprefix("reads "))))
    return Outcome(refusal=_code(cell))


# --- the models of the rows -----------------------------------------------------------------------------

modules = bench_module("modules")


def document(table: tuple[Row, ...]) -> dict[str, Any]:
    """One JSON Schema document: for row ``n``, ``Row<n>`` with the row's schema as a required ``value``,
    ``Row<n>Optional`` with it as one that may be absent."""
    definitions: dict[str, Any] = dict(SHAPES)
    for n, row in enumerate(table, 1):
        definitions[f"Row{n}"] = {"type": "object", "required": ["value"], "properties": {"value": row.schema}}
        definitions[f"Row{n}Optional"] = {"type": "object", "properties": {"value": row.schema}}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": definitions}


def generate(schema: dict[str, Any]) -> tuple[ModuleType, ModuleType]:
    """The msgspec and pydantic modules of a JSON Schema document."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "lax.json"
        path.write_text(json.dumps(schema))
        module = to_ir(Input("lax", path, path.name, "jsonschema"), Path(folder), Reporter())
    renderer = Renderer(None, RenderOptions())
    ms, py = (modules.exec_module(renderer.render(module, v, "lax"), "lax") for v in ("msgspec", "pydantic"))
    return ms, py


@cache
def generated() -> tuple[ModuleType, ModuleType]:
    """The modules of the table's document (made once per process)."""
    return generate(document(rows()))


def read(n: int, optional: bool) -> tuple[Reading, Reading]:
    """Row ``n``'s payload (1-based), as the value of its class, read by msgspec and by pydantic."""
    ms, py = generated()
    name = f"Row{n}" + ("Optional" if optional else "")
    raw = f'{{"value": {rows()[n - 1].text}}}'
    return msgspec_reads(getattr(ms, name), raw), pydantic_reads(getattr(py, name), raw)


# --- kinds ------------------------------------------------------------------------------------------------

PLACE = re.compile(r" - at `[^`]*`$")
EXPECTED = re.compile(r"Expected `([^`]*)`, got `([^`]*)`")
ENUM_VALUE = re.compile(r"(Invalid (?:enum )?value) (.*)")


def msgspec_kinds(message: str) -> set[str]:
    """The kinds of a msgspec refusal (see the module)."""
    message = PLACE.sub("", message)
    if expected := EXPECTED.fullmatch(message):
        types, got = expected.groups()
        return {f"Expected `{t}`, got `{got}`" for t in types.split(" | ") if t != "null"}
    if enum := ENUM_VALUE.fullmatch(message):
        value = enum.group(2)
        kind = "str" if value[:1] in "'\"" else "bool" if value in ("True", "False") else "number"
        return {f"{enum.group(1)} <{kind}>"}
    return {message}


AT = re.compile(r" - at `\$([^`]*)`$")
STEP = re.compile(r"\.([^.\[]+)|\[(\d+|\.\.\.)\]")
NAMES = {bool: "bool", int: "int", float: "float", str: "str", dict: "object", list: "array", type(None): "null"}


def converted(message: str, payload: Any, reading: Any) -> set[str]:
    """The kinds of what pydantic read instead of the payload's value at the place msgspec refused it, as
    a conversion (``Expected `bool`, got `int` ``). Of a union that refuses a value, msgspec names one
    member (``Expected `float` >= 5.0``: the number is too small), not another that pydantic's lax mode
    converts the value to (a ``bool`` member reads ``0`` as ``false``)."""
    at = AT.search(message)
    if at is None:
        return set()
    places = [(payload, reading)]
    for step in STEP.finditer(at.group(1)):
        key, index = step.groups()
        deeper = []
        for given, read in places:
            if key is not None and isinstance(given, dict) and isinstance(read, dict) and key in given and key in read:
                deeper.append((given[key], read[key]))
            elif index == "..." and isinstance(given, dict) and isinstance(read, dict):  # (msgspec hides a map's keys)
                deeper += [(given[k], read[k]) for k in given if k in read]
            elif index not in (None, "...") and isinstance(given, list) and isinstance(read, list) \
                    and int(index) < min(len(given), len(read)):
                deeper.append((given[int(index)], read[int(index)]))
        places = deeper
    return {f"Expected `{NAMES.get(type(read), '?')}`, got `{NAMES.get(type(given), '?')}`"
            for given, read in places if type(given) is not type(read)}


def json_kind(present: bool, value: Any) -> str:
    if not present:
        return "absent"
    return {dict: "object", list: "array", str: "string", bool: "boolean", type(None): "null"}.get(type(value), "number")


def pydantic_kinds(payload: Any, msgspec_reading: Any, errors: tuple[dict[str, Any], ...]) -> set[tuple[str, str, str]]:
    """The kinds of a pydantic refusal of what msgspec read (see the module): one per error."""
    return {(error["type"], json_kind(*at(payload, error["loc"])), json_kind(*at(msgspec_reading, error["loc"])))
            for error in errors}


@cache
def excuses() -> tuple[frozenset[str], frozenset[tuple[str, str, str]]]:
    """The kinds of the rows, read with their models: of msgspec's refusals pydantic reads, and of
    pydantic's refusals msgspec reads."""
    forward: set[str] = set()
    reverse: set[tuple[str, str, str]] = set()
    for n, row in enumerate(rows(), 1):
        for optional in (False, True):
            ms, py = read(n, optional)
            if ms.refusal is not None and py.read:
                forward |= msgspec_kinds(ms.refusal)
            elif ms.read and py.refusal is not None:
                reverse |= pydantic_kinds({"value": row.payload}, ms.value, py.errors)
    return frozenset(forward), frozenset(reverse)


def disagreement(msgspec_type: Any, pydantic_type: Any, payload: Any) -> str | None:
    """``None`` when both variants read ``payload`` alike (tests/pydantic_reading.py), or differ only as a
    row of the table does, in kind; else how they differ."""
    raw = json.dumps(payload)
    ms, py = msgspec_reads(msgspec_type, raw), pydantic_reads(pydantic_type, raw)
    forward, reverse = excuses()
    if ms.read and py.read:
        return read_otherwise(ms, py, payload)
    if ms.refusal is not None and py.read:
        if (msgspec_kinds(ms.refusal) | converted(ms.refusal, payload, py.value)) & forward:
            return None
        return f"msgspec: {ms.refusal}; pydantic reads {json.dumps(py.value)}"
    if ms.read and py.refusal is not None:
        if pydantic_kinds(payload, ms.value, py.errors) <= reverse:
            return None
        return f"pydantic: {py.refusal}; msgspec reads {json.dumps(ms.value)}"
    return None
