"""Rewrites that more than one dialect needs."""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from typing import Any
from urllib.parse import unquote, urldefrag, urljoin

from ...diagnostics import Diagnostic, Location
from ..schema import LIST_KEYS, MAP_KEYS, ONE_KEYS, PYTHON_NAME, Schema

_JSON_TYPES = ((str, "a string"), (bool, "a boolean"), (int, "a number"), (float, "a number"), (list, "an array"))


def map_subschemas(schema: Schema, rewrite: Callable[[Schema], Schema]) -> Schema:
    """A copy of ``schema`` with ``rewrite`` applied to each direct subschema."""
    return rewrite_subschemas(Schema(dict(schema), schema.place), rewrite)


def rewrite_subschemas(schema: Schema, rewrite: Callable[[Schema], Schema]) -> Schema:
    """``map_subschemas`` of a schema that nothing else holds (as ``wrap`` makes them: an object of its
    own in each place): ``schema`` itself, each direct subschema replaced by what ``rewrite`` makes of
    it (the schemas of a document are not copied once more)."""
    for key, value in schema.items():  # (a key's value replaced: the dict keeps its size and order)
        if key in ONE_KEYS and isinstance(value, Schema):
            schema[key] = rewrite(value)
        elif key in LIST_KEYS and isinstance(value, list):
            schema[key] = [rewrite(v) if isinstance(v, Schema) else v for v in value]
        elif key in MAP_KEYS and isinstance(value, dict):
            schema[key] = {k: rewrite(v) if isinstance(v, Schema) else v for k, v in value.items()}
    return schema


def not_a_schema(raw: Any, where: Location) -> Diagnostic | None:
    """The error for a definition that is neither a schema object nor a boolean schema."""
    if isinstance(raw, (dict, bool)):
        return None
    kind = next((name for t, name in _JSON_TYPES if isinstance(raw, t)), "null")
    return Diagnostic(where, f"a definition must be a schema (an object or a boolean), not {kind}")


def boolean_exclusive_bounds(schema: dict[str, Any]) -> None:
    """Draft-04 / OpenAPI 3.0 ``exclusiveMinimum: true`` beside ``minimum`` → 2020-12 numbers."""
    for bound, exclusive in (("minimum", "exclusiveMinimum"), ("maximum", "exclusiveMaximum")):
        flag = schema.get(exclusive)
        if isinstance(flag, bool):
            del schema[exclusive]
            if flag and bound in schema:
                schema[exclusive] = schema.pop(bound)


def tuple_items(schema: dict[str, Any]) -> None:
    """Draft-07 array-form ``items`` (a tuple) → 2020-12 ``prefixItems`` + ``items``."""
    if isinstance(schema.get("items"), list):
        schema["prefixItems"] = schema.pop("items")
        if "additionalItems" in schema:
            schema["items"] = schema.pop("additionalItems")
    else:
        schema.pop("additionalItems", None)


def drop_extensions(schema: dict[str, Any]) -> None:
    """Vendor extensions (``x-…``) carry no type information; the one that names the Python type
    (``x-stainless-naming: {python: {type_name: …}}``, ``x-speakeasy-name-override``) stays as
    ``PYTHON_NAME``."""
    extensions = [k for k in schema if isinstance(k, str) and k.startswith("x-")]
    if not extensions:  # (most schemas have none, and so no name of their own)
        return
    named = _vendor_name(schema)
    for key in extensions:
        del schema[key]
    if named is not None:
        schema[PYTHON_NAME] = named


def _vendor_name(schema: dict[str, Any]) -> str | None:
    stainless = schema.get("x-stainless-naming")
    python = stainless.get("python") if isinstance(stainless, dict) else None
    for name in (python.get("type_name") if isinstance(python, dict) else None, schema.get("x-speakeasy-name-override")):
        if isinstance(name, str) and name.strip():
            return name.strip()
    return None


def join(base: str, ref: str) -> str:
    """``urljoin`` that also keeps a fragment-only reference on a URN base (``urn:uuid:…#/a``), and a
    file path's ``..`` above the folder it starts from (``urljoin("a.json", "../x.json")`` would be
    ``x.json``, a file beside it)."""
    if ref.startswith("#"):
        return urldefrag(base)[0] + ref
    if is_path(base) and is_path(ref):
        path, hash_, fragment = ref.partition("#")
        if not path:
            return urldefrag(base)[0] + hash_ + fragment
        joined = posixpath.normpath(posixpath.join(posixpath.dirname(urldefrag(base)[0]), path))
        return joined + ("/" if path.endswith("/") and not joined.endswith("/") else "") + hash_ + fragment
    return urljoin(base, ref)


def is_path(text: str) -> bool:
    """A file path (``schemas/a.json``, ``../b.json``), no URL (``https://…``, ``urn:…``, ``//host/…``)."""
    return ":" not in text.split("/", 1)[0] and not text.startswith("//")


def file_ref(ref: str, referrer: str) -> str | None:
    """A reference to another file as every dialect writes it canonically: the file's display path,
    joined from the ``referrer``'s (``schemas/a.yaml`` + ``./parts/b.yaml#/$defs/B`` →
    ``schemas/parts/b.yaml#/$defs/B``), then ``#`` and the unquoted fragment (nothing after ``#``
    for the file's root); ``#`` and the fragment when the path names the referrer itself; ``None``
    for a fragment alone (``#/…``) or a URL."""
    if ref.startswith("#"):
        return None
    target, fragment = urldefrag(join(referrer, ref))
    if not is_path(target):
        return None
    return f"{'' if target == urldefrag(referrer)[0] else target}#{unquote(fragment)}"


def home_ref(ref: str, referrer: str, home: str | None) -> str:
    """``ref`` written in ``referrer`` as the document ``home`` writes it: ``#/…`` for a place in
    ``home``, ``file#/…`` for a place in any other file (``file_ref``; a fragment alone stays local
    to ``referrer``). Without ``home``, ``referrer`` is the home."""
    found = file_ref(ref, referrer)
    if home is None or referrer == home:
        return found or ref
    if found is None:
        return referrer + ref if ref.startswith("#") else ref
    target, _, fragment = found.partition("#")
    target = target or referrer
    return ("" if target == home else target) + "#" + fragment


def write_only_not_required(schema: Schema) -> Schema:
    """``schema`` without its ``writeOnly`` properties in ``required``: such a property is sent, never
    returned ("never present when the instance is retrieved"), and a class is read as a response body
    (``readOnly`` ones stay as written: a response holds them)."""
    properties, required = schema.get("properties"), schema.get("required")
    if not isinstance(properties, dict) or not isinstance(required, list):
        return schema
    write_only = {k for k, sub in properties.items() if isinstance(sub, dict) and sub.get("writeOnly") is True}
    if not write_only & set(r for r in required if isinstance(r, str)):
        return schema
    return Schema({**schema, "required": [r for r in required if r not in write_only]}, schema.place)


def follow(document: Any, json_pointer: str,
           spelling: Callable[[Any, list[str], int], str] | None = None) -> Any:
    """The value ``json_pointer`` (``/a/0``, no ``#``) names in ``document``, or ``None``.
    ``spelling(node, tokens, i)``: the key the ``i``-th token stands for in ``node``, where the
    document was rewritten since the pointer was written (``jsonschema``: draft-07 tuples)."""
    node = document
    tokens = [raw.replace("~1", "/").replace("~0", "~") for raw in json_pointer.split("/")[1:]]
    for i, token in enumerate(tokens):
        token = spelling(node, tokens, i) if spelling is not None else token
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return None
    return node
