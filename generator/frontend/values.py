"""Is a value one its own schema accepts? The check of the values a schema gives itself (a ``default``,
``examples``, OpenAPI's ``example``), by JSON Schema 2020-12 on the canonical form.

A ``$ref`` is followed to the definition of the set it names; one that names no definition (another
input, say) accepts anything, and so does a ``pattern`` Python cannot read. ``oneOf`` is checked as
``anyOf``, as schemagen reads it: a value that two members accept is not rejected. Formats are not
asserted.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from .schema import Definition, Schema

if TYPE_CHECKING:
    from jsonschema.protocols import Validator

LIMIT = 160
"""Characters of a reason, so that a warning stays a line."""


class Values:
    """Checks values against the schemas of one set of definitions."""

    def __init__(self, definitions: Mapping[str, Definition]) -> None:
        from jsonschema import Draft202012Validator, validators  # (imported by the meta-schema check already)

        def ref(validator: Draft202012Validator, ref: Any, instance: Any, schema: Any) -> Iterator[Any]:
            found = definitions.get(ref) if isinstance(ref, str) else None
            if found is not None:
                yield from validator.descend(instance, found.schema)

        def nothing(*_: Any) -> Iterator[Any]:
            return iter(())

        any_of = Draft202012Validator.VALIDATORS["anyOf"]
        # (types-jsonschema leaves ``extend`` unannotated; it returns a validator class)
        self.kind: type[Validator] = validators.extend(  # type: ignore[no-untyped-call]
            Draft202012Validator, {"$ref": ref, "$dynamicRef": nothing, "oneOf": any_of})

    def rejection(self, value: Any, schema: Schema) -> str | None:
        """Why ``schema`` rejects ``value`` (the most relevant error, and where in the value), or ``None``."""
        from jsonschema.exceptions import best_match

        try:
            error = best_match(self.kind(schema).iter_errors(value))
        except Exception:  # a pattern Python cannot read, a value nested too deeply: it cannot be told
            return None
        if error is None:
            return None
        where = "".join(f"[{t}]" if isinstance(t, int) else f".{t}" for t in error.absolute_path)
        reason = (f"at ${where}: " if where else "") + str(error.message)
        return reason if len(reason) <= LIMIT else reason[:LIMIT - 3] + "..."
