"""What a schema accepts, by jsonschema, as the dataclass variant promises to read it (tests/test_openai_corpus.py).

The front end's own check of values (``frontend.values.Values``: JSON Schema 2020-12 on the canonical
form, ``oneOf`` read as ``anyOf``, formats not asserted), with the limits the dataclass variant does not
check (docs/semantics.md, "Not checked") taken as met, and an integer as ``json.loads`` reads one (``1e3``
and ``1.0`` are floats, which neither variant takes for an ``int``; JSON Schema would). A schema is found
by where it was written (``ir.Origin``): the place a class was lowered from.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from schemagen import ir
from schemagen.frontend.schema import ONE_SCHEMA, SCHEMA_LIST, SCHEMA_MAP, Schema, SchemaSet
from schemagen.frontend.values import Values

LIMITS = ("minLength", "maxLength", "pattern", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
          "multipleOf", "minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties")


class Oracle:
    def __init__(self, schemas: SchemaSet) -> None:
        from jsonschema import validators  # type: ignore[import-untyped]

        def met(*_: Any) -> Iterator[Any]:
            return iter(())

        kind = Values(schemas.definitions).kind
        integers = kind.TYPE_CHECKER.redefine("integer", lambda _, v: isinstance(v, int) and not isinstance(v, bool))
        self.kind = validators.extend(kind, dict.fromkeys(LIMITS, met), type_checker=integers)
        self.schemas: dict[tuple[str, str], Schema] = {}
        for definition in schemas.definitions.values():
            self._index(definition.schema)

    def _index(self, node: Any) -> None:
        if not isinstance(node, Schema):
            return
        self.schemas.setdefault((node.loc.path, node.loc.pointer), node)
        for key, value in node.items():
            inner = [value] if key in ONE_SCHEMA else value if key in SCHEMA_LIST and isinstance(value, list) else \
                list(value.values()) if key in SCHEMA_MAP and isinstance(value, dict) else []
            for schema in inner:
                self._index(schema)

    def schema(self, origin: ir.Origin | None) -> Schema | None:
        return None if origin is None else self.schemas.get((origin.path, origin.pointer))

    def errors(self, value: Any, schema: Schema) -> list[tuple[str | int, ...]]:
        """Where in ``value`` (each error's path) ``schema`` rejects it; ``[]``: it accepts it."""
        return [tuple(e.absolute_path) for e in self.kind(schema).iter_errors(value)]
