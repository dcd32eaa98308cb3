"""``compare`` on random pairs of schemas, checked with random payloads and both sides' real msgspec
models (tests/fuzz_strategies.py makes the schemas).

A pair is a document (a random one of tests/fuzz_strategies.py, or the seed provider's schema) and
the same document after mostly one edit that changes what it accepts (so that most pairs differ by
one rule, compatible one way and not the other, and a rule ``compare`` missed shows as a payload
one side refuses; the edits of tests/fuzz_strategies.py now and then too). For each pair:

- each side compared with itself reports nothing;
- where ``compare`` finds no ``a->b`` difference, every payload A's schema allows that A's msgspec
  model decodes is decoded by B's too (and the mirror for ``b->a``); the payloads are drawn from
  each side's IR, with unknown keys now and then, both by compare's own value builder and by
  tests/payload_strategies.py (broken now and then), which shares none of compare's readers;
- every witness is decoded by the accepting side's model and refused by the other's, where the
  difference is.

``make test`` runs a few dozen derandomized examples; ``SCHEMAGEN_FUZZ_EXAMPLES`` runs more.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from compare_tools import Models, lowered, models, run, shows, side_of
from fuzz_strategies import SEED_SCHEMA, Dialect, edit, json_values, ref_to, schemas
from payload_strategies import lists, mutated, payloads
from schemagen import ir
from schemagen.compare import report
from schemagen.compare.shapes import Scope, Typed, bare, flatten, kind, limits, shape, within
from schemagen.compare.sides import Side
from schemagen.compare.values import FORMATTED, Builder, NoValue
from schemagen.diagnostics import SchemaError

from conftest import examples

EXAMPLES = examples(40)
PAYLOADS = 20
DIALECT = Dialect("/$defs")
NAMES = ["A", "B", "C"]
SEED_NAMES = sorted(json.loads(SEED_SCHEMA.read_text())["definitions"])

PROFILE = settings(max_examples=EXAMPLES, suppress_health_check=list(HealthCheck))  # (the rest: tests/conftest.py)


@st.composite
def schema_pairs(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    """A document and the same document after a few edits, in either order. The document is a random
    one of tests/fuzz_strategies.py, or the seed provider's schema; the edits are mostly one
    ``narrowing`` (which changes what the document accepts, so that most pairs differ by one rule),
    sometimes one of tests/fuzz_strategies.py (any keyword, any value)."""
    if draw(st.booleans()):
        document, names, dialect = json.loads(SEED_SCHEMA.read_text()), SEED_NAMES, Dialect("/definitions")
    else:
        sub = schemas(DIALECT, NAMES, max_leaves=8)
        root = draw(sub)
        document = {"$schema": "https://json-schema.org/draft/2020-12/schema",
                    **(root if isinstance(root, dict) else {"allOf": [root]}), "$defs": {n: draw(sub) for n in NAMES}}
        document["title"] = "Root"
        names, dialect = NAMES, DIALECT
    other = copy.deepcopy(document)
    edit(draw, {"schema.json": other}, names, dialect.ref_prefix, dialect, draw(st.sampled_from([0, 0, 0, 1])))
    other = copy.deepcopy(other)  # narrowing edits in place: never a value a strategy may hand out again
    for _ in range(draw(st.sampled_from([1, 1, 1, 2]))):
        narrowing(draw, other, dialect.ref_prefix)
    return (other, document) if draw(st.booleans()) else (document, other)


TYPES = ["string", "integer", "number", "boolean", "null", "object", "array"]
PROPERTIES = [{"type": "string"}, {"type": "integer"}, {"type": ["string", "null"]}, {"enum": ["a", "b"]}, {}]
LIMIT_WORDS = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength", "minItems",
               "maxItems", "minProperties", "maxProperties"]


def narrowing(draw: st.DrawFn, document: dict[str, Any], prefix: str) -> None:
    """One edit, in place, of a subschema the root reaches that changes which payloads it accepts: a
    key made required or not, null allowed or not, an enum value, a limit, a type, a property,
    unknown keys allowed or not."""
    node = draw(st.sampled_from(_reachable(document, prefix)))
    properties = node.get("properties") if isinstance(node.get("properties"), dict) else None
    actions = ["enum", "limit", "type", "property", "closed"]
    actions += ["required"] * bool(properties) + ["null"] * isinstance(node.get("type"), (str, list))
    action = draw(st.sampled_from(actions))
    if action == "required" and properties:
        key = draw(st.sampled_from(sorted(properties)))
        required = node.get("required") if isinstance(node.get("required"), list) else []
        node["required"] = [k for k in required if k != key] if key in required else [*required, key]
    elif action == "null":
        types = [node["type"]] if isinstance(node["type"], str) else list(node["type"])
        node["type"] = [t for t in types if t != "null"] if "null" in types else [*types, "null"]
    elif action == "enum" and isinstance(node.get("enum"), list) and node["enum"] and draw(st.booleans()):
        node["enum"] = node["enum"][1:] if draw(st.booleans()) else [*node["enum"], draw(st.sampled_from(["zz", 7, None]))]
    elif action == "enum":
        node["enum"] = draw(st.lists(st.sampled_from(["a", "b", 0, 1, True, None]), min_size=1, max_size=3, unique=True))
    elif action == "limit":
        word = draw(st.sampled_from(LIMIT_WORDS))
        if word in node and draw(st.booleans()):
            del node[word]
        else:
            node[word] = draw(st.integers(0, 3).filter(lambda n: n != node.get(word)))
    elif action == "type":
        node["type"] = draw(st.sampled_from(TYPES).filter(lambda t: t != node.get("type")))
    elif action == "property":
        if properties and draw(st.booleans()):
            del properties[draw(st.sampled_from(sorted(properties)))]
        else:
            key = draw(st.sampled_from(["p", "q", "zz"]))
            node["properties"] = {**(properties or {}), key: copy.deepcopy(draw(st.sampled_from(PROPERTIES)))}
            if draw(st.booleans()):
                node["required"] = [*(node["required"] if isinstance(node.get("required"), list) else []), key]
    elif node.get("additionalProperties") is False:
        del node["additionalProperties"]
    else:
        node["additionalProperties"] = False


def _reachable(document: dict[str, Any], prefix: str) -> list[dict[str, Any]]:
    """The subschemas of the root and of the definitions (under ``prefix``) it refers to, directly or
    through others: an edit of a definition nothing uses would change nothing."""
    word = prefix.lstrip("/")
    definitions = document.get(word) if isinstance(document.get(word), dict) else {}
    found = list(_subschemas(document))
    used: set[str] = set()
    while True:
        text = json.dumps([{k: v for k, v in node.items() if k != word} for node in found])
        new = [n for n in definitions if n not in used and any(json.dumps(ref_to(prefix, n, encode)) in text
                                                               for encode in (False, True))]
        if not new:
            return found
        used.update(new)
        found += [node for n in new for node in _subschemas(definitions[n])]


MODELLED = ("items", "prefixItems", "additionalProperties", "anyOf", "oneOf", "allOf")
"""Keywords whose subschemas the models follow (with ``properties``): not ``not``, ``if``, ``contains``…"""


def _subschemas(value: Any) -> Iterator[dict[str, Any]]:
    """Every object in ``value`` that is a subschema the models follow (not definitions, nor what is
    under ``not``, ``if``, ``contains``…)."""
    if isinstance(value, dict):
        yield value
        for key, item in value.items():
            if key == "properties" and isinstance(item, dict):
                for child in item.values():
                    yield from _subschemas(child)
            elif key in MODELLED:
                yield from _subschemas(item)
    elif isinstance(value, list):
        for item in value:
            yield from _subschemas(item)


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
        return lists(items, min_size=low, max_size=high) if low <= high and low <= 20 else st.nothing()
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
        built = models(s)
        msgspec.json.Decoder(getattr(built.module, s.root))  # (msgspec checks some limits only here)
        return s, built
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
        if d.hidden_by is not None:  # one of the differences, the same way round; this one has no witness
            assert any(h is d.hidden_by for h in found.differences) and d.hidden_by is not d
            assert d.hidden_by.direction == d.direction and not d.witnessed, d.what
    said = [(d.direction, d.where, d.what) for d in found.differences]
    assert len(said) == len(set(said)), "a line is printed twice"
    for printed in (report.text, report.markdown, report.as_json):
        assert printed(found)
    keys = sorted(set(_wire_names(a.modules["x"])) | set(_wire_names(b.modules["x"])))
    builder = Builder(a, b)
    for source, target, direction in ((ma, mb, "a->b"), (mb, ma, "b->a")):
        if found.count(direction):  # type: ignore[arg-type]
            continue
        root = Typed(ir.Ref(source.side.root), Scope(source.side, source.side.package))
        declarations = {d.name: d for d in source.side.modules[source.side.package].declarations}
        independent = payloads(root.type, declarations)  # (tests/payload_strategies: none of compare's readers)
        drawn = st.one_of(instances(root, keys, builder), independent, independent.flatmap(mutated))
        for _ in range(PAYLOADS):
            payload = data.draw(drawn, label=f"payload of {source.side.label}")
            if source.decode(payload) is None:
                refusal = target.decode(payload)
                assert refusal is None, f"no {direction} difference, yet {target.side.label} refuses {payload!r}: {refusal}"
