"""What black leaves as it is, in the subset ``stable`` prints: numbers, string literals, class docstrings
(the rules are in ``stable``'s docstring); and ``Unknown``, which a printer raises outside the subset."""

from __future__ import annotations

import re

from ...render.format import LINE_LENGTH

class Unknown(Exception):
    """Something the planner does not print; the chunk goes to black whole."""


_NUMBER = re.compile(r"[0-9]+(?:\.[0-9]+)?(?:e-?[0-9]+)?")
_ESCAPES = re.compile(r'\\(?:[\\nrt]|x[0-9a-f]{2}|u[0-9a-f]{4}|U[0-9a-f]{8})')
_TRIPLE_ESCAPES = re.compile(r'\\(?:[\\nrt"]|x[0-9a-f]{2}|u[0-9a-f]{4}|U[0-9a-f]{8})')


def is_black_number(text: str) -> bool:
    return _NUMBER.fullmatch(text) is not None


def is_black_string(text: str) -> bool:
    """Whether ``text`` is one string literal of the subset, which black leaves as it is (not a docstring).

    Escapes are read left to right, as Python reads them; a backslash left over is one not accepted."""
    triple = len(text) >= 6 and text[:3] == text[-3:] == '"""'
    if not (triple or (len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'")):
        return False
    body = text[3:-3] if triple else text[1:-1]
    plain = (_TRIPLE_ESCAPES if triple else _ESCAPES).sub("", body)
    if "\\" in plain or not (body.replace("\n", "") if triple else body).isprintable():
        return False
    if triple:
        return '"""' not in plain and not plain.endswith('"')
    return text[0] not in body and (text[0] == '"' or '"' in body)


def is_black_docstring(text: str) -> bool:
    """Whether ``text`` is a class docstring of the subset, which black leaves as it is."""
    indent = "    "
    body = text[3:-3]
    first, *rest = body.split("\n")
    if not (text[:3] == '"""' and is_black_string(text) and first == first.strip() != ""
            and first[0] != '"' and body[-1] not in '"\\'):
        return False
    if not rest:
        return True
    if not all(line == "" or (line.startswith(indent) and line == line.rstrip()) for line in rest[:-1]):
        return False
    last = rest[-1]
    return (last == indent or (last.startswith(indent) and last == last.rstrip())) \
        and any(line.startswith(indent) and line[4:5] not in ("", " ") for line in rest) \
        and len(last) + 3 <= LINE_LENGTH
