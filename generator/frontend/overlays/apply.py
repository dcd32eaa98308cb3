"""Applying an overlay's actions to a document, in order, as the Overlay Specification 1.0.0 says.

- ``update`` on an object is merged into it: a key only the update has is added; a value of both is
  replaced when both are primitives (string, number, boolean, null), concatenated when both are
  arrays, merged by these rules when both are objects; any other pair is an error (remove the value
  in an earlier action, then add it).
- ``update`` on an array is appended to it as one entry.
- ``remove: true`` removes each selected node from the object or array that holds it. The
  specification speaks of objects and arrays; schemagen removes a selected primitive too (one entry
  of a ``required`` list: ``$.components.schemas.X.required[?@ == 'usage']``).

A target that selects nothing is a warning. The document is changed in place; ``Origins`` records
where each changed part was written.
"""

from __future__ import annotations

import copy
from typing import Any

from ...diagnostics import Diagnostic, Location, Reporter, pointer
from .document import MISSING, Action, Overlay
from .origins import Origins

Path_ = tuple[Any, ...]
"""The keys and indices from the document's root to a node."""


def apply(document: Any, display: str, overlay: Overlay, origins: Origins, reporter: Reporter,
          problems: list[Diagnostic]) -> None:
    """Every action of ``overlay`` on ``document`` (read from ``display``); problems are appended to ``problems``."""
    for action in overlay.actions:
        nodes = list(action.query.find(document))
        if not nodes:
            reporter.add(overlay.at(f"/actions/{action.index}/target",
                                    f"{action.label}: the target selects nothing in {display}: `{action.target}`",
                                    "the document changed, or the target is wrong: fix it or remove the action",
                                    severity="warning", kind="unmatched overlay action"))
        elif action.remove:
            _remove(document, display, overlay, action, [tuple(n.location) for n in nodes], origins, problems)
        elif action.update is not MISSING:
            _update(display, overlay, action, [(tuple(n.location), n.value) for n in nodes], origins, problems)


def _update(display: str, overlay: Overlay, action: Action, nodes: list[tuple[Path_, Any]], origins: Origins,
            problems: list[Diagnostic]) -> None:
    source = Location(overlay.display, f"/actions/{action.index}/update")
    seen: set[int] = set()
    for path, value in nodes:
        if isinstance(value, (dict, list)):
            if id(value) in seen:  # one object reached twice (a YAML alias): updated once
                continue
            seen.add(id(value))
        where = f"{display}#{pointer(*path)}"
        if isinstance(value, dict) and isinstance(action.update, dict):
            _merge(value, action.update, path, source, display, overlay, action, origins, problems)
        elif isinstance(value, dict):
            problems.append(overlay.at(source.pointer, f"{action.label}: the target selects an object ({where}): "
                                       f"`update` must be an object to merge into it, not {_kind(action.update)}"))
        elif isinstance(value, list):
            origins.track(value, path).append(source)
            value.append(copy.deepcopy(action.update))
        else:
            problems.append(overlay.at(f"/actions/{action.index}/target",
                                       f"{action.label}: the target selects {_kind(value)} ({where}): `update` merges "
                                       "into objects and appends to arrays",
                                       "select the object that holds the value, and update its key"))


def _merge(target: dict[Any, Any], update: dict[Any, Any], path: Path_, source: Location, display: str,
           overlay: Overlay, action: Action, origins: Origins, problems: list[Diagnostic]) -> None:
    for key, value in update.items():
        here = source.child(key)
        old = target.get(key, MISSING)
        if old is MISSING or (_primitive(old) and _primitive(value)):
            target[key] = copy.deepcopy(value)
            origins.set_key(target, key, here)
        elif isinstance(old, dict) and isinstance(value, dict):
            _merge(old, value, (*path, key), here, display, overlay, action, origins, problems)
        elif isinstance(old, list) and isinstance(value, list):
            origins.track(old, (*path, key)).extend(here.child(i) for i in range(len(value)))
            old.extend(copy.deepcopy(value))
        else:
            problems.append(overlay.at(here.pointer, f"{action.label}: cannot merge {_kind(value)} into "
                                       f"{_kind(old)} ({display}#{pointer(*path, key)})",
                                       "remove the value in an action before this one, then add the new one"))


def _remove(document: Any, display: str, overlay: Overlay, action: Action, paths: list[Path_], origins: Origins,
            problems: list[Diagnostic]) -> None:
    """Remove every selected node; entries of one array from the last, so that indices hold."""
    keys: list[tuple[dict[Any, Any], Any]] = []
    entries: dict[int, tuple[list[Any], Path_, set[int]]] = {}
    for path in paths:
        if not path:
            problems.append(overlay.at(f"/actions/{action.index}/target",
                                       f"{action.label}: the target selects the whole of {display}, which cannot be "
                                       "removed"))
            continue
        parent = _follow(document, path[:-1])
        if isinstance(parent, dict):
            keys.append((parent, path[-1]))
        elif isinstance(parent, list):
            entries.setdefault(id(parent), (parent, path[:-1], set()))[2].add(path[-1])
    for array, at, _ in entries.values():
        origins.track(array, at)  # (before anything moves)
    for mapping, key in keys:
        if key in mapping:
            del mapping[key]
            origins.drop_key(mapping, key)
    for array, at, indices in entries.values():
        items = origins.track(array, at)
        for index in sorted(indices, reverse=True):
            del array[index]
            del items[index]


def _follow(document: Any, path: Path_) -> Any:
    node = document
    for token in path:
        node = node[token]
    return node


def _primitive(value: Any) -> bool:
    return not isinstance(value, (dict, list))


def _kind(value: Any) -> str:
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "an array"
    if value is None:
        return "null"
    return {bool: "a boolean", str: "a string"}.get(type(value), "a number")
