"""The JSON Schema meta-schemas of draft-04, -06, -07, 2019-09 and 2020-12, shipped with the generator.

A ``$ref`` to one (``http://json-schema.org/draft-07/schema#``, ``https://json-schema.org/draft/2020-12/schema``;
``http`` and ``https`` alike, with or without the empty fragment) reads the copy in this folder, found
by its ``$id``: nothing is fetched. The files are the texts the specification publishes (LICENSE here).

The 2019-09 and 2020-12 meta-schemas are an ``allOf`` of vocabulary meta-schemas whose subschemas are
``$recursiveRef: "#"`` / ``$dynamicRef: "#meta"``. Entered at the draft's meta-schema (the only way in:
a vocabulary is read only as a part of it), each of those resolves to that meta-schema itself, so
``read`` makes them plain ``$ref``s to it: the model is the whole meta-schema, recursively. It also
leaves out what would only make warnings or surprises (``_static``): the two keywords the generator
does not enforce, and the defaults.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag

from ..schema import ONE_SCHEMA, SCHEMA_LIST, SCHEMA_MAP

FOLDER = Path(__file__).resolve().parent
HOSTS = ("http://json-schema.org/", "https://json-schema.org/")
#: The meta-schemas a ``$ref`` may name (the vocabularies are reached only from within them).
ROOTS = ("draft-04", "draft-06", "draft-07", "draft-2019-09", "draft-2020-12")


def canonical(url: str, inside: bool = False) -> str | None:
    """The ``$id`` (without fragment) of the shipped meta-schema ``url`` names, if any; ``inside``:
    ``url`` is referred to from a shipped meta-schema, so a vocabulary counts too."""
    if not url.startswith(HOSTS):
        return None
    found = _index().get(_key(url))
    if found is None or (not inside and found[1].stem not in ROOTS):
        return None
    return found[0]


def read(ident: str) -> Any:
    """The shipped document whose canonical ``$id`` is ``ident``, its dynamic references made static."""
    ident, path = _index()[_key(ident)]
    document = json.loads(path.read_text(encoding="utf-8"))
    root = ident.rsplit("/meta/", 1)[0] + "/schema" if "/meta/" in ident else ident
    # Read under ``ident`` itself, the document needs no ``$id``; merged into the meta-schema's
    # ``allOf``, the vocabularies' ``$id``s and ``$vocabulary``s would only disagree.
    return {k: v for k, v in _static(document, root).items() if k not in ("$id", "id", "$vocabulary")}


def _static(schema: Any, root: str) -> Any:
    """``schema`` with each ``$recursiveRef``/``$dynamicRef`` made ``$ref: root``, without the anchors
    they look for, without the keywords the generator does not enforce (``propertyNames`` of
    ``patternProperties``, draft-04's ``dependencies``: it would warn, then ignore them), and without
    ``default``s: a keyword a schema leaves out stays out of the decoded value (``UNSET``), so that it
    encodes back as it was written (and draft-04's ``additionalItems: {"default": {}}`` would build
    an empty schema whose own default builds one again, without end)."""
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in _DYNAMIC or key in _NOT_READ:
            continue
        if key in ONE_SCHEMA:
            value = _static(value, root)
        elif key in SCHEMA_LIST + ("items",) and isinstance(value, list):
            value = [_static(v, root) for v in value]
        elif key in SCHEMA_MAP and isinstance(value, dict):
            value = {k: _static(v, root) for k, v in value.items()}
        out[key] = value
    if any(isinstance(schema.get(k), str) for k in _DYNAMIC[:2]):
        out["$ref"] = root
    return out


_DYNAMIC = ("$recursiveRef", "$dynamicRef", "$recursiveAnchor", "$dynamicAnchor")
_NOT_READ = ("propertyNames", "dependencies", "default")


def _key(url: str) -> str:
    """``json-schema.org/draft-07/schema``: a URL without its scheme and fragment."""
    return urldefrag(url)[0].split("://", 1)[-1]


@cache
def _index() -> dict[str, tuple[str, Path]]:
    """Each shipped document (its canonical ``$id`` and file) by ``_key`` of its ``$id``."""
    found = {}
    for path in sorted(FOLDER.glob("*.json")):
        document = json.loads(path.read_text(encoding="utf-8"))
        ident = urldefrag(document.get("$id") or document["id"])[0]
        found[_key(ident)] = (ident, path)
    return found
