"""One JSON text read by the msgspec variant and by the pydantic variant (strict mode off, pydantic's
default), and what they read compared (tests/test_pydantic_agreement.py, tests/test_pydantic_lax.py).

msgspec's reading is ``msgspec.to_builtins`` of what it decodes; pydantic's is its JSON dump
(``mode="json"``), of the keys that were there (``exclude_unset=True``) and of all its fields. They are
the same JSON, but for what each variant says differently by design (docs/semantics.md), which is all
that is normalised:

- **Defaults.** msgspec writes a field the payload left out (its default, or a tagged class's tag), an
  ``exclude_unset`` dump does not: the keys the payload holds are compared, then every field, where a
  key pydantic holds as ``None`` and msgspec as ``UNSET`` (absent) is absent in both. A number default
  is compared as a JSON number: msgspec keeps the default the module writes (``1`` for a ``float``),
  pydantic writes it as its field's type (``1.0``).
- **Unknown keys.** An open model keeps them (``model_extra``), msgspec drops them: left out of
  pydantic's dump.
- **Arrays.** ``to_builtins`` keeps a ``tuple`` as one: JSON has arrays only.
- **A JSON number for a decimal** is compared as a float: pydantic reads it through one (a row of the
  table in docs/semantics.md).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import msgspec
import pydantic

from schemagen import ir
from schemagen.ir.walk import reachable
from test_dataclass_convert import _differs

_ADAPTERS: dict[Any, pydantic.TypeAdapter[Any]] = {}


def adapter(t: Any) -> pydantic.TypeAdapter[Any]:
    """``pydantic.TypeAdapter(t)`` (``t`` a model, an alias or a union of a module), built once per type and
    process: building one for a union costs more than reading a payload with it."""
    if t not in _ADAPTERS:
        _ADAPTERS[t] = pydantic.TypeAdapter(t)
    return _ADAPTERS[t]


@dataclass(frozen=True)
class Reading:
    """What one variant made of a JSON text: the JSON it reads back, or why it refused it."""

    value: Any = None
    """msgspec's builtins; pydantic's dump of the keys that were there (``exclude_unset``)."""
    every_field: Any = None
    """pydantic's dump of every field (msgspec's: ``value``)."""
    refusal: str | None = None
    """msgspec's message; pydantic's first error, as ``type at loc: msg``."""
    errors: tuple[dict[str, Any], ...] = ()
    """pydantic's errors (``ValidationError.errors()``)."""

    @property
    def read(self) -> bool:
        return self.refusal is None


def msgspec_reads(t: Any, raw: str | bytes) -> Reading:
    try:
        value = msgspec.to_builtins(msgspec.json.decode(raw, type=t))
    except msgspec.ValidationError as exc:
        return Reading(refusal=str(exc))
    return Reading(value, value)


def pydantic_reads(t: Any, raw: str | bytes) -> Reading:
    reader = adapter(t)
    try:
        read = reader.validate_json(raw)
    except pydantic.ValidationError as exc:
        errors = tuple(dict(error) for error in exc.errors(include_url=False))
        first = errors[0]
        return Reading(refusal=f"{first['type']} at {first['loc']}: {first['msg']}", errors=errors)
    return Reading(_known(read, reader.dump_python(read, mode="json", exclude_unset=True)),
                   _known(read, reader.dump_python(read, mode="json")))


def _known(read: Any, dumped: Any) -> Any:
    """``dumped`` (the dump of ``read``) without the unknown keys open models kept."""
    if isinstance(read, pydantic.BaseModel) and isinstance(dumped, dict):
        keys = {name: name if info.serialization_alias is None else info.serialization_alias
                for name, info in type(read).model_fields.items()}
        return {key: _known(getattr(read, name), dumped[key]) for name, key in keys.items() if key in dumped}
    if isinstance(read, (list, tuple)) and isinstance(dumped, list):
        return [_known(r, d) for r, d in zip(read, dumped)]
    if isinstance(read, dict) and isinstance(dumped, dict):
        return {key: _known(read[key], value) for key, value in dumped.items()}
    return dumped


def _present(reading: Any, payload: Any) -> Any:
    """msgspec's ``reading`` of ``payload`` with only the keys ``payload`` holds."""
    if isinstance(reading, dict) and isinstance(payload, dict):
        return {key: _present(value, payload[key]) for key, value in reading.items() if key in payload}
    if isinstance(reading, (list, tuple)) and isinstance(payload, list):
        return [_present(r, p) for r, p in zip(reading, payload)]
    return reading


def _unset(every_field: Any, reading: Any, payload: Any) -> Any:
    """pydantic's dump of every field without the nulls of keys that neither msgspec's ``reading`` nor
    ``payload`` holds (absent, ``UNSET`` in msgspec)."""
    if isinstance(every_field, dict) and isinstance(reading, dict):
        given = payload if isinstance(payload, dict) else {}
        return {key: _unset(value, reading.get(key), given.get(key)) for key, value in every_field.items()
                if key in reading or key in given or value is not None}
    if isinstance(every_field, list) and isinstance(reading, (list, tuple)):
        items = payload if isinstance(payload, list) else [None] * len(every_field)
        return [_unset(f, r, p) for f, r, p in zip(every_field, reading, items)]
    return every_field


def same(a: Any, b: Any, numbers: bool = False) -> bool:
    """Equal as JSON, and of the same JSON types all the way down (``1`` is not ``1.0``, nor ``True``,
    unless ``numbers``: then ``1`` is ``1.0``)."""
    a, b = (list(v) if isinstance(v, tuple) else v for v in (a, b))
    if numbers and {type(a), type(b)} <= {int, float}:
        return bool(a == b)
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(v, b[k], numbers) for k, v in a.items())
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y, numbers) for x, y in zip(a, b))
    return bool(a == b)


def _through_float(reading: Any, payload: Any) -> Any:
    """``reading`` with each decimal ``payload`` gives as a JSON number as that number's float: pydantic
    reads such a number through a float, msgspec from its digits (a row of the table)."""
    if isinstance(reading, str) and isinstance(payload, (int, float)) and not isinstance(payload, bool):
        try:
            return float(reading)
        except ValueError:
            return reading
    if isinstance(reading, dict) and isinstance(payload, dict):
        return {key: _through_float(value, payload.get(key)) for key, value in reading.items()}
    if isinstance(reading, (list, tuple)) and isinstance(payload, list):
        return [_through_float(r, p) for r, p in zip(reading, payload)]
    return reading


def read_otherwise(msgspec_reading: Reading, pydantic_reading: Reading, payload: Any) -> str | None:
    """How two readings of ``payload`` that both read it differ (see the module), else ``None``."""
    given, got = (_through_float(v, payload) for v in (_present(msgspec_reading.value, payload), pydantic_reading.value))
    if not same(given, got):
        return f"msgspec reads {json.dumps(given)}, pydantic {json.dumps(got)}"
    every = _unset(pydantic_reading.every_field, msgspec_reading.value, payload)
    given, got = (_through_float(v, payload) for v in (msgspec_reading.value, every))
    if not same(given, got, numbers=True):
        return f"with its defaults, msgspec reads {json.dumps(given)}, pydantic {json.dumps(got)}"
    return None


def at(value: Any, loc: tuple[int | str, ...]) -> tuple[bool, Any]:
    """Whether ``value`` (JSON) holds the place pydantic's error ``loc`` names, and what is there. A step
    ``value`` has no place for is pydantic's name of a union member (``'int'``, a tag) and is passed
    over, but for the last: a key an object does not hold."""
    for index, step in enumerate(loc):
        if isinstance(value, dict) and isinstance(step, str) and step in value:
            value = value[step]
        elif isinstance(value, list) and isinstance(step, int) and 0 <= step < len(value):
            value = value[step]
        elif isinstance(value, dict) and index == len(loc) - 1:
            return False, None
    return True, value


def msgspec_reads_otherwise(model: ir.Model, declarations: dict[str, ir.Declaration]) -> bool:
    """Whether the msgspec variant reads what ``model`` holds otherwise by design, so that pydantic may read
    it otherwise too: a union it widens, a key it cannot rename, a tag that is not ASCII (the dataclass
    variant's exceptions, ``_differs``); or a class it tells apart by its name, where its tag property lists
    other values (a discriminator without a mapping: docs/semantics.md, "pydantic's lax mode")."""
    if _differs(model, declarations):
        return True
    held = reachable(ir.Module(tuple(declarations.values())), [model.name]).declarations
    return any(isinstance(d, ir.Model) and d.tag is not None and _named(d, d.tag) for d in held)


def _named(model: ir.Model, tag: ir.Tag) -> bool:
    field = next((f for f in model.fields if f.wire_name == tag.field), None)
    return field is not None and isinstance(field.type, ir.Literal) and tag.value not in field.type.values
