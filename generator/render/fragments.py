"""Rendering one declaration at a time: a pure function of inputs it names, and the module around.

``fragment(declaration, context, env)`` is the text the built-in layout writes for one declaration
and what it imports. Its ``FragmentContext`` lists everything the variant's rules may read for it:

- the declarations it refers to (``refers_to``): those it names, and through each alias it names
  the alias's own (a union's members and a default are read through aliases), and everything under
  a field whose default is an object or an array (the value is built through the models it names);
- which of those, and itself, are declared further down the module (an annotation naming one is
  quoted where annotations are not lazy);
- the variant and the options that change how declarations are written.

The rules see only those declarations (a read of any other is a ``KeyError``), so the text cannot
depend on anything else; ``cache.memo`` keys on exactly these inputs. ``assemble`` puts the module
together: its head (header, imports, prelude) and the fragments, in order. That is the built-in
templates' layout, whose module is its head followed by each declaration's text; a template folder of
one's own may lay modules out any other way and is rendered whole (``render.layout``). A test checks
that both give the same bytes on every golden case.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from .. import ir
from ..frozen import Frozen
from ..ir.walk import children
from . import view
from .imports import Imports, State
from .options import RenderOptions
from .variants import VARIANTS

if TYPE_CHECKING:
    import jinja2


class Fragment(Frozen, frozen=True):
    text: str
    """What the template writes for the declaration: the blank lines before it, then it."""
    imports: State
    """What it imports (``Imports.state()``)."""


class FragmentContext(Frozen, frozen=True):
    """Everything a declaration's fragment is made from, besides the declaration and the templates."""

    variant: str
    options: RenderOptions
    """With ``command`` left out: it is written in the header only."""
    refers: Mapping[str, ir.Declaration]
    later: frozenset[str]
    """The names among ``refers`` and the declaration's own that are declared at it or further down."""


class Links:
    """Each declaration's ``refers`` and ``later`` in ``module``: the part of its context every variant shares,
    worked out for a declaration when first asked (``at``; a declaration's types are walked once)."""

    def __init__(self, module: ir.Module) -> None:
        self.module = module
        self.declarations = {d.name: d for d in module.declarations}
        self._position = {d.name: i for i, d in enumerate(module.declarations)}
        self._names: dict[str, _Names] = {}
        self._at: dict[int, tuple[dict[str, ir.Declaration], frozenset[str]]] = {}

    def at(self, i: int) -> tuple[dict[str, ir.Declaration], frozenset[str]]:
        """The declarations declaration ``i`` refers to, and which of them (and itself) are declared at it or
        further down."""
        found = self._at.get(i)
        if found is None:
            d = self.module.declarations[i]
            own = self._names.get(d.name)
            if own is None:
                own = self._names[d.name] = _Names(d)
            refers = _refers(own, self.declarations, self._names)
            found = self._at[i] = (refers, frozenset(n for n in (*refers, d.name) if self._position[n] >= i))
        return found

    def context(self, i: int, variant: str, options: RenderOptions) -> FragmentContext:
        """Declaration ``i``'s context in ``variant`` with ``options``."""
        return FragmentContext(variant, shared_options(options), *self.at(i))


def shared_options(options: RenderOptions) -> RenderOptions:
    """What of ``options`` a fragment reads: all but ``command`` (written in the header only)."""
    return options if not options.command else replace(options, command="")


def contexts(module: ir.Module, variant: str, options: RenderOptions,
             shared: Links | None = None) -> list[FragmentContext]:
    """The context of each declaration of ``module``, in order (``shared``: ``links(module)``, when known)."""
    shared = shared or links(module)
    return [shared.context(i, variant, options) for i in range(len(module.declarations))]


def links(module: ir.Module) -> Links:
    """The declarations each declaration of ``module`` refers to, and which of them (and itself) are
    declared at it or further down."""
    return Links(module)


def refers_to(d: ir.Declaration, declarations: Mapping[str, ir.Declaration]) -> dict[str, ir.Declaration]:
    """The declarations (of ``declarations``) the rules may read for ``d``, by name, sorted.

    Every declaration ``d`` names; and followed through aliases (an alias's own references, and theirs
    while they are aliases), those a union of it names as a member (a member alias is read as its
    members) and those a field that may be absent or has a default names (whether ``None`` or the
    default fits is asked through aliases). Under a default that is an object or an array, every
    declaration: the value is built through the models it names. Only what is followed adds more, so
    a chain of aliases costs each declaration what it reads, not the chain.
    """
    return _refers(_Names(d), declarations, {})


class _Names:
    """What one declaration names, read off one walk of its types: every name (``named``), those the rules
    look through aliases for (``followed``: union members, and the type of a field that may be absent or
    has a default) and those under a default that is an object or an array (``deep``)."""

    __slots__ = ("named", "followed", "deep")

    def __init__(self, d: ir.Declaration) -> None:
        self.named: list[str] = []
        self.followed: list[str] = []
        self.deep: list[str] = []
        if isinstance(d, ir.Alias):
            self._walk(d.type, False)
            return
        for f in d.fields:
            start = len(self.named)
            self._walk(f.type, False)
            own = self.named[start:]
            if not f.required or f.default is not None:
                self.followed += own
            if f.default is not None and isinstance(f.default.value, (dict, list)):
                self.deep += own

    def _walk(self, t: ir.Type, member: bool) -> None:
        """``member``: ``t`` is (inside) a member of a union."""
        if isinstance(t, ir.Ref):
            if t.module is None:
                self.named.append(t.name)
                if member:
                    self.followed.append(t.name)
            return
        if isinstance(t, ir.Union):
            for m in t.members:
                self._walk(m, True)
            return
        for child in children(t):
            self._walk(child, member)


def _refers(own: _Names, declarations: Mapping[str, ir.Declaration],
            known: dict[str, _Names]) -> dict[str, ir.Declaration]:
    """``refers_to``, from what the declaration names (``own``) and, where known, what the others do."""
    found = {name: declarations[name] for name in own.named if name in declarations}
    whole: set[str] = set()
    followed: set[str] = set()
    stack = [(name, False) for name in own.followed] + [(name, True) for name in own.deep]
    while stack:
        name, deep = stack.pop()
        target = declarations.get(name)
        if target is None or name in whole or (name in followed and not deep):
            continue
        found[name] = target
        (whole if deep else followed).add(name)
        if deep or isinstance(target, ir.Alias):
            names = known.get(name)
            if names is None:
                names = known[name] = _Names(target)
            stack += [(n, deep) for n in names.named]
    return dict(sorted(found.items()))


def fragment(declaration: ir.Declaration, context: FragmentContext, env: jinja2.Environment) -> Fragment:
    """The built-in layout's text of ``declaration`` in ``context``, and what it imports."""
    rules = VARIANTS[context.variant]
    declarations = {**context.refers, declaration.name: declaration}
    enums = view.enum_members(declarations.values()) if rules.enum_classes and context.options.enums == "class" else {}
    ctx = view.Context(Imports(), rules, declarations, set(context.later), enums)
    declared = view.declaration(declaration, ctx)
    text = env.get_template(rules.template).render(module=view.ModuleView("", (), (declared,)))
    return Fragment(text, ctx.imports.state())


def assemble(module: ir.Module, variant: str, source: str, env: jinja2.Environment, options: RenderOptions,
             fragments: list[Fragment]) -> str:
    """The module: its head (with every fragment's imports) and the fragments, in order."""
    return head(module, variant, source, env, options, [piece.imports for piece in fragments]) \
        + "".join(piece.text for piece in fragments)


def head(module: ir.Module, variant: str, source: str, env: jinja2.Environment, options: RenderOptions,
         imports: Iterable[State]) -> str:
    """The text of the module before its first declaration: header, imports (those of every fragment,
    ``Fragment.imports``), prelude."""
    rules = VARIANTS[variant]
    merged = Imports()
    for state in dict.fromkeys(imports):  # (each distinct one once: merging is a union, and lines() sorts)
        merged.merge(state)
    return env.get_template(rules.template).render(module=view.head(module, rules, source, merged,
                                                                    command=options.command))
