"""Meta-schema check: every definition, in canonical form, must satisfy the JSON Schema meta-schema.

The draft-07 meta-schema checks every keyword the generator reads (2020-12 keywords it does not
know, like `prefixItems`, it leaves alone) at a fraction of the cost of the 2020-12 one.

Both dialects are checked the same way, after normalisation (OpenAPI's own keywords are gone by
then), and each problem points at the place in the input file it comes from. A misuse that
cannot change a generated type (an annotation, a repeated `required` entry) is a warning.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from .. import installed
from ..diagnostics import Diagnostic, Location, Reporter
from .schema import Definition, Schema, SchemaSet

if TYPE_CHECKING:
    from jsonschema import Draft7Validator

#: Keywords whose values are maps of names to schemas (a name there is no keyword).
NAMED_SCHEMAS = frozenset({"properties", "patternProperties", "definitions", "$defs", "dependentSchemas"})
#: Keywords whose misuse cannot change a generated type: a warning, not an error.
HARMLESS = frozenset({"$comment", "$anchor", "$recursiveAnchor", "$dynamicAnchor", "title", "description",
                      "examples", "deprecated", "readOnly", "writeOnly", "format", "contentMediaType",
                      "contentEncoding", "$schema", "$id"})
TYPE_HINT = "a type is one of: array, boolean, integer, null, number, object, string (or a list of them)"


def check(schemas: SchemaSet, reporter: Reporter) -> None:
    """Report every problem of every definition."""
    for definition in schemas.definitions.values():
        for problem in problems(definition):
            reporter.add(problem)


def problems(definition: Definition) -> list[Diagnostic]:
    """What the meta-schema says of one definition (errors and warnings), in the order of the document.

    (Not in the validator's: it visits the properties that ``additionalProperties`` checks as a set,
    whose order changes with the hash seed from one run to the next.)"""
    root = definition.schema
    position = _Positions(root)
    deepest = []
    for error in validator().iter_errors(root):
        while error.context:  # "valid under none of" a choice: the deepest problem inside it (the first, of several)
            error = min(error.context, key=lambda e: (-len(e.absolute_path), position(e.absolute_path)))
        deepest.append(error)
    deepest.sort(key=lambda e: position(e.absolute_path))  # (stable: one place keeps its order)
    found = []
    for error in deepest:
        path = list(error.absolute_path)
        where = _locate(definition.schema, path)
        keyword = path[-1] if path and (len(path) < 2 or path[-2] not in NAMED_SCHEMAS) else None
        if error.validator == "uniqueItems" or keyword in HARMLESS:
            found.append(Diagnostic(where, f"not a valid schema, read anyway: {_message(error)}", severity="warning",
                                    kind="invalid schema"))
        else:
            found.append(Diagnostic(where, f"not a valid schema: {_message(error)}",
                                    TYPE_HINT if keyword == "type" else None))
    return found


@lru_cache(maxsize=1)
def validator_version() -> str:
    """The validator's version and its meta-schema: what a verdict depends on besides the schema."""
    return installed.version("jsonschema") + json.dumps(validator().schema, sort_keys=True)


@lru_cache(maxsize=1)
def validator() -> Draft7Validator:
    """The meta-schema's validator (``jsonschema`` is imported when a run first checks a schema: a run
    with nothing to do never does)."""
    from jsonschema import Draft7Validator

    return Draft7Validator(Draft7Validator.META_SCHEMA)


class _Positions:
    """Where a path is in the document: the index of each step among its siblings (a key that is not
    there comes after them). Each mapping's keys are numbered once, when first met: a definition with
    a problem at each of many properties costs one pass over them, not one per problem."""

    def __init__(self, root: Schema) -> None:
        self.root = root
        self.numbered: dict[int, tuple[dict[Any, Any], dict[Any, int]]] = {}

    def __call__(self, path: Iterable[Any]) -> tuple[int, ...]:
        node: Any = self.root
        found = []
        for token in path:
            if isinstance(node, dict):
                numbers = self.numbered.get(id(node))
                if numbers is None:  # (the mapping kept beside its numbers, so that its ``id`` stays its own)
                    numbers = self.numbered[id(node)] = (node, {key: i for i, key in enumerate(node)})
                found.append(numbers[1].get(token, len(node)))
                node = node.get(token)
            elif isinstance(node, list) and isinstance(token, int):
                found.append(token)
                node = node[token] if 0 <= token < len(node) else None
            else:
                break
        return tuple(found)


def _locate(root: Schema, path: list[Any]) -> Location:
    """The location of the deepest schema object on ``path``, plus the rest of the path."""
    node: Any = root
    location = root.loc
    for i, token in enumerate(path):
        try:
            node = node[token]
        except (KeyError, IndexError, TypeError):
            return location.child(*path[i:])
        if isinstance(node, Schema):
            location = node.loc
        else:
            location = location.child(token)
    return location


def _message(error: Any) -> str:
    text = str(error.message)
    return text if len(text) <= 200 else text[:197] + "..."
