"""Python source for values that come from a schema: the only way schema text reaches a module.

Every string becomes a literal whose value is exactly the string and whose source holds no
line break, quote or control character that could end it early.
"""

from __future__ import annotations

import math
import re
from typing import Any

_SIMPLE_ESCAPES = {"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(char: str) -> str:
    if char in _SIMPLE_ESCAPES:
        return _SIMPLE_ESCAPES[char]
    if char.isprintable() and char not in "\u2028\u2029\x85":
        return char
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


#: What a one-line literal must escape: the backslash, and anything but printable ASCII (most of it
#: stays as it is: see ``_escape``). Matched with a regular expression, so plain text costs no Python loop.
_STRING_SPECIAL = re.compile(r"[^\x20-\x5b\x5d-\x7e]")
#: What a docstring must escape besides: a quote before another quote or at the end (see ``_docstring_char``).
_DOCSTRING_SPECIAL = re.compile(r'"(?="|\Z)|[^\x20-\x5b\x5d-\x7e\n\t]')


def string(text: str) -> str:
    """A one-line string literal, quoted the way black would quote it."""
    body = _STRING_SPECIAL.sub(lambda m: _escape(m.group()), text)
    quote = "'" if '"' in text and "'" not in text else '"'
    return quote + body.replace(quote, "\\" + quote) + quote


def text(data: str) -> str:
    """A string literal for a text of several lines: one literal a line, concatenated in parentheses
    (black then writes one a line, ``"...\\n"`` each); one literal for a text of one line."""
    lines = data.splitlines(keepends=True)
    return string(data) if len(lines) < 2 else "(" + " ".join(map(string, lines)) + ")"


def value(data: Any) -> str:
    """A Python expression equal to the JSON value ``data``."""
    if data is None or isinstance(data, bool):
        return repr(data)
    if isinstance(data, int):
        return str(data)
    if isinstance(data, float):
        if not math.isfinite(data):
            return f'float("{data}")'
        return repr(data)
    if isinstance(data, str):
        return string(data)
    if isinstance(data, list):
        return "[" + ", ".join(value(v) for v in data) + "]"
    if isinstance(data, dict):
        return "{" + ", ".join(f"{string(str(k))}: {value(v)}" for k, v in data.items()) + "}"
    raise TypeError(f"not a JSON value: {type(data).__name__}")


def _docstring_char(match: re.Match[str]) -> str:
    """A quote that another quote follows, or that ends the text, is escaped: no ``\"\"\"`` can end
    the docstring early, and none can merge with its closing quotes."""
    char = match.group()
    return '\\"' if char == '"' else _escape(char)


def docstring(text: str, indent: str) -> str:
    """A triple-quoted docstring for ``text``: tidy layout, exact characters, nothing can escape it."""
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    body = "\n".join(lines).lstrip()
    escaped = _DOCSTRING_SPECIAL.sub(_docstring_char, body)
    first, *rest = escaped.split("\n")
    if not rest:
        return f'"""{first}"""'
    indented = [indent + line if line else "" for line in rest]
    return '"""' + "\n".join([first, *indented, indent + '"""'])
