"""``anyOf`` and ``oneOf``: a union of the alternatives' types, tagged where a discriminator names the property."""

from __future__ import annotations

from collections import Counter
from functools import cache
from typing import Any

from .. import ir
from ..frontend.schema import Schema
from ..names import after, pascal, singular, words
from .context import Context
from .shapes import has_constant, implied_kind, text


def alternatives(lw: Context, schema: Schema, keyword: str, hint: str) -> ir.Type:
    """The union of ``schema[keyword]``; keywords beside the alternatives hold for each (``distribute``)."""
    options: list[Schema] = [s for s in schema[keyword] if isinstance(s, Schema)]
    base = {k: v for k, v in schema.items() if k not in (keyword, "discriminator", "description", "title", "default")}
    distributed = any(k in base for k in ("properties", "type", "required", "additionalProperties"))
    pairs = lw.distribute(base, options) if distributed else [(o, o) for o in options]
    if not pairs:
        lw.scope.reporter.warn(schema.loc.child(keyword), "no alternative can match the schema around it, "
                               "so no value is valid; typed as Any", kind="impossible schema")
        return ir.AnyType()
    options = [made for _, made in pairs]
    discriminator = schema.get("discriminator")
    field = discriminator.get("propertyName") if isinstance(discriminator, dict) else None
    names = member_names(lw, pairs, hint, field if isinstance(field, str) else None)
    members = [lw.type_of(o, name, made_by_folding=distributed) for o, name in zip(options, names)]
    result = ir.union(*members)
    if isinstance(result, ir.Union) and isinstance(field, str) and isinstance(discriminator, dict):
        return ir.Union(result.members, field, discriminator_tags(lw, options, field, discriminator.get("mapping")))
    return result


def member_names(lw: Context, pairs: list[tuple[Schema, Schema]], hint: str, field: str | None) -> list[str]:
    """The name each member declares under, if it declares one: what the member says of itself that
    no other member still unnamed says. In turn: its ``title`` (as it is when written as a class name
    no definition has, else after ``hint``); its tag (the value of ``field``, else of its first property
    with one value); the declaration it refers to; its kind (the one object member is ``hint``, or
    ``…Object`` where ``hint`` names a definition; the one array member is ``hint``, its items ``…Item``).
    A member that is a union of its own passes ``hint`` on to its members. Last, ``…Option<n>``,
    counting only such members. A name never depends on a member's place, nor on how many members
    there are.
    """
    expanded = [lw.expand(made) for _, made in pairs]
    sources = [[text(made.get("title")), tag_of(full, field), referred(lw, given), _kind(full)]
               for (given, made), full in zip(pairs, expanded)]
    chosen: list[str | None] = [None] * len(pairs)
    for rank in range(4):
        candidates = {i: _pascal(s[rank] or "") for i, s in enumerate(sources) if chosen[i] is None}
        taken = Counter(candidates.values())
        for i, word in candidates.items():
            if word and word[0].isalpha() and taken[word] == 1:
                chosen[i] = _named(lw, hint, word, rank, sources[i][0])
    counter = iter(range(1, len(pairs) + 1))
    return [name if name is not None else hint if _plain(full) or _nested(full) else f"{hint}Option{next(counter)}"
            for name, full in zip(chosen, expanded)]


@cache
def _pascal(text: str) -> str:
    return pascal(text)


def _named(lw: Context, hint: str, word: str, rank: int, title: str | None) -> str:
    """The name of a member by ``word``, what it says of itself of ``rank`` (see ``member_names``)."""
    if rank == 3:
        return hint + "Object" if word == "Object" and hint in lw.scope.named else hint
    written = rank == 0 and title == word and title.isidentifier()  # a class name already, not words
    if written and lw.free(word):
        return word  # `BetaResponseAudioWsDelta` (and not another union's member)
    named = _told_apart(lw, hint, word)
    return hint + "Object" if named == hint and hint in lw.scope.named else named  # (the title is the union's name)


def _told_apart(lw: Context, hint: str, name: str) -> str:
    """``name`` (a title another class has, a tag, the name of the definition a member folds in) told
    apart by the words of the union's name ``hint`` it does not say, a run of them at a time from the
    first, as few runs as make it free: of ``BetaResponsesWebSocketStreamEvent`` (runs ``Beta``,
    ``WebSocketStream``), ``ResponseCustomToolCallInputDelta`` is ``BetaResponseCustomToolCallInputDelta``,
    ``ResponseAudioDeltaEvent`` ``BetaWebSocketStreamResponseAudioDeltaEvent``. All of ``hint`` before it last."""
    said = {w.lower() for w in words(name)}
    runs: list[str] = [""]
    for w in words(hint):
        if w.lower() in said or (singular(w) or "").lower() in said:
            runs.append("")
        else:
            runs[-1] += w
    prefix = ""
    for run in filter(None, runs):
        prefix += run
        if lw.free(prefix + name):
            return prefix + name
    return after(hint, name)


def _kind(schema: Schema) -> str | None:
    kind = schema.get("type")
    kind = implied_kind(schema) if kind is None else kind
    return kind if kind in ("object", "array") else None


def _nested(schema: Schema) -> bool:
    """A member that is a union of its own: its members join this union, named among themselves."""
    return any(isinstance(schema.get(k), list) for k in ("anyOf", "oneOf")) and not schema.get("properties")


def _plain(schema: Schema) -> bool:
    """A member that declares nothing (a scalar, a value): it takes no place in the count."""
    kind = schema.get("type")
    return "const" in schema or "enum" in schema or (isinstance(kind, str) and kind not in ("object", "array"))


def tag_of(schema: Schema, field: str | None) -> str | None:
    """The one value ``schema`` allows for ``field`` (else for its first property that has one)."""
    properties = schema.get("properties")
    if not isinstance(properties, dict):
        return None
    for name in [field] if field is not None else list(properties):
        sub = properties.get(name)
        values = [sub["const"]] if isinstance(sub, Schema) and "const" in sub else \
            sub.get("enum") if isinstance(sub, Schema) else None
        if isinstance(values, list) and len(values) == 1 and isinstance(values[0], (str, int)) \
                and not isinstance(values[0], bool):
            return str(values[0])
    return None


def referred(lw: Context, schema: Schema) -> str | None:
    """The name of the definition a member refers to (``$ref``, or a lone ``allOf`` reference)."""
    target = schema.get("$ref")
    members = schema.get("allOf")
    if not isinstance(target, str) and isinstance(members, list) and len(members) == 1 \
            and isinstance(members[0], Schema):
        target = members[0].get("$ref")
    return lw.scope.names.get(target) if isinstance(target, str) else None


def discriminator_tags(lw: Context, options: list[Schema], field: str, mapping: Any) -> tuple[tuple[str, str], ...]:
    """Each referenced member's tag: from the mapping, else (when it has no const there) its name."""
    definitions, names = lw.scope.definitions, lw.scope.names
    by_key = {target: value for value, target in (mapping or {}).items() if isinstance(target, str)}
    tags = []
    for option in options:
        key = option.get("$ref")
        if not isinstance(key, str) or key not in definitions:
            continue
        if key in by_key:
            tags.append((names[key], str(by_key[key])))
        elif not has_constant(lw.expand(definitions[key].schema), field):
            tags.append((names[key], definitions[key].name))
    return tuple(tags)
