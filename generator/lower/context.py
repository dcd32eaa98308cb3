"""What the rules of lowering share: the ``Scope`` of the whole set, and the ``Context`` they call
back into (the lowering they are part of, ``lowering.Lowering``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, MutableSet
from typing import Any, Protocol

from .. import ir
from ..diagnostics import Diagnostic, Location, Reporter
from ..frontend.schema import Definition, PYTHON_NAME, Schema, SchemaSet
from ..frozen import Frozen, field
from ..names import unique

#: Resolves a reference to another file (``schemas/other.json#/definitions/X``) to a type of the
#: input made from that file; raises ``SchemaError`` when it cannot.
External = Callable[[str, Location], ir.Type]


class Taken(MutableSet[str]):
    """The class names taken so far, each with the definition whose lowering took it (``""``: the names
    of the definitions, taken first). A name asked for while ``unit`` is lowered and found taken by
    another definition's lowering is written in ``met``: lowered on its own, ``unit`` would have found it free."""

    def __init__(self, met: dict[str, set[str]]) -> None:
        self.by: dict[str, str] = {}
        self.unit = ""
        self.met = met
        self.asked: dict[str, set[str]] = {}
        """The names each definition's lowering asked about, taken or not."""

    def __contains__(self, name: object) -> bool:
        if not isinstance(name, str):
            return False
        self.asked.setdefault(self.unit, set()).add(name)
        owner = self.by.get(name)
        if owner is None:
            return False
        if owner and owner != self.unit:
            self.met.setdefault(self.unit, set()).add(owner)
        return True

    def add(self, name: str) -> None:
        self.by.setdefault(name, self.unit)

    def discard(self, name: str) -> None:
        self.by.pop(name, None)

    def __iter__(self) -> Iterator[str]:
        return iter(self.by)

    def __len__(self) -> int:
        return len(self.by)

    def given(self) -> set[str]:
        """The names of the definitions (those taken before any was lowered)."""
        return {name for name, owner in self.by.items() if not owner}


class Names(Mapping[str, str]):
    """Each definition's class name, by key. The names the schema gives are taken first, in order; a
    derived one (``Definition.derived``) when it is first asked for: when it is lowered, after every
    other definition and what they declare inline, unless something refers to it sooner."""

    def __init__(self, definitions: Mapping[str, Definition], taken: Taken, own: Mapping[str, str]) -> None:
        """``own``: names that replace some of the schema's (``sdk.sdk_names``)."""
        self.definitions = definitions
        self.taken = taken
        given = {key: own.get(key, d.name) for key, d in definitions.items() if not d.derived}
        # the schema's names first; then the name a vendor extension gives (`PYTHON_NAME`) where no
        # other definition has it, its own name where one has
        vendors = {key: vendor for key in given if (vendor := python_name(definitions[key].schema)) is not None}
        self.chosen = {key: unique(name, taken) for key, name in given.items() if key not in vendors}
        names = set(given.values())
        for key, vendor in vendors.items():
            self.chosen[key] = unique(vendor if vendor not in taken and vendor not in names else given[key], taken)

    def __getitem__(self, key: str) -> str:
        found = self.chosen.get(key)
        if found is None:
            definition = self.definitions[key]  # (KeyError: no definition)
            name = python_name(definition.schema) or definition.name
            asker, self.taken.unit = self.taken.unit, key  # (the name is the derived definition's, whoever asks)
            try:
                # a name made for it that an inline class took already: it is the body (`CreateOrderRequestBody`)
                name = name + "Body" if name in self.taken and name + "Body" not in self.taken else name
                found = self.chosen[key] = unique(name, self.taken)
            finally:
                self.taken.unit = asker
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(self.definitions)

    def __len__(self) -> int:
        return len(self.definitions)


def python_name(schema: Schema) -> str | None:
    """The name a vendor extension gives the schema's class (``PYTHON_NAME``)."""
    name = schema.get(PYTHON_NAME)
    return name if isinstance(name, str) else None


class Known(Frozen, frozen=True):
    """What a definition lowered on its own (``units.alone``) is given of the whole set."""

    names: Mapping[str, str]
    """Each definition's class name, by key, as ``Names`` chose them over the whole set."""
    named: frozenset[str]
    """``Scope.named``."""
    given: frozenset[str]
    """The class names taken before any definition was lowered (``Taken.given``)."""
    readable: frozenset[str] | None
    """The keys of the definitions its lowering may read (``units.reads``); ``None``: any."""


def scope_of(schemas: SchemaSet, taken: Taken, own: Mapping[str, str], known: Known | None, reporter: Reporter,
             external: External | None) -> Scope:
    """The ``Scope`` of a lowering of ``schemas``: its names chosen now (``Names``, taking them in ``taken``),
    or ``known`` over the whole set, for definitions lowered on their own."""
    definitions = schemas.definitions
    defined = {id(d.schema): key for key, d in definitions.items()}
    if known is None:
        names = Names(definitions, taken, own)
        return Scope(definitions, names, frozenset(names.chosen.values()), defined, reporter, external,
                     schemas.anything)
    taken |= known.given
    readable = definitions if known.readable is None else Readable(definitions, known.readable)
    return Scope(readable, known.names, known.named, defined, reporter, external, schemas.anything)


class Asking:
    """``external``, remembering which definitions' lowering asked it for a type (``Taken.unit``)."""

    def __init__(self, external: External, taken: Taken) -> None:
        self.external = external
        self.taken = taken
        self.asked: set[str] = set()

    def __call__(self, target: str, where: Location) -> ir.Type:
        self.asked.add(self.taken.unit)
        return self.external(target, where)


class Heard(Reporter):
    """A reporter that passes each diagnostic on to ``inner`` and remembers it, each time it is reported
    (``inner`` reports it once): what each definition's lowering said (``Lowering.said``)."""

    def __init__(self, inner: Reporter) -> None:
        super().__init__()
        self.inner = inner
        self.said: list[Diagnostic] = []

    def add(self, diagnostic: Diagnostic) -> None:
        self.said.append(diagnostic)
        self.inner.add(diagnostic)


class NotRead(Exception):
    """A definition was read that ``units.reads`` does not list (a bug of ``reads``)."""


class Readable(Mapping[str, Definition]):
    """``definitions`` of which only those in ``readable`` may be read; which keys there are is known."""

    def __init__(self, definitions: Mapping[str, Definition], readable: frozenset[str]) -> None:
        self.definitions = definitions
        self.readable = readable

    def __getitem__(self, key: str) -> Definition:
        if key not in self.readable and key in self.definitions:
            raise NotRead(key)
        return self.definitions[key]

    def __contains__(self, key: object) -> bool:
        return key in self.definitions

    def __iter__(self) -> Iterator[str]:
        return iter(self.definitions)

    def __len__(self) -> int:
        return len(self.definitions)


class Scope(Frozen, frozen=True):
    """What lowering reads of the whole set, fixed before the first definition is lowered."""

    definitions: Mapping[str, Definition]
    names: Mapping[str, str]
    """Each definition's class name, by key (``Names``)."""
    named: frozenset[str]
    """The class names the schema gives its definitions (derived ones aside)."""
    defined: Mapping[int, str]
    """A definition's schema object (by ``id``) → its key: met inside another schema, it is referenced, not copied."""
    reporter: Reporter
    external: External | None
    anything: frozenset[str] = frozenset()
    """Keys a ``$ref`` names that constrain nothing, declared by nothing (``SchemaSet.anything``): ``Any``."""
    defaults: dict[str, ir.Default | None] = field(default_factory=dict)
    """The default each definition gives a property that refers to it (``references.default``), once found."""


class Context(Protocol):
    """The lowering a rule is part of: what a rule may ask of it."""

    @property
    def scope(self) -> Scope: ...

    def type_of(self, schema: Schema, hint: str, *, top: bool = False, made_by_folding: bool = False) -> ir.Type:
        """The type of ``schema``; an object with properties becomes an inline model ``hint``."""

    def of_kind(self, schema: Schema, kind: Any, hint: str) -> ir.Type:
        """The type of ``schema`` as the JSON type ``kind``."""

    def free(self, name: str) -> bool:
        """No declaration has taken ``name`` yet."""

    def expand(self, schema: Schema) -> Schema:
        """``schema`` with its ``allOf`` (and a ``$ref`` with constraining siblings) folded in."""

    def inherited(self, schema: Schema) -> frozenset[str]:
        """The ``required`` keys folding took into ``schema`` from referenced definitions."""

    def distribute(self, base: dict[str, Any], options: list[Schema]) -> list[tuple[Schema, Schema]]:
        """``{base…, anyOf: [A, B]}`` as ``[base∧A, base∧B]``: each branch that can hold, with what it became."""
