r"""Black's layout of an annotated assignment of a call that does not fit on one line:
``name: T = Call(keywords)`` (a pydantic field's ``Field(...)``), as ``stable`` prints it.

The subset: the call takes keywords only, each a value ``stable`` prints on one line or a string
concatenated in parentheses (``description=("line 1\n" "line 2")``), and the line up to the call's
bracket (``    name: T = Field(``) fits. Black then splits at that bracket (the right-hand side is no
bigger split), and lays the keywords out:

- on one line, when they fit:  ``Field(`` / ``default=None, ge=1`` / ``)``;
- one a line, each followed by a comma (black adds the last), when they are two or more;
- a keyword that still does not fit is a string black cannot split (left long), or a concatenation,
  split at its parenthesis: its strings on one line if they fit, else one a line.

Anything else is ``Unknown``: black formats the statement.
"""

from __future__ import annotations

import ast
import re
from typing import Protocol

from .forms import Unknown, is_black_string

_LITERAL = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'')
_INDENT = "    "


class Printer(Protocol):
    """What of ``stable``'s planner a layout uses."""

    def segment(self, node: ast.expr) -> str: ...

    def code(self, line: str) -> str: ...

    def fits(self, line: str) -> bool: ...

    def expr(self, node: ast.expr) -> str: ...

    def keyword(self, k: ast.keyword) -> str: ...


def concatenation(planner: Printer, k: ast.keyword) -> list[str] | None:
    """The string literals of a keyword whose value is several, in parentheses (``None``: it is no such
    keyword); ``Unknown`` where the source is not in black's form."""
    if not (isinstance(k.value, ast.Constant) and isinstance(k.value.value, str)):
        return None
    text = planner.segment(k.value)
    if is_black_string(text):
        return None
    literals = _LITERAL.findall(text)
    if len(literals) < 2 or _LITERAL.sub("", text).strip() or not all(map(is_black_string, literals)):
        raise Unknown
    around = planner.segment(k)  # type: ignore[arg-type]  # (a keyword has a position, as an expression has)
    opened, _, closed = around[len(k.arg or "") + 1:].partition(text)
    if opened.rstrip() != "(" or closed.strip() != ")":
        raise Unknown
    return literals


def layout(planner: Printer, stmt: ast.AnnAssign, indent: str) -> str:
    """The statement as black lays it out, split at its call's bracket; ``Unknown`` outside the subset."""
    call = stmt.value
    if not (isinstance(call, ast.Call) and isinstance(stmt.target, ast.Name) and stmt.simple and not call.args
            and call.keywords and isinstance(call.func, (ast.Name, ast.Attribute))):
        raise Unknown
    head = planner.code(f"{indent}{stmt.target.id}: {planner.expr(stmt.annotation)} = {planner.expr(call.func)}(")
    inner = indent + _INDENT
    keywords = [(planner.keyword(k), concatenation(planner, k), k.arg) for k in call.keywords]
    flat = inner + ", ".join(text for text, _, _ in keywords)
    if planner.fits(flat):
        lines = [flat]
    else:
        comma = "," if len(keywords) > 1 else ""
        lines = [line for text, strings, name in keywords for line in _keyword(planner, inner, text, strings, name, comma)]
    return "\n".join([head, *lines, indent + ")"]) + "\n"


def _keyword(planner: Printer, indent: str, text: str, strings: list[str] | None, name: str | None,
             comma: str) -> list[str]:
    line = indent + text + comma
    if planner.fits(line):
        return [line]
    if strings is None:
        if not re.fullmatch(r"\w+=" + _LITERAL.pattern, text):
            raise Unknown  # only a lone string is left long; black would split anything else
        return [line]
    inner = indent + _INDENT
    joined = inner + " ".join(strings)
    body = [joined] if planner.fits(joined) else [inner + s for s in strings]
    return [f"{indent}{name}=(", *body, indent + ")" + comma]
