"""``compare`` on random pairs of schemas, checked with random payloads and both sides' real msgspec
models (tests/fuzz_strategies.py makes the schemas).

A pair is a random JSON Schema document and the same document after a few random edits (so that
many pairs are compatible one way or both). For each pair:

- each side compared with itself reports nothing;
- where ``compare`` finds no ``a->b`` difference, every payload A's schema allows that A's msgspec
  model decodes is decoded by B's too (and the mirror for ``b->a``); the payloads are drawn from
  each side's IR, with unknown keys now and then;
- every witness is decoded by the accepting side's model and refused by the other's, where the
  difference is.

``make test`` runs a few dozen derandomized examples; ``SCHEMAGEN_FUZZ_EXAMPLES`` runs more.
"""

from __future__ import annotations

import copy
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from compare_tools import Models, lowered, models, run, shows, side_of
from fuzz_strategies import Dialect, edit, json_values, schemas
from generator import ir
from generator.compare.shapes import Scope, Typed, bare, flatten, kind, limits, shape, within
from generator.compare.sides import Side
from generator.compare.values import FORMATTED, Builder, NoValue
from generator.diagnostics import SchemaError

EXAMPLES = int(os.environ.get("SCHEMAGEN_FUZZ_EXAMPLES") or 40)
PAYLOADS = 6
DIALECT = Dialect("/$defs")
NAMES = ["A", "B", "C"]

PROFILE = settings(max_examples=EXAMPLES, deadline=None, derandomize=not os.environ.get("SCHEMAGEN_FUZZ_EXAMPLES"),
                   database=None, suppress_health_check=list(HealthCheck))


@st.composite
def schema_pairs(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    """A document and the same document with 1-3 random edits, in either order."""
    sub = schemas(DIALECT, NAMES, max_leaves=8)
    root = draw(sub)
    document = {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "Root",
                **(root if isinstance(root, dict) else {"allOf": [root]}), "$defs": {n: draw(sub) for n in NAMES}}
    document["title"] = "Root"
    other = copy.deepcopy(document)
    edit(draw, {"schema.json": other}, NAMES, DIALECT.ref_prefix, DIALECT, draw(st.integers(1, 3)))
    return (other, document) if draw(st.booleans()) else (document, other)


def instances(t: Typed, keys: list[str], builder: Builder, depth: int = 0) -> st.SearchStrategy[Any]:
    """Values the IR says ``t`` allows (mostly), some with keys a model does not name."""
    options = [_member(m, keys, builder, depth) for m in flatten(t.type, t.scope)]
    return st.one_of(options) if options else st.nothing()


def _member(m: Typed, keys: list[str], builder: Builder, depth: int) -> st.SearchStrategy[Any]:
    b, c = bare(m.type), limits(m.type)
    k = kind(m.type)
    if depth > 4 and k in ("array", "object"):
        try:
            return st.just(builder.common(m, m))
        except NoValue:
            return st.nothing()
    strategy: st.SearchStrategy[Any]
    if k == "null":
        return st.none()
    if k == "any":
        return json_values
    if isinstance(b, ir.Literal):
        return st.sampled_from(b.values)
    if isinstance(b, ir.Scalar):
        if b.format is not None:
            return st.sampled_from(FORMATTED[b.format])
        strategy = {"str": st.from_regex(c.pattern) if c.pattern else st.text(max_size=6),
                    "int": st.integers(-10, 10) | st.integers(), "bool": st.booleans(),
                    "float": st.floats(allow_nan=False, allow_infinity=False) | st.integers(-10, 10)}[b.kind]
        near = [v for v in (c.ge, c.gt, c.le, c.lt) if v is not None and abs(v) < 2**53]
        if near and b.kind in ("int", "float"):
            strategy |= st.sampled_from([type_(v + d) for v in near for d in (-1, 0, 1) for type_ in (int, float)
                                         if b.kind == "float" or type_ is int])
        return strategy.filter(lambda v: within(v, c, decoding=False))
    if isinstance(b, ir.Tuple):
        return st.tuples(*(instances(Typed(i, m.scope), keys, builder, depth + 1) for i in b.items)).map(list)
    if isinstance(b, ir.Array):
        low = max(c.min_length or 0, 0)
        high = min(low + 2, c.max_length if c.max_length is not None else low + 2)
        items = instances(Typed(b.item, m.scope), keys, builder, depth + 1)
        return st.lists(items, min_size=low, max_size=high) if low <= high and low <= 20 else st.nothing()
    if isinstance(b, ir.Map):
        values = instances(Typed(b.value, m.scope), keys, builder, depth + 1)
        return st.dictionaries(st.sampled_from(keys), values, max_size=2)
    s = shape(m, tagged=False)
    required = {key: instances(Typed(slot.type, s.scope), keys, builder, depth + 1)
                for key, slot in s.fields.items() if slot.required or slot.tag}
    optional = {key: instances(Typed(slot.type, s.scope), keys, builder, depth + 1)
                for key, slot in s.fields.items() if key not in required}
    if s.extra is not None:
        optional.update({key: json_values for key in keys if key not in s.fields})
    return st.fixed_dictionaries(required, optional=optional)


def _wire_names(module: ir.Module) -> list[str]:
    return sorted({f.wire_name for d in module.declarations if isinstance(d, ir.Model) for f in d.fields} | {"zz"})


def _prepared(tmp_path: Path, schema: dict[str, Any], name: str) -> tuple[Side, Models] | None:
    try:
        module = lowered(tmp_path / name, schema)
    except SchemaError:
        return None
    except Exception:  # a crash of the generator itself: tests/test_fuzz.py holds it to clean errors
        return None
    if module.root is None:
        return None
    s = side_of(module, root=module.root, label=name)
    try:
        return s, models(s)
    except Exception:  # msgspec cannot build a decoder: tests/test_fuzz.py holds the generator to that
        return None


@PROFILE
@given(pair=schema_pairs(), data=st.data())
def test_compatible_means_every_payload_passes_and_every_witness_shows_its_difference(
        tmp_path_factory: pytest.TempPathFactory, pair: tuple[dict[str, Any], dict[str, Any]], data: st.DataObject
) -> None:
    folder = tmp_path_factory.mktemp("pair")
    prepared = [_prepared(folder, schema, name) for schema, name in zip(pair, ("a", "b"))]
    assume(prepared[0] is not None and prepared[1] is not None)
    (a, ma), (b, mb) = prepared  # type: ignore[misc]
    for one in (a, b):
        assert run(one, one).differences == [], f"{one.label} compared with itself"
    found = run(a, b)
    for d in found.differences:
        if d.direction != "docs":
            accepting, other = (ma, mb) if d.direction == "a->b" else (mb, ma)
            problem = shows(d, accepting, other)
            assert problem is None, f"{d.direction} {d.where}: {d.what}: {problem}; witness {d.witness}"
    keys = sorted(set(_wire_names(a.modules["x"])) | set(_wire_names(b.modules["x"])))
    builder = Builder(a, b)
    for source, target, direction in ((ma, mb, "a->b"), (mb, ma, "b->a")):
        if found.count(direction):  # type: ignore[arg-type]
            continue
        root = Typed(ir.Ref(source.side.root), Scope(source.side, source.side.package))
        for _ in range(PAYLOADS):
            payload = data.draw(instances(root, keys, builder), label=f"payload of {source.side.label}")
            if source.decode(payload) is None:
                refusal = target.decode(payload)
                assert refusal is None, f"no {direction} difference, yet {target.side.label} refuses {payload!r}: {refusal}"
