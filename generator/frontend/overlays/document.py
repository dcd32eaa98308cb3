"""An overlay document (OpenAPI Overlay Specification 1.0.0): recognised, checked, its targets compiled.

    overlay: 1.0.0
    info: {title: Mend the provider's spec, version: 1.0.0}
    extends: openai.yaml            # the file it applies to, relative to the overlay
    actions:
      - target: $.components.schemas.Usage.required[?@ == 'total_tokens']   # RFC 9535 JSONPath
        description: responses omit it
        remove: true

Every problem of a document is reported together (and its valid actions still run, so that their
problems are reported too), each at its place in the overlay file (line and
column looked up here: the file is small, and warnings get them too). A target that is no JSONPath
is reported at the character the JSONPath parser stopped at, in the file and in the expression.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...diagnostics import Diagnostic, Location, Reporter, SchemaError
from ...diagnostics.positions import locate
from .. import read

VERSION = re.compile(r"1\.0\.\d+")
FIELDS = frozenset({"overlay", "info", "extends", "actions"})
ACTION_FIELDS = frozenset({"target", "description", "update", "remove"})
MISSING: Any = object()
"""An action without ``update``."""

_YAML_KEY = re.compile(r"^(?:overlay|\"overlay\"|'overlay')[ \t]*:", re.MULTILINE)
"""A top-level ``overlay:`` key of a YAML block mapping."""


@dataclass(frozen=True, slots=True)
class Action:
    index: int
    target: str
    query: Any
    """The compiled ``target`` (a ``jsonpath_rfc9535.JSONPathQuery``)."""
    update: Any = MISSING
    remove: bool = False
    description: str | None = None

    @property
    def label(self) -> str:
        """How messages name it: ``actions[2]``, with its description when it has one."""
        return f"actions[{self.index}]" + (f" ({self.description.strip()})" if self.description else "")


@dataclass(frozen=True, slots=True)
class Overlay:
    display: str
    """The overlay file, relative to the project root."""
    path: Path
    extends: str | None
    actions: tuple[Action, ...]

    def at(self, pointer: str, message: str, hint: str | None = None, *, severity: str = "error",
           kind: str = "") -> Diagnostic:
        """A diagnostic at ``pointer`` of this overlay file, with its line and column."""
        return located(self.path, Diagnostic(Location(self.display, pointer), message, hint,
                                             "warning" if severity == "warning" else "error", kind))


def sniff(path: Path, display: str) -> dict[str, Any] | None:
    """The document at ``path`` when it is an overlay (an object with a top-level ``overlay`` key),
    else ``None``. A file that cannot mention the key is not parsed; one that does not parse is no
    overlay (reading it as an input reports its syntax error)."""
    try:
        data = path.read_bytes()
        if b"overlay" not in data:  # the one scan most files need (a line-anchored search is ~50x slower)
            return None
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    if path.suffix == ".json":
        if '"overlay"' not in text:
            return None
    elif not (_YAML_KEY.search(text) or (text.lstrip().startswith("{") and "overlay" in text)):
        return None
    try:
        value = read.parse(text, path.suffix, display)
    except SchemaError:
        return None
    return value if isinstance(value, dict) and "overlay" in value else None


def parse(document: Any, display: str, path: Path, reporter: Reporter, problems: list[Diagnostic]) -> Overlay:
    """The overlay ``document`` read from ``path``, with the actions that are valid; every problem is
    appended to ``problems`` (warnings go to ``reporter``)."""
    overlay = Overlay(display, path, None, ())

    def fail(pointer: str, message: str, hint: str | None = None) -> None:
        problems.append(overlay.at(pointer, message, hint))

    if not isinstance(document, dict):
        fail("", "an overlay must be an object")
        return overlay
    version = document.get("overlay")
    if not (isinstance(version, str) and VERSION.fullmatch(version)):
        fail("/overlay", f"unsupported overlay version {version!r}",
             "schemagen reads Overlay Specification 1.0.x documents: `overlay: 1.0.0`")
    info = document.get("info")
    if not (isinstance(info, dict) and all(isinstance(info.get(k), str) for k in ("title", "version"))):
        fail("/info" if "info" in document else "", "`info` needs a `title` and a `version` (strings)")
    extends = document.get("extends")
    if extends is not None and not isinstance(extends, str):
        fail("/extends", "`extends` must be a string: the file the overlay applies to")
    for key in sorted(k for k in document if k not in FIELDS and not str(k).startswith("x-")):
        fail(f"/{key}", f"unknown overlay field {key!r}; expected: {', '.join(sorted(FIELDS))} (or x-…)")
    actions: list[Action] = []
    raw_actions = document.get("actions")
    if not isinstance(raw_actions, list) or not raw_actions:
        fail("/actions" if "actions" in document else "", "`actions` must be a non-empty list of actions")
    else:
        for index, raw in enumerate(raw_actions):
            action = _action(overlay, index, raw, problems, reporter)
            if action is not None:
                actions.append(action)
    return Overlay(display, path, extends if isinstance(extends, str) else None, tuple(actions))


def _action(overlay: Overlay, index: int, raw: Any, problems: list[Diagnostic], reporter: Reporter) -> Action | None:
    here = f"/actions/{index}"
    name = f"actions[{index}]"
    if not isinstance(raw, dict):
        problems.append(overlay.at(here, f"{name}: an action must be an object with a `target`"))
        return None
    found = len(problems)
    for key in sorted(k for k in raw if k not in ACTION_FIELDS and not str(k).startswith("x-")):
        hint = "`copy` is Overlay 1.1; schemagen reads 1.0: write the value under `update`" if key == "copy" else None
        problems.append(overlay.at(f"{here}/{key}", f"{name}: unknown action field {key!r}; expected: "
                                   f"{', '.join(sorted(ACTION_FIELDS))} (or x-…)", hint))
    description = raw.get("description")
    if description is not None and not isinstance(description, str):
        problems.append(overlay.at(f"{here}/description", f"{name}: `description` must be a string"))
        description = None
    remove = raw.get("remove", False)
    if not isinstance(remove, bool):
        problems.append(overlay.at(f"{here}/remove", f"{name}: `remove` must be true or false"))
    target = raw.get("target")
    query = None
    if not isinstance(target, str):
        problems.append(overlay.at(here if target is None else f"{here}/target",
                                   f"{name}: needs a `target`: a JSONPath (RFC 9535) such as `$.components.schemas.X`"))
    else:
        query = _compile(overlay, f"{here}/target", name, target, problems)
    if len(problems) > found or query is None or not isinstance(target, str):
        return None
    action = Action(index, target, query, raw.get("update", MISSING), remove is True, description)
    if action.remove and action.update is not MISSING:
        reporter.add(overlay.at(f"{here}/update", f"{action.label}: `update` is ignored beside `remove: true`",
                                severity="warning", kind="overlay action"))
    elif not action.remove and action.update is MISSING:
        reporter.add(overlay.at(here, f"{action.label}: does nothing: it has neither `update` nor `remove: true`",
                                severity="warning", kind="overlay action"))
    return action


def _compile(overlay: Overlay, pointer: str, name: str, target: str, problems: list[Diagnostic]) -> Any:
    import jsonpath_rfc9535  # (only a run that applies an overlay needs it)

    try:
        return jsonpath_rfc9535.compile(target)
    except jsonpath_rfc9535.JSONPathError as exc:
        index = exc.token.index if exc.token is not None else 0
        message = f"{name}: invalid JSONPath at column {index + 1} of `{target}`: {exc.args[0]}"
        where = Location(overlay.display, pointer)
        position = _in_expression(overlay.path, pointer, target, index)
        if position is not None:
            where = dataclasses.replace(where, line=position[0], column=position[1])
        problems.append(Diagnostic(where, message, "a JSONPath as RFC 9535 writes it, e.g. "
                                                     "`$.components.schemas['Name'].required`"))
        return None


def _in_expression(path: Path, pointer: str, expression: str, index: int) -> tuple[int, int] | None:
    """The line and column of character ``index`` of ``expression``, the string at ``pointer``: exact
    when the expression stands in the file as written (plain or quoted, no escapes), else where the
    string starts."""
    position = locate(path, pointer)
    if position is None:
        return None
    line, column = position
    try:
        text = path.read_text(encoding="utf-8").splitlines()[line - 1]
    except (OSError, UnicodeDecodeError, IndexError):
        return position
    for quote in (0, 1):
        start = column - 1 + quote
        if text[start:start + len(expression)] == expression:
            return line, start + index + 1
    return position


def located(path: Path, diagnostic: Diagnostic) -> Diagnostic:
    """``diagnostic`` with the line and column of its pointer in the file at ``path``."""
    position = locate(path, diagnostic.location.pointer)
    if position is None:
        return diagnostic
    return dataclasses.replace(diagnostic, location=dataclasses.replace(
        diagnostic.location, line=position[0], column=position[1]))
