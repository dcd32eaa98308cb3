"""Formatting with the pinned black, in-process, with an explicit mode (never a pyproject's).

The result is always what ``black.format_str(text, mode=MODE)`` gives, byte for byte. Black is most of
the cost of generation, so it is asked as little as possible:

1. ``split`` cuts a module at its top-level statements into chunks: the header (comments, imports) and
   each declaration with the string literals under it.
2. ``plan_chunk`` reads a chunk's syntax tree and prints each statement back the way black prints it.
   What comes out equal to the text is left as it is (most declarations: the view model and templates
   already write black's layout). A code statement that does not (a line too long) is formatted by
   black on its own, in a two-line module (``format_statements``); many of them recur, across classes
   and variants, and each is formatted once. A chunk with anything else goes to black whole.
3. ``join`` puts the formatted chunks together with the blank lines black puts between top-level
   statements.

Black formats each logical line on its own, and the blank lines before a line depend only on the line
before it, so this is black's own result; the splitter and planner only accept the few statement kinds
generated modules are made of, and anything else (a function, a comment between declarations,
``# fmt: off``, a header without imports) sends the whole module to black as before.
tests/test_performance_contract.py checks the result against whole-file black.

``Session`` keeps what was formatted in memory, and in a persistent cache (``generator.cache``) when
given one.
"""

from __future__ import annotations

import ast
import contextvars
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from ..cache import digest

if TYPE_CHECKING:  # black is imported when something is formatted, not when the program starts
    import black

    from ..cache import Cache

LINE_LENGTH = 88
TARGET = "PY311"
SCHEME = "1"
"""Version of how chunks and statements are cut and keyed; change it when their meaning changes."""


@cache
def mode() -> black.Mode:
    import black

    return black.Mode(line_length=LINE_LENGTH, target_versions={black.TargetVersion[TARGET]})


def __getattr__(name: str) -> Any:
    if name == "MODE":  # ``from generator.render.format import MODE`` works, and imports black then
        return mode()
    raise AttributeError(name)


@cache
def black_version() -> str:
    from _black_version import version  # a one-line module; ``import black`` takes a tenth of a second

    return str(version)


class FormatError(Exception):
    """Black refused the generated text: a generator bug. The text is kept for the report."""

    def __init__(self, message: str, text: str) -> None:
        super().__init__(message)
        self.text = text


def format_whole(text: str) -> str:
    """The reference: black on the whole text."""
    import black

    try:
        return str(black.format_str(text, mode=mode()))
    except black.InvalidInput as exc:
        numbered = "\n".join(f"{i:5} {line}" for i, line in enumerate(text.splitlines(), 1))
        raise FormatError(f"black could not parse the generated code: {exc}\n{numbered}", text) from exc


def format_source(text: str) -> str:
    """``format_whole(text)``, computed chunk by chunk in the current ``Session``."""
    return current().format([text])[0]


# --- 1. Splitting a module into chunks ----------------------------------------------------------------

Kind = Literal["import", "class", "assign", "string"]


@dataclass(frozen=True, slots=True)
class Chunk:
    text: str
    """Whole lines, the last one ending with a newline."""
    first: Kind
    """Its first statement (``class`` also for a decorator; the header's is ``import``)."""
    last: Kind
    """Its last top-level statement."""
    blank_before: int
    """Blank lines between it and the chunk before, as written."""


_LEX = re.compile(r"""
    (?P<string>(?P<prefix>[rRbBuUfFtT]{0,2})
        (?:\"\"\"(?:[^"\\]|\\.|"(?!""))*\"\"\"|'''(?:[^'\\]|\\.|'(?!''))*'''
          |"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'))
  | (?P<quote>["'])
  | (?P<comment>\#[^\n]*)
  | (?P<open>[(\[{])
  | (?P<close>[)\]}])
  | (?P<continuation>\\\n)
  | (?P<newline>\n)
""", re.VERBOSE | re.DOTALL)
"""What decides where a logical line ends: strings, comments, brackets, backslashes, newlines."""
_STATEMENT = re.compile(r"(?P<import>(?:import|from)\b)|(?P<decorator>@)|(?P<class>class\b)"
                        r"|(?P<string>[rRbBuU]{0,2}[\"'])|(?P<assign>[A-Za-z_]\w*[ \t]*(?:=(?!=)|:))")
_NESTED_BLOCK = re.compile(r"[ \t]+(?:def|async|class)\b|[ \t]+@")
_UNKNOWN_TEXT = ("fmt:", "yapf:", "\r", "\f", "\x00", "\ufeff")
"""Black treats these specially (``# fmt: off``, line endings, form feeds): such modules go whole."""
_FOLLOWS: dict[str, tuple[str, ...]] = {
    "comment": ("none", "comment", "import"),  # in the header
    "import": ("none", "comment", "import"),  # in the header
    "decorator": ("decorator",),  # stacked decorators
    "class": ("decorator",),  # a decorated class
    "indented": ("class",),  # a class body
    "string": ("class", "assign", "string"),  # a declaration's docstring
}
"""Which line may come after which inside a chunk (``none``: the start of the module)."""


def logical_lines(text: str) -> list[tuple[int, int]] | None:
    """(start, end) of each logical line, end after its newline; ``None`` when ``text`` does not lex."""
    lines = []
    depth = start = 0
    for match in _LEX.finditer(text):
        group = match.lastgroup
        if group == "newline":
            if depth == 0:
                lines.append((start, match.end()))
                start = match.end()
        elif group == "open":
            depth += 1
        elif group == "close":
            depth -= 1
            if depth < 0:
                return None
        elif group == "quote" or (group == "string" and "f" in match["prefix"].lower()):
            return None  # an unterminated string, or an f-string (quotes may nest in it)
    return lines if depth == 0 and start == len(text) else None


def split(text: str) -> list[Chunk] | None:
    """``text`` as chunks that black formats independently; ``None`` for a shape this does not know."""
    if any(s in text for s in _UNKNOWN_TEXT):
        return None
    lines = logical_lines(text)
    if not lines:
        return None
    chunks: list[Chunk] = []
    begin, first, blank_before = 0, "import", 0
    last = "none"  # the last non-blank line of the current chunk (an indented one does not count)
    blanks = end = 0
    for start, stop in lines:
        kind = _kind(text, start)
        if kind == "blank":
            blanks += 1
            continue
        in_header = not chunks
        if kind in ("decorator", "class", "assign") and last != "decorator":  # a new declaration
            if last not in (("import",) if in_header else ("class", "assign", "string")):
                return None  # a header without imports, or ending with a comment
            chunks.append(Chunk(text[begin:end], first, last, blank_before))  # type: ignore[arg-type]
            begin, first, blank_before = start, "assign" if kind == "assign" else "class", blanks
        elif last not in _FOLLOWS.get(kind, ()) or (kind in ("comment", "import")) != in_header:
            return None
        blanks, end = 0, stop
        if kind != "indented":
            last = kind
    if not chunks or last == "decorator":
        return None
    chunks.append(Chunk(text[begin:end], first, last, blank_before))  # type: ignore[arg-type]
    return chunks


def _kind(text: str, start: int) -> str:
    first = text[start]
    if first == "\n":
        return "blank"
    if first in " \t":
        return "unknown" if _NESTED_BLOCK.match(text, start) else "indented"
    if first == "#":
        return "comment"
    match = _STATEMENT.match(text, start)
    return (match.lastgroup or "unknown") if match else "unknown"


# --- 2. Joining formatted chunks ----------------------------------------------------------------------

def separator(before: Chunk, after: Chunk) -> int:
    """The blank lines black puts between two chunks (its EmptyLineTracker at depth 0, no comments).

    Two before a class; one after the imports; two after a class body; otherwise what was written, at
    most two. Idempotent, like black's second pass needs.
    """
    if after.first == "class":
        return 2
    if before.last == "import":
        return 1
    if before.last == "class":
        return 2
    return min(after.blank_before, 2)


def join(chunks: Sequence[Chunk], formatted: Sequence[str]) -> str:
    parts = [formatted[0]]
    for previous, chunk, text in zip(chunks, chunks[1:], formatted[1:]):
        parts += ["\n" * separator(previous, chunk), text]
    return "".join(parts)


# --- 3. Planning a chunk: what black leaves, what it must format --------------------------------------

Piece = tuple[str, str]
"""``("text", what black makes of this part)``, or a statement black formats on its own:
``("module" | "body" | "header", its source)``."""
Plan = tuple[Piece, ...]


class _Unknown(Exception):
    """Something the planner does not print; the chunk goes to black whole."""


def plan_chunk(chunk: str) -> Plan | None:
    """The pieces ``chunk`` is made of, or ``None`` when black must format it whole."""
    try:
        tree = ast.parse(chunk)
    except (SyntaxError, ValueError):
        return None
    try:
        return _Planner(chunk).plan(tree)
    except _Unknown:
        return None


def is_stable(chunk: str) -> bool:
    """Whether black leaves ``chunk`` exactly as it is (as far as the planner can tell)."""
    plan = plan_chunk(chunk)
    return plan is not None and all(kind == "text" for kind, _ in plan) and "".join(t for _, t in plan) == chunk


class _Planner:
    """Prints a chunk back statement by statement, the way black prints them.

    Statements: a class (decorators, bases, keywords; a body of a docstring, annotated and plain
    assignments, string statements, ``pass``), an assignment, string statements after either. Black's
    normal form of string and number literals comes from black's own functions; code lines must fit.
    The source of every piece, put back together, must be the chunk: nothing is left out.
    """

    def __init__(self, source: str) -> None:
        self.source = source
        self.encoded = source.encode()
        self.ascii = source.isascii()
        self.lines = source.splitlines(keepends=True)
        self.offsets = [0]  # where each line starts, in bytes like the syntax tree's columns
        for line in self.lines:
            self.offsets.append(self.offsets[-1] + (len(line) if self.ascii else len(line.encode())))
        self.pieces: list[Piece] = []
        self.read: list[str] = []

    def plan(self, tree: ast.Module) -> Plan:
        for i, stmt in enumerate(tree.body):
            if i == 0 and _is_string(stmt):
                raise _Unknown  # a module docstring
            if i and isinstance(tree.body[i - 1], ast.ClassDef):
                self.add("\n\n")
            self.statement(stmt, 0)
        if "".join(self.read) != self.source:
            raise _Unknown  # a comment or blank line black would treat on its own
        merged: list[Piece] = []
        for kind, text in self.pieces:
            if merged and kind == "text" == merged[-1][0]:
                merged[-1] = (kind, merged[-1][1] + text)
            else:
                merged.append((kind, text))
        return tuple(merged)

    def add(self, read: str, piece: Piece | None = None) -> None:
        self.read.append(read)
        self.pieces.append(piece or ("text", read))

    def source_of(self, node: ast.stmt) -> str:
        """The whole lines ``node`` is written on."""
        return "".join(self.lines[node.lineno - 1:node.end_lineno])

    def statement(self, stmt: ast.stmt, depth: int) -> None:
        indent = "    " * depth
        source = self.source_of(stmt)
        if _is_string(stmt):
            if source != indent + self.string(stmt.value, multiline=True) + "\n":  # type: ignore[attr-defined]
                raise _Unknown
            self.add(source)
        elif isinstance(stmt, ast.ClassDef) and depth == 0:
            self.class_(stmt)
        elif isinstance(stmt, (ast.AnnAssign, ast.Assign, ast.Pass)):
            try:
                printed = self.code(indent + self.simple(stmt)) + "\n"
            except _Unknown:
                printed = None
            self.add(source, None if printed == source else ("body" if depth else "module", source))
        else:
            raise _Unknown

    def simple(self, stmt: ast.stmt) -> str:
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.simple:
            text = f"{stmt.target.id}: {self.expr(stmt.annotation)}"
            return text if stmt.value is None else f"{text} = {self.expr(stmt.value)}"
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            return f"{stmt.targets[0].id} = {self.expr(stmt.value)}"
        if isinstance(stmt, ast.Pass):
            return "pass"
        raise _Unknown

    def class_(self, node: ast.ClassDef) -> None:
        body = node.body
        start = node.decorator_list[0].lineno if node.decorator_list else node.lineno
        if getattr(node, "type_params", None) or body[0].lineno <= start:
            raise _Unknown
        header = "".join(self.lines[start - 1:body[0].lineno - 1])
        try:
            decorators = [self.code(f"@{self.expr(d)}") for d in node.decorator_list]
            arguments = [self.expr(b) for b in node.bases] + [self.keyword(k) for k in node.keywords]
            one_line = f"class {node.name}" + (f"({', '.join(arguments)})" if arguments else "") + ":"
            layout = "".join(line + "\n" for line in [*decorators, *self.class_statement(node.name, arguments)])
            if header not in (layout, "".join(line + "\n" for line in [*decorators, one_line])):
                raise _Unknown
        except _Unknown:
            if "#" in header:
                raise  # a comment in the class statement: black may move it
            self.add(header, ("header", header))
        else:
            self.add(header, ("text", layout))  # black's layout of the class statement, written or not
        if _is_string(body[0]):
            docstring = self.source_of(body[0])
            text = self.segment(body[0].value)  # type: ignore[attr-defined]
            if docstring != "    " + text + "\n" or not _TRIPLE.fullmatch(text) or _black_docstring(text, 1) != text:
                raise _Unknown
            self.add(docstring)
            body = body[1:]
            if body:
                self.add("\n")  # black's one blank line after a class docstring
        for stmt in body:
            self.statement(stmt, 1)

    def class_statement(self, name: str, arguments: list[str]) -> list[str]:
        """``class Name(arguments):`` the way black lays it out, from one line without a trailing comma:
        on one line if it fits; else (two arguments or more) black's right-hand split after the bracket,
        with the arguments on one line, or one per line with a trailing comma if that does not fit."""
        line = f"class {name}" + (f"({', '.join(arguments)})" if arguments else "") + ":"
        if self.fits(line):
            return [line]
        head = f"class {name}("
        inner = "    " + ", ".join(arguments)
        if len(arguments) < 2 or not self.fits(head):
            raise _Unknown
        if self.fits(inner):
            return [head, inner, "):"]
        return [head, *(self.code(f"    {argument},") for argument in arguments), "):"]

    def fits(self, line: str) -> bool:
        return (len(line) if line.isascii() else _width(line)) <= LINE_LENGTH

    def code(self, line: str) -> str:
        """A line of code: black leaves it as it is only if it fits (in columns: some characters take two)."""
        if not self.fits(line):
            raise _Unknown
        return line

    def segment(self, node: ast.expr) -> str:
        start = self.offsets[node.lineno - 1] + node.col_offset
        end = self.offsets[node.end_lineno - 1] + node.end_col_offset  # type: ignore[operator]
        if self.ascii:
            return self.source[start:end]
        return self.encoded[start:end].decode()

    def string(self, node: ast.Constant, *, multiline: bool = False) -> str:
        """The literal as written, if it is one literal in black's normal form."""
        text = self.segment(node)
        if not (_TRIPLE.fullmatch(text) if multiline else _SINGLE.fullmatch(text)) or _black_string(text) != text:
            raise _Unknown
        return text

    def keyword(self, k: ast.keyword) -> str:
        if k.arg is None:
            raise _Unknown
        return f"{k.arg}={self.expr(k.value)}"

    def expr(self, node: ast.expr) -> str:
        if isinstance(node, ast.Name):
            return node.id
        if isinstance(node, ast.Attribute) and isinstance(node.value, (ast.Name, ast.Attribute)):
            return f"{self.expr(node.value)}.{node.attr}"
        if isinstance(node, ast.Subscript) and isinstance(node.value, (ast.Name, ast.Attribute, ast.Subscript)):
            index = node.slice
            if isinstance(index, ast.Tuple):
                if len(index.elts) < 2:
                    raise _Unknown  # black's rules for a one-item tuple subscript differ
                inner = ", ".join(self.expr(e) for e in index.elts)
            else:
                inner = self.expr(index)
            return f"{self.expr(node.value)}[{inner}]"
        if isinstance(node, ast.Call) and isinstance(node.func, (ast.Name, ast.Attribute)):
            arguments = [self.expr(a) for a in node.args] + [self.keyword(k) for k in node.keywords]
            return f"{self.expr(node.func)}({', '.join(arguments)})"
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr) and isinstance(node.right, _OPERANDS) \
                and isinstance(node.left, (ast.BinOp, *_OPERANDS)):
            return f"{self.expr(node.left)} | {self.expr(node.right)}"
        if isinstance(node, ast.Constant):
            return self.constant(node)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant) \
                and type(node.operand.value) in (int, float):
            return f"-{self.constant(node.operand)}"
        if isinstance(node, ast.List):
            return f"[{', '.join(self.expr(e) for e in node.elts)}]"
        if isinstance(node, ast.Dict) and None not in node.keys:
            pairs = (f"{self.expr(k)}: {self.expr(v)}" for k, v in zip(node.keys, node.values))  # type: ignore[arg-type]
            return "{" + ", ".join(pairs) + "}"
        if isinstance(node, ast.Lambda) and not _has_parameters(node.args):
            return f"lambda: {self.expr(node.body)}"
        raise _Unknown

    def constant(self, node: ast.Constant) -> str:
        value = node.value
        if value is None or value is True or value is False:
            return str(value)
        if value is Ellipsis:
            return "..."
        if isinstance(value, str):
            return self.string(node)
        if type(value) in (int, float):
            text = self.segment(node)
            if _black_number(text) != text:
                raise _Unknown
            return text
        raise _Unknown


_OPERANDS = (ast.Name, ast.Attribute, ast.Subscript, ast.Call, ast.Constant)
_SINGLE = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'')
_TRIPLE = re.compile(r'"""(?:[^"\\]|\\.|"(?!""))*"""', re.DOTALL)


def _is_string(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str)


def _has_parameters(a: ast.arguments) -> bool:
    return bool(a.posonlyargs or a.args or a.vararg or a.kwonlyargs or a.kwarg)


def _width(line: str) -> int:
    from black.strings import str_width

    return int(str_width(line))


def _leaf(kind: str, value: str) -> Any:
    from blib2to3.pgen2 import token
    from blib2to3.pytree import Leaf

    return Leaf(getattr(token, kind), value)


def _black_string(text: str) -> str:
    """What black makes of a string literal that is not a docstring (``LineGenerator.visit_STRING``)."""
    if text[0] == '"' and "\\" not in text:
        return text  # no prefix, double quotes, no escape: black's normalisations have nothing to do
    from black.strings import normalize_unicode_escape_sequences

    leaf = _leaf("STRING", text)
    normalize_unicode_escape_sequences(leaf)
    return _normal_quotes(leaf.value)


def _normal_quotes(text: str) -> str:
    from black.strings import normalize_string_prefix, normalize_string_quotes

    return str(normalize_string_quotes(normalize_string_prefix(text, mode())))


def _black_number(text: str) -> str:
    from black.numerics import normalize_numeric_literal

    leaf = _leaf("NUMBER", text)
    normalize_numeric_literal(leaf)
    return str(leaf.value)


def _black_docstring(text: str, depth: int) -> str:
    """What black makes of a docstring literal at ``depth`` (``LineGenerator.visit_STRING``, line for line)."""
    from black.nodes import is_multiline_string
    from black.strings import fix_multiline_docstring, get_string_prefix, normalize_unicode_escape_sequences

    leaf = _leaf("STRING", text)
    if "\\" in text:
        normalize_unicode_escape_sequences(leaf)
        if re.search(r"\\\s*\n", leaf.value):
            return _black_string(text)
    docstring = _black_string(leaf.value)
    prefix = get_string_prefix(docstring)
    docstring = docstring[len(prefix):]
    quote_char = docstring[0]
    quote_len = 1 if docstring[1] != quote_char else 3
    docstring = docstring[quote_len:-quote_len]
    started_empty = not docstring
    indent = "    " * depth
    if is_multiline_string(leaf):
        docstring = fix_multiline_docstring(docstring, indent)
    else:
        docstring = docstring.strip()
    has_trailing_backslash = False
    if docstring:
        if docstring[0] == quote_char:
            docstring = " " + docstring
        if docstring[-1] == quote_char:
            docstring += " "
        if docstring[-1] == "\\":
            backslash_count = len(docstring) - len(docstring.rstrip("\\"))
            if backslash_count % 2:
                docstring += " "
                has_trailing_backslash = True
    elif not started_empty:
        docstring = " "
    quote = quote_char * quote_len
    value = prefix + quote + docstring + quote
    if quote_len == 3:
        lines = docstring.splitlines()
        last_line_length = len(lines[-1]) if docstring and not docstring.endswith("\n") else 0
        if (len(lines) > 1 and last_line_length + quote_len > LINE_LENGTH
                and len(indent) + quote_len <= LINE_LENGTH and not has_trailing_backslash
                and leaf.value[-1 - quote_len] != "\n"):
            value = prefix + quote + docstring + "\n" + indent + quote
    return _black_string(value)


# --- 4. Black on statements and chunks ----------------------------------------------------------------

_CONTEXT = {"module": ("", ""), "body": ("class _:\n", ""), "header": ("", "    pass\n")}
"""What a statement is formatted inside: a module of its own, a class body, a class with a body."""
BATCH = 40
"""Statements formatted by one call of black (they are split apart again afterwards)."""


def _black(text: str) -> str:
    import black

    return str(black.format_str(text, mode=mode()))


def format_statement(kind: str, source: str) -> str | None:
    """Black's formatting of one statement in its context; ``None`` if black refuses it."""
    before, after = _CONTEXT[kind]
    try:
        out = _black(before + source + after)
    except Exception:
        return None
    if not (out.startswith(before) and out.endswith(after)):
        return None
    return out[len(before):len(out) - len(after)]


def format_statements(kind: str, sources: list[str]) -> list[str | None]:
    """``format_statement`` of each; black is called once for all of them when that works out."""
    if len(sources) > 1:
        together = _format_together(kind, sources)
        if together is not None:
            return together  # type: ignore[return-value]
    return [format_statement(kind, s) for s in sources]


def _format_together(kind: str, sources: list[str]) -> list[str] | None:
    """The statements in one context, cut apart again: simple statements are one logical line each, and
    classes (headers with a ``pass`` body) are two blank lines apart. ``None`` if it does not cut."""
    before, after = _CONTEXT[kind]
    try:
        out = _black(before + "".join(s + after for s in sources))
    except Exception:
        return None
    if not out.startswith(before):
        return None
    out = out[len(before):]
    if kind == "header":
        parts = out.split(after)
        if len(parts) != len(sources) + 1 or parts[-1] or not all(p.startswith("\n\n") for p in parts[1:-1]):
            return None
        results = [parts[0]] + [p[2:] for p in parts[1:-1]]
    else:
        lines = logical_lines(out)
        if lines is None or len(lines) != len(sources):
            return None
        results = [out[start:end] for start, end in lines]
    return None if any(r.startswith("\n") for r in results) else results


def _format_chunk(text: str) -> str | None:
    try:
        return _black(text)
    except Exception:
        return None


# --- 5. Sessions: what was formatted, in memory and in the persistent cache -----------------------------

J = TypeVar("J")


@dataclass
class Stats:
    as_is: int = 0
    """Chunks black leaves as they are, recognised without black."""
    by_statement: int = 0
    """Chunks with statements black formatted on their own."""
    whole: int = 0
    """Chunks black formatted whole."""
    cached: int = 0
    """Chunks found in the persistent cache."""
    statements: int = 0
    """Statements black formatted."""
    modules_whole: int = 0
    """Modules the splitter did not know, formatted whole."""


@dataclass
class Session:
    """Formats modules; remembers chunks and statements in memory and, with a ``cache``, across runs.

    ``with Session(cache):`` makes it the one ``format_source`` uses.
    """

    cache: Cache | None = None
    chunks: dict[str, str] = field(default_factory=dict)
    statements: dict[Piece, str | None] = field(default_factory=dict)
    stats: Stats = field(default_factory=Stats)
    _token: Any = None

    def __enter__(self) -> Session:
        self._token = _current.set(self)
        return self

    def __exit__(self, *exc: object) -> None:
        _current.reset(self._token)

    def format(self, texts: Sequence[str]) -> list[str]:
        """``format_whole`` of each text."""
        splits = [split(t) for t in texts]
        self._resolve({c.text for chunks in splits if chunks for c in chunks})
        out = []
        for text, chunks in zip(texts, splits):
            formatted = [self.chunks.get(c.text) for c in chunks] if chunks else [None]
            if None in formatted:
                self.stats.modules_whole += 1
                out.append(format_whole(text))
            else:
                out.append(join(chunks, formatted))  # type: ignore[arg-type]
        return out

    def _resolve(self, wanted: set[str]) -> None:
        """Puts the formatting of each chunk in ``self.chunks`` (one black refuses is left out)."""
        missing = sorted(t for t in wanted if t not in self.chunks)
        keys = {t: digest(SCHEME, black_version(), str(LINE_LENGTH), TARGET, "chunk", t) for t in missing}
        missing = self._from_cache("chunk", keys, self.chunks, lambda text, hit: hit.decode() if hit else text)
        self.stats.cached += len(keys) - len(missing)
        plans = [plan_chunk(text) for text in missing]
        self._format_statements({p for plan in plans if plan for p in plan if p[0] != "text"})
        for text, plan in zip(missing, plans):
            formatted = self._assemble(plan) if plan is not None else None
            if formatted is None:
                self.stats.whole += 1
                formatted = _format_chunk(text)
            elif formatted == text:
                self.stats.as_is += 1
            else:
                self.stats.by_statement += 1
            if formatted is not None:
                self.chunks[text] = formatted
        if self.cache is not None:  # empty: as it is
            self.cache.put_many("chunk", {keys[t]: b"" if self.chunks[t] == t else self.chunks[t].encode()
                                          for t in missing if t in self.chunks})

    def _format_statements(self, pieces: set[Piece]) -> None:
        missing = sorted(p for p in pieces if p not in self.statements)
        keys = {p: digest(SCHEME, black_version(), str(LINE_LENGTH), TARGET, *p) for p in missing}
        missing = self._from_cache("statement", keys, self.statements, lambda piece, hit: hit.decode())
        for kind in ("header", "body", "module"):
            sources = [s for k, s in missing if k == kind]
            for group in (sources[i:i + BATCH] for i in range(0, len(sources), BATCH)):
                for source, out in zip(group, format_statements(kind, group)):
                    self.statements[(kind, source)] = out
        self.stats.statements += len(missing)
        if self.cache is not None:
            self.cache.put_many("statement", {keys[p]: self.statements[p].encode()  # type: ignore[union-attr]
                                              for p in missing if self.statements[p] is not None})

    def _from_cache(self, namespace: str, keys: dict[J, str], into: dict[J, Any],
                    decode: Callable[[J, bytes], Any]) -> list[J]:
        """Fills ``into`` from the persistent cache; what is still missing."""
        if self.cache is None or not keys:
            return list(keys)
        found = self.cache.get_many(namespace, keys.values())
        for item, key in keys.items():
            if key in found:
                into[item] = decode(item, found[key])
        return [item for item in keys if item not in into]

    def _assemble(self, plan: Plan) -> str | None:
        parts = []
        for piece in plan:
            text = piece[1] if piece[0] == "text" else self.statements.get(piece)
            if text is None:
                return None
            parts.append(text)
        return "".join(parts)


_DEFAULT = Session()
_current: contextvars.ContextVar[Session] = contextvars.ContextVar("schemagen_format_session")


def current() -> Session:
    """The session ``plan`` opened, else one for the whole process (in memory only)."""
    return _current.get(_DEFAULT)
