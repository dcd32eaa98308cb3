"""A user's template at fault: what went wrong, said at the template's line (or the generated one).

A module is laid out by Jinja and then formatted by black. With the built-in templates alone, a failure
of either is a bug of schemagen; with templates of the user's own taking part, it is theirs to fix, and
``problem`` says where: the template and line Jinja names (a syntax error, an undefined filter or
attribute), or for text black cannot parse, the generated line and, when one line of the user's
templates can have written it, that line.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..diagnostics import Diagnostic, Location
from . import VARIANTS
from .format import FormatError
from .templates import BUILTIN_TEMPLATES, own_templates

_BLACK_POSITION = re.compile(r"(\d+):(\d+)")
_TAG = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}")
SHOWN = 100
"""At most this much of a generated line is shown."""


def problem(exc: BaseException, folder: Path | None, variant: str, source: str, root: Path) -> Diagnostic | None:
    """The user's mistake behind ``exc`` (raised laying out or formatting ``variant`` of ``source`` with
    the templates of ``folder``); ``None`` when no template of theirs takes part (a bug of schemagen)."""
    if folder is None or not own_templates(folder):
        return None
    mine = _taking_part(folder, variant)
    if not mine:
        return None
    if isinstance(exc, FormatError):
        return _unparsable(exc, folder, mine, f"the {variant} module of {source}", root)
    import traceback

    import jinja2

    if isinstance(exc, jinja2.TemplateSyntaxError) and exc.filename:  # (or an unknown filter or test)
        syntax = "" if isinstance(exc, jinja2.TemplateAssertionError) else "template syntax: "
        return Diagnostic(_at(Path(exc.filename), exc.lineno, root), f"{syntax}{exc.message}")
    frames = [(Path(f.filename), f.lineno) for f in traceback.extract_tb(exc.__traceback__)
              if f.filename.endswith(".jinja")]
    ours = [(path, line) for path, line in frames if _inside(path, folder)]
    if not ours and not isinstance(exc, jinja2.TemplateError):
        return None
    message = _message(exc)
    inner = frames[-1] if frames else None
    if inner is not None and ours and not _inside(inner[0], folder):
        message += f" (in the built-in {inner[0].name}, line {inner[1]})"
    where = ours[-1] if ours else inner
    if where is None:
        return Diagnostic(_at(folder, None, root, folder=True), f"{message}, laying out the {variant} module")
    return Diagnostic(_at(where[0], where[1], root), message)


def _taking_part(folder: Path, variant: str) -> list[Path]:
    """The user's templates that may take part in laying out ``variant``: all but other variants' own."""
    others = {v.template for name, v in VARIANTS.items() if name != variant}
    return sorted(p for p in folder.glob("*.jinja") if p.name not in others)


def _unparsable(exc: FormatError, folder: Path, mine: list[Path], module: str, root: Path) -> Diagnostic:
    found = _BLACK_POSITION.search(str(exc.__cause__ or exc))
    lines = exc.text.splitlines()
    number = int(found[1]) if found else 0
    if not 0 < number <= len(lines):
        return Diagnostic(_at(folder, None, root, folder=True),
                          f"{module}, laid out by these templates, is not valid Python: {exc.__cause__ or exc}")
    column = f", column {int(found[2]) + 1}" if found else ""
    shown = _cut(lines[number - 1].strip())
    writer = _writer(lines[number - 1], mine)
    if writer is not None:
        return Diagnostic(_at(*writer, root), f"this line wrote line {number} of {module}, which is not valid "
                          f"Python (black cannot parse it{column}): {shown}")
    return Diagnostic(_at(folder, None, root, folder=True),
                      f"line {number} of {module}, laid out by these templates, is not valid Python "
                      f"(black cannot parse it{column}): {shown}")


def _writer(generated: str, mine: list[Path]) -> tuple[Path, int] | None:
    """The one line of the user's templates whose literal text and placeholders can give ``generated``."""
    text = generated.strip()
    found = []
    for path in mine:
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            literal = _TAG.sub("", line).strip()
            if len(literal) < 3:  # (a line of tags alone could be anything)
                continue
            pattern = ".*".join(re.escape(part.strip()) for part in _TAG.split(line.strip()))
            if re.fullmatch(pattern, text):
                found.append((path, number))
    return found[0] if len(found) == 1 else None


def _message(exc: BaseException) -> str:
    import jinja2

    if isinstance(exc, jinja2.TemplateNotFound):
        return f"no template {exc.name!r} in the template folder or the built-in templates"
    if isinstance(exc, jinja2.UndefinedError):
        return f"undefined: {exc}"
    return str(exc) if isinstance(exc, jinja2.TemplateError) else f"{type(exc).__name__}: {exc}"


def _inside(path: Path, folder: Path) -> bool:
    return path.resolve().is_relative_to(folder.resolve())


def _at(path: Path, line: int | None, root: Path, folder: bool = False) -> Location:
    """A location in a template (``line`` may be unknown), named relative to the project root."""
    resolved = path.resolve()
    if resolved.is_relative_to(root.resolve()):
        shown = resolved.relative_to(root.resolve()).as_posix()
    elif resolved.is_relative_to(BUILTIN_TEMPLATES.resolve()):
        shown = f"<built-in templates>/{resolved.relative_to(BUILTIN_TEMPLATES.resolve()).as_posix()}"
    else:
        shown = resolved.as_posix()
    return Location(shown + ("/" if folder else ""), line=line, in_document=False)


def _cut(text: str) -> str:
    return text if len(text) <= SHOWN else text[:SHOWN - 3] + "..."
