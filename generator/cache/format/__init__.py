"""Formatting many modules fast, with the bytes ``render.format.format_whole`` gives.

Black is most of the cost of generation, so it is asked as little as possible:

1. ``chunks.split`` cuts a module at its top-level statements into chunks: the header (comments,
   imports) and each declaration with the string literals under it (``known.cut`` does it lexing only
   the chunks not met before).
2. ``stable.plan_chunk`` reads a chunk's syntax tree and prints each statement back the way black prints
   it. What comes out equal to the text is left as it is (most declarations: the view model and
   templates already write black's layout). A code statement that does not (a line too long) is
   formatted by black on its own, in a two-line module (``batch``); many of them recur, across classes
   and variants, and each is formatted once. A chunk with anything else goes to black whole.
3. ``chunks.join`` puts the formatted chunks together with the blank lines black puts between
   top-level statements. Whole chunks formatted and joined are a ``Stretch``; ``chunks.splice`` joins
   stretches as ``join`` joins chunks, so a module can be put together from stretches formatted apart
   (``Session.stretches``: the render memo keeps each declaration's).

Black formats each logical line on its own, and the blank lines before a line depend only on the line
before it, so this is black's own result; the splitter and planner only accept the few statement kinds
generated modules are made of, and anything else (a function, a comment between declarations,
``# fmt: off``, a header without imports) sends the whole module to black.
``tests/test_performance_contract.py`` checks the result against whole-file black.

``session.Session`` keeps what was formatted in memory, and in the persistent cache when given one.
"""

from .session import Session, Stats

__all__ = ["Session", "Stats"]
