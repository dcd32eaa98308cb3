r"""Planning a chunk: what black leaves, what it must format.

The planner prints a chunk back, statement by statement, the way black prints it, without running
black and without black's private modules (a release of black may change those at any time). It
prints only the subset below, whose black form follows from black's documented style; anything else
raises ``_Unknown``, and the statement (alone) or the chunk (whole) goes to black. So the bytes are
black's in every case; only the speed depends on the subset.

- Statements: those ``_Planner`` names.
- Code lines fit in 88 columns. Black counts a character's East Asian width, two columns at most: a
  line with more than ASCII fits when its length plus its non-ASCII characters is at most 88, and
  does not when more than 88 of its characters are printable ASCII; in between nothing is said.
- Numbers: ``12``, ``1.5``, ``1e-05``, ``1.5e10``. Black lowercases, uppercases hex digits, drops an
  exponent's ``+`` and pads ``.5`` and ``5.``; none of that applies to these.
- Strings: no prefix; printable characters, and line breaks in triple quotes. Escapes: ``\\``,
  ``\n``, ``\r``, ``\t``; ``\x``, ``\u``, ``\U`` with lowercase hex digits (black lowercases them);
  ``\"`` in triple quotes, whose quotes black leaves alone. ``"..."`` holds no ``\"`` and no ``\'``
  (black drops a needless escape, and takes ``'`` when that needs fewer backslashes); ``'...'``
  holds a ``"`` and no ``'`` (double quotes would need more backslashes, so black keeps these).
- A class docstring (triple double quotes, at depth 1) is such a string, not empty, and also what
  black's docstring handling leaves: its first line starts with neither a space nor a quote and
  does not end with a space (black strips it); its last character is neither a quote nor a
  backslash (black pads those); the next lines are empty, or 4 spaces or more then text with no
  space at its end, one of them exactly 4 (black re-indents them to 4, after PEP 257); the last of
  them is always indented (4 spaces alone when the closing quotes are on a line of their own); and
  when there are several lines, the last and the closing quotes take at most 88 characters (else
  black puts the quotes on a line of their own).
"""

from __future__ import annotations

import ast

from ...render.format import LINE_LENGTH
from . import calls
from .forms import Unknown as _Unknown, is_black_docstring as _is_black_docstring
from .forms import is_black_number as _is_black_number, is_black_string as _is_black_string

Piece = tuple[str, str]
"""``("text", what black makes of this part)``, or a statement black formats on its own:
``("module" | "body" | "header", its source)``."""
Plan = tuple[Piece, ...]


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
    assignments, string statements, ``pass``), an assignment, string statements after either; literals
    and lines as the module's docstring says. Code lines must fit.
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
                forms: tuple[str, ...] = (printed,)
            except _Unknown:
                printed, forms = self.split(stmt, indent)
            self.add(source, ("text", printed) if source in forms else ("body" if depth else "module", source))
        else:
            raise _Unknown

    def split(self, stmt: ast.stmt, indent: str) -> tuple[str, tuple[str, ...]]:
        """Black's layout of a statement too long for one line, where ``calls`` knows it, and the sources
        black turns into it (that layout, and the statement on one line); else no source."""
        if not isinstance(stmt, ast.AnnAssign):
            return "", ()
        try:
            printed = calls.layout(self, stmt, indent)
            return printed, (printed, indent + self.simple(stmt) + "\n")
        except _Unknown:
            return "", ()

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
            if docstring != "    " + text + "\n" or not _is_black_docstring(text):
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
        """Whether black finds ``line`` short enough; ``_Unknown`` when the subset cannot say."""
        if line.isascii():
            return len(line) <= LINE_LENGTH
        if len(line) + sum(not c.isascii() for c in line) <= LINE_LENGTH:
            return True  # two columns at most for each character
        if sum(" " <= c <= "~" for c in line) > LINE_LENGTH:
            return False  # one column for each printable ASCII character, at least
        raise _Unknown

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
        if text.startswith('"""') != multiline or not _is_black_string(text):
            raise _Unknown
        return text

    def keyword(self, k: ast.keyword) -> str:
        if k.arg is None:
            raise _Unknown
        strings = calls.concatenation(self, k)
        return f"{k.arg}=({' '.join(strings)})" if strings else f"{k.arg}={self.expr(k.value)}"

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
            if not _is_black_number(text):
                raise _Unknown
            return text
        raise _Unknown


_OPERANDS = (ast.Name, ast.Attribute, ast.Subscript, ast.Call, ast.Constant)


def _is_string(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str)


def _has_parameters(a: ast.arguments) -> bool:
    return bool(a.posonlyargs or a.args or a.vararg or a.kwonlyargs or a.kwarg)
