"""The stages, in the order one input goes through them, and the choice of their speed-ups.

    read (+ overlays) → normalise (dialects) → bundle → validate → lint → lower → passes  (``to_ir``)
    layout (view model, templates) → format (black)                         (``Renderer``)

Every stage is a pure function of its inputs. ``Stages.cached`` and ``Renderer`` put the cache's
wrappers (``schemagen.cache``) in front of them when there is a cache; the result is the same bytes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from .. import ir, passes, render
from ..cache import forked, verdicts, yaml_pieces
from ..cache.fingerprint import generator_digest
from ..cache.compiled import bytecode_cache
from ..cache.definitions import Definitions
from ..cache.linted import Linted
from ..cache.lowered import Lowered
from ..cache.format import Session
from ..cache.entries import Entry
from ..cache.memo import Memo, Plan
from ..cache.normalised import Keeper, Normalised
from ..cache.passed import Passed
from ..cache.places import Places
from ..cache.store import Cache
from ..cache.texts import Texts
from ..diagnostics import Diagnostic, Location, Reporter, SchemaError
from ..frontend.bundle import Library, bundle
from ..frontend.dialects import normalise
from ..frontend.overlays import Origins, mend
from ..frontend.read import read_document
from ..frontend.schema import SchemaSet
from ..lower import External, lower
from ..names import pascal
from ..render.options import RenderOptions
from ..render.template_errors import problem
from .checks import Check, checked, examples_checked, in_turn, linted
from .config import display_path
from .inputs import Input


@dataclass(frozen=True, slots=True)
class Stages:
    """The front-end stage functions a run uses: the pure ones, or the cache's wrappers of them."""

    read: Callable[[Path, str], Any] = read_document
    check: Check = checked
    examples: Check = examples_checked
    lint: Check = linted
    """The checks of the values the schemas give themselves, before and after ``check`` (``cache.linted`` keeps
    what they said of each definition)."""
    lowered: Lowered | None = None
    """Where an input's IR is kept across runs (the linker asks it before lowering an input)."""
    definitions: Definitions | None = None
    """Where each definition's declarations are kept across runs, by the pieces of text ``read`` cut."""
    sources: dict[str, yaml_pieces.Sources] = field(default_factory=dict)
    """The pieces ``read`` read each document from, by its display path (one read whole has none)."""
    normalised: Normalised | None = None
    """Where the normal form of each definition of a document read by pieces is kept across runs."""
    passed: Passed | None = None
    """Where the passes' record of each input is kept across runs, to run them again over the declarations an
    edit changed and those that reach one."""
    ahead: Callable[[Callable[[Reporter], None], int], Callable[[], Reporter] | None] = in_turn
    """Starts the checks of a set of so many definitions (a ``Reporter``'s work) elsewhere, and gives what
    they said when asked; or ``None``: they are done here, before lowering (``in_turn``). The cache's does
    them in another process while this one lowers the set, where it is large (``forked.ahead``)."""

    @classmethod
    def cached(cls, store: Cache | None, scope: str = "", inputs: int = 1, processes: int = 1) -> Stages:
        """With ``store``, long YAML is read piece by piece and definitions found valid are not checked again
        (what is not in the cache parsed and checked by up to ``processes`` processes when it is much);
        in a project of several ``inputs``, each input's IR is kept (``scope``: the project, whose folder it is).
        (An input alone is lowered again whenever a run has anything to do but for a change of the variants
        or options: keeping its IR would cost every edit its storing, and save little.) The declarations of
        each definition of a document read piece by piece are kept by the pieces they are made from, and the
        passes' record of each input, to run them again over what an edit changed (``cache.passed``). With two
        processes or more, a large set is checked in another process while this one lowers it (which then
        leaves one process fewer to the check).
        """
        if store is None:
            return cls()
        sources: dict[str, yaml_pieces.Sources] = {}
        meanwhile = processes > 1
        values = Linted(store, generator_digest(), scope)
        return cls(read=partial(yaml_pieces.read_document, store=store, processes=processes, sources=sources,
                                scope=scope),
                   check=partial(verdicts.check, store=store, processes=processes - 1 if meanwhile else processes),
                   examples=values.examples, lint=values.check,
                   lowered=Lowered(store, generator_digest(), scope) if inputs > 1 else None,
                   definitions=Definitions(store, generator_digest(), scope), sources=sources,
                   normalised=Normalised(store, generator_digest(), scope),
                   passed=Passed(store, generator_digest(), scope),
                   ahead=partial(forked.ahead, store=store) if meanwhile else in_turn)


    def places(self, documents: list[tuple[str, Any]], source: Input) -> Places | None:
        """What the definitions of an input of one document were read from, where ``read`` read it by pieces
        and no overlay mended it."""
        pieces = self.sources.get(documents[0][0]) if len(documents) == 1 and not source.overlays else None
        return Places(documents[0][0], pieces) if pieces else None

    @contextmanager
    def kept(self, places: Places | None) -> Iterator[Keeper | None]:
        """Where normalising the document of ``places`` takes each definition's normal form from (``None``:
        it makes them all); what it made is kept when it is done."""
        keeper = self.normalised.keeper(places) if self.normalised is not None and places is not None else None
        yield keeper
        if keeper is not None:
            keeper.store()


def to_ir(source: Input, root: Path, reporter: Reporter, external: External | None = None,
          library: Library | None = None, stages: Stages = Stages()) -> ir.Module:
    """Read (and mend by the input's overlays), normalise, bundle, validate, lint, lower and run the
    passes; problems go to ``reporter`` (errors raise).

    ``library`` says which referenced files that are not inputs are read (``bundle``; default: those
    in ``source``'s folder); ``external`` resolves references to inputs (see ``link.Linker``); other
    references to files are unresolved. A problem in a mended document is reported where its text
    was written: in the vendored file, or in the overlay that added it (``overlays.Origins``).
    """
    origins: dict[str, Origins] = {}
    documents = [_read(p, source, root, stages, reporter, origins) for p in source.files]
    if not documents:
        raise SchemaError([Diagnostic(Location(source.display), "the folder holds no .json, .yaml or .yml file")])
    try:
        return _lower(documents, source, root, reporter, external, library, stages)
    except SchemaError as exc:
        raise SchemaError([_relocate(d, origins) for d in exc.diagnostics]) from None
    finally:
        reporter.warnings[:] = [_relocate(w, origins) for w in reporter.warnings]


def constrains_nothing(source: Input, root: Path, stages: Stages = Stages()) -> bool:
    """``source`` is one JSON Schema document whose root constrains nothing (``SchemaSet.anything``,
    as ``{}``): it declares no root, and a reference to the file is ``Any``. (Read again: it is asked
    only of a reference to a file that finds no declaration.)"""
    if not source.path.is_file():
        return False
    reporter = Reporter()
    try:
        document = _read(source.path, source, root, stages, reporter, {})
        schemas = normalise([document], folder=False, dialect=source.dialect, default_name="Model", reporter=reporter)
    except SchemaError:
        return False
    return "#" in schemas.anything


def mended(path: Path, source: Input, root: Path) -> tuple[str, Any]:
    """One file of ``source`` as ``to_ir`` reads it: (display path, value mended by its overlays)."""
    return _read(path, source, root, Stages(), Reporter(), {})


def _read(path: Path, source: Input, root: Path, stages: Stages, reporter: Reporter,
          origins: dict[str, Origins]) -> tuple[str, Any]:
    """One file of ``source`` as (display path, value), mended by the overlays that extend it."""
    display = display_path(path, root)
    document = stages.read(path, display)
    mends = [(o.path, o.display, stages.read(o.path, o.display)) for o in source.overlays
             if o.target == path.resolve()]
    if mends:
        origins[display] = mend(document, display, mends, reporter)
    return display, document


def _lower(documents: list[tuple[str, Any]], source: Input, root: Path, reporter: Reporter,
           external: External | None, library: Library | None, stages: Stages) -> ir.Module:
    """The checks of the set read, then lowering and the passes; or these meanwhile, where the checks are
    done ahead (``Stages.ahead``): what the checks said is reported first, and their errors stop the run,
    as if they had been done first."""
    library = library or Library(root, source.path.parent, frozenset({source.display}))
    places = stages.places(documents, source)
    with stages.kept(places) as keep:
        read = normalise(documents, folder=source.path.is_dir(), dialect=source.dialect,
                         default_name=pascal(source.path.stem) or "Model", reporter=reporter, locate=library.locate,
                         openapi_scope=source.openapi_scope, files=library, keep=keep)
    schemas = bundle(read, source.display, library, reporter) if source.path.is_file() else read
    made_from = keep.made_from() if keep is not None and schemas is read else {}
    work = partial(_check, read, schemas, stages, made_from)
    told = stages.ahead(work, len(schemas.definitions))
    if told is None:
        work(reporter)
        return _lowered(schemas, source, reporter, external, stages, places)
    later = Reporter()
    failed: Exception | None = None
    try:
        module = _lowered(schemas, source, later, external, stages, places)
    except Exception as exc:  # (on a set the checks reject, lowering may fail in any way: their errors are what is said)
        failed = exc
    reporter.extend(told())
    reporter.raise_errors()
    reporter.extend(later)
    if failed is not None:
        raise failed
    return module


def _check(read: SchemaSet, schemas: SchemaSet, stages: Stages, made_from: Mapping[str, str],
           reporter: Reporter) -> None:
    """The checks of a set, in order: the examples its dialect read (in the set as read, before ``bundle``),
    the meta-schema check, and (if that found no error) ``lint``."""
    stages.examples(read, reporter, made_from)
    stages.check(schemas, reporter, made_from)
    reporter.raise_errors()
    stages.lint(schemas, reporter, made_from)


def _lowered(schemas: SchemaSet, source: Input, reporter: Reporter, external: External | None, stages: Stages,
             places: Places | None) -> ir.Module:
    """Lowering and the passes (``places``: what the definitions were read from, where they were read by pieces)."""
    if stages.definitions is not None and places is not None:
        module = stages.definitions.lower(schemas, reporter, external, source.names, repr(source), places)
    else:
        module = lower(schemas, reporter, external, source.names)
    reporter.raise_errors()
    if not module.declarations and not schemas.anything:  # (a root that constrains nothing is `Any` on purpose)
        reporter.warn(Location(source.display), "declares nothing: its modules are empty",
                      "an OpenAPI document's classes are its components.schemas and the JSON bodies of its "
                      "operations (as openapi_scope says)", kind="empty input")
    if stages.passed is not None:
        known = stages.definitions.digests(module) if stages.definitions is not None else {}
        module = stages.passed.run(module, reporter, source.required_defaults, source.names, source.display, known)
    else:
        module = passes.run(module, reporter, source.required_defaults, source.names)
    reporter.raise_errors()
    return module


def _relocate(diagnostic: Diagnostic, origins: dict[str, Origins]) -> Diagnostic:
    found = origins.get(diagnostic.location.path)
    return diagnostic if found is None else found.relocate(diagnostic)


class Renderer:
    """Writes modules for one run: ``render.render``'s bytes, computed with the speed-ups.

    Modules are formatted in one ``Session`` (black's work is shared between modules, and kept in
    ``store`` when there is one). With a store and the built-in layout, each declaration's text is
    taken from the memo while what it was made from holds (``scope``: whose entries those are), and
    the whole module's text where its IR is known by what it was made from (``made_from``).
    """

    def __init__(self, templates: Path | None, options: RenderOptions, store: Cache | None = None,
                 scope: str = "", root: Path = Path("."), made_from: dict[str, str] | None = None,
                 passed: Passed | None = None, written: Callable[[str, str], bytes | None] | None = None) -> None:
        """``root``: the project root, which messages about the user's ``templates`` name them from;
        ``made_from``: the key of each input's IR (``cache.lowered``), by its label, where it is known;
        ``passed``: the passes' records, which say of a module they made what the memo need not work out
        again (``Passed.told``); ``written``: the bytes of an input's module in a variant (by label and
        variant) as they are on disk, if they are, which the memo splices the module from after an edit."""
        self.env = render.environment(templates, None if store is None else bytecode_cache(store, generator_digest()))
        self.options = options
        self.templates = templates
        self.root = root
        own = render.own_templates(templates)  # the memo knows the built-in layout only
        self.memo = Memo(store, generator_digest(), scope) if store is not None and not own else None
        self.passed = passed
        self.texts = Texts(store, generator_digest(), scope) if store is not None and not own else None
        self.made_from = made_from or {}
        self.written = written
        self.session = Session(store)
        self.store = store
        self._plans: dict[tuple[int, str, str], Plan] = {}
        self._kept: dict[tuple[str, str], str | None] = {}

    def close(self) -> None:
        """Closes the connection to the cache (it opens again when next used, in this process or in
        one forked from it)."""
        if self.store is not None:
            self.store.close()

    def to_make(self, module: ir.Module, variant: str, source: str) -> int:
        """How many of the module's declarations are to be written (not found in the memo); what is
        found is kept for ``render``."""
        return len(module.declarations) if self.memo is None else self._plan(module, variant, source).misses

    def parts(self, module: ir.Module, variant: str, source: str) -> list[int] | None:
        """The declarations to be written, by index, when each can be written apart from the module
        (``part``, with the memo); ``None``: the module is written whole (``render``)."""
        return None if self.memo is None else self._plan(module, variant, source).missing

    def part(self, module: ir.Module, variant: str, source: str, indexes: Sequence[int]) -> list[Entry]:
        """The fragments of the module's declarations ``indexes``, each with its formatted stretch, for
        ``render(..., made)``, here or in another process."""
        assert self.memo is not None
        return self.memo.make(self._plan(module, variant, source), self.env, self.session, indexes)

    def render(self, module: ir.Module, variant: str, source: str, made: Mapping[int, Entry] | None = None) -> str:
        """The module's text; ``SchemaError`` when the user's templates fail (a failure of the built-in
        ones alone is a bug: it is raised as it is). A text kept (``kept``) is asked for first, by the caller,
        which then needs no IR. ``made``: what ``part`` made of its declarations, by index."""
        try:
            if self.memo is not None:
                planned = self._plan(module, variant, source)
                del self._plans[id(module), variant, source]
                text = self.memo.formatted(planned, self.env, self.session, made)
            else:
                text = self.session.format_one(render.layout(module, variant, source, self.env, self.options))
        except Exception as exc:
            found = problem(exc, self.templates, variant, source, self.root)
            if found is None:
                raise
            raise SchemaError([found]) from None
        if self.texts is not None and source in self.made_from:
            self.texts.put(source, variant, self._text_key(variant, source), text)
        return text

    def restorable(self, source: str, variant: str) -> tuple[str, bytes] | None:
        """If the module of input ``source`` in ``variant`` was put together from the memo's entries, and can be
        again without its IR (``Memo.restore``): the SHA-256 of its bytes (``write.digest``), and those; else
        ``None``."""
        return None if self.memo is None else self.memo.indexed.get((source, variant))

    def kept(self, variant: str, source: str) -> str | None:
        """The text of input ``source``'s module in ``variant`` as an earlier run kept it, if its IR is known
        to be the same (looked up once): the IR itself is then not needed."""
        if self.texts is None or source not in self.made_from:
            return None
        if (variant, source) not in self._kept:
            self._kept[variant, source] = self.texts.get(source, variant, self._text_key(variant, source))
        return self._kept[variant, source]

    def _plan(self, module: ir.Module, variant: str, source: str) -> Plan:
        """The memo's plan of the module's variant, looked up once (``render`` lets it go)."""
        assert self.memo is not None
        key = (id(module), variant, source)
        planned = self._plans.get(key)
        if planned is None or planned.module is not module:
            told = self.passed.told(module) if self.passed is not None else (None, None)
            written = self.written
            on_disk = None if written is None else partial(written, source, variant)
            planned = self._plans[key] = self.memo.plan(module, variant, source, self.options, *told, on_disk)
        return planned

    def _text_key(self, variant: str, source: str) -> str:
        assert self.texts is not None
        return self.texts.key(self.made_from[source], variant, source, repr(self.options))
