"""Naming: every class and field gets a valid, unique, deterministic Python name.

Wire names are kept beside the Python names; declarations the schema names keep their name
when it is already a valid identifier, and win over inline declarations on a clash.
"""

from __future__ import annotations

from collections.abc import Container, Mapping, Sequence

from .. import ir
from ..diagnostics import Reporter
from ..frozen import replace
from ..ir.walk import mentions, rename_all, types
from ..names import (FIELD_RESERVED, FORMAT_NAMES, MODULE_NAMES, OUTPUT_NAMES, RESERVED, Both, identifier, pascal,
                     Naming, as_written, portable_wire_name, unique, words)
from .where import location


def name(module: ir.Module, reporter: Reporter, names: Naming = "schema") -> ir.Module:
    """``names = "sdk"``: a word the module's names spell in more than one way (``MCP`` in
    ``ResponseMCPCallCompletedEvent``, ``Mcp`` in ``ResponseMcpCallWsCompleted``) is spelt as a word
    in all of them (``ResponseMcpCallCompletedEvent``), as the official SDKs spell words; an acronym
    the names spell one way stays (``HTTPError``)."""
    return named(module, class_names([(d.name, d.inline) for d in module.declarations], names), reporter)


def class_names(declared: Sequence[tuple[str, bool]], names: Naming = "schema") -> dict[str, str]:
    """Each declaration's class name, by its name in the IR: decided over what each is called and
    whether it is inline, in the module's order (``declared``), and nothing else of it."""
    reserved = RESERVED | OUTPUT_NAMES | MODULE_NAMES
    taken: set[str] = set()
    classes: dict[str, str] = {}
    wanted = {given: class_name(given, reserved) for given, _ in declared}
    if names == "sdk":
        wanted = _one_spelling(wanted, reserved)
    # Names the schema gives first, and among them the PascalCase ones: those keep their name; one
    # whose PascalCase another has keeps the identifier it is written as (`Foo_Bar` beside `FooBar`).
    for given, _ in sorted(declared, key=lambda d: (d[1], wanted[d[0]] != d[0])):
        written = identifier(given, style="pascal", reserved=reserved)
        classes[given] = unique(wanted[given] if wanted[given] not in taken else written, taken)
    return classes


def named(module: ir.Module, classes: Mapping[str, str], reporter: Reporter) -> ir.Module:
    """``module`` with its classes named as ``classes`` says (a declaration reads in it its own name and
    those it mentions: ``reads``), its fields named, and the schema's name said in the docstring where
    its words were joined anew; a key msgspec cannot rename to is reported (``unportable``)."""
    module = renamed(module, classes)
    for d in module.declarations:
        unportable(d, reporter)
    return module


def renamed(module: ir.Module, classes: Mapping[str, str]) -> ir.Module:
    """``named`` without its warnings."""
    said = {classes[d.name]: d.name for d in module.declarations
            if not d.inline and classes[d.name] != d.name and not d.name.isalnum()}
    module = rename_all(module, classes)
    declarations = tuple(_name_fields(d) if isinstance(d, ir.Model) else d for d in module.declarations)
    declarations = tuple(replace(d, doc=as_written(d.doc, said[d.name])) if d.name in said else d for d in declarations)
    return ir.Module(declarations, module.root)


def unportable(d: ir.Declaration, reporter: Reporter) -> None:
    """Reports each key of ``d`` (named) that msgspec cannot rename to."""
    for f in d.fields if isinstance(d, ir.Model) else ():
        if not portable_wire_name(f.wire_name):
            reporter.warn(location(d, "properties", f.wire_name),
                          f"the key {f.wire_name!r} holds a quote, backslash or control character, which msgspec "
                          "cannot rename to; the msgspec variant has no field for it (it is ignored there)",
                          kind="unportable key")


def reads(d: ir.Declaration) -> set[str]:
    """The names whose class names ``named`` reads to name ``d``: its own, and those it mentions."""
    return {d.name, *mentions(d)}


def class_name(text: str, reserved: Container[str]) -> str:
    """A class name for ``text``: a valid identifier as PascalCase as its words allow
    (``Beta_AgentTagParam`` → ``BetaAgentTagParam``, ``ServerToolCaller_20260120`` →
    ``ServerToolCaller20260120``, ``chatMessage`` → ``ChatMessage``; ``HTTPError`` as it is)."""
    written = identifier(text, style="pascal", reserved=reserved)
    inner = written.rstrip("_")  # (a reserved name's `_` is kept)
    if "_" not in inner.lstrip("_") and inner[:1].isupper():
        return written
    return identifier(pascal(inner), style="pascal", reserved=reserved)


def _one_spelling(wanted: dict[str, str], reserved: Container[str]) -> dict[str, str]:
    """``wanted`` with each word spelt in more than one way across them spelt as a word (see ``name``)."""
    spellings: dict[str, set[str]] = {}
    for name in wanted.values():
        for word in words(name):
            spellings.setdefault(word.lower(), set()).add(word)
    two = {word for word, spelt in spellings.items() if len(spelt) > 1}
    return {key: _respelt(name, two, reserved) if two else name for key, name in wanted.items()}


def _respelt(name: str, two: set[str], reserved: Container[str]) -> str:
    said = words(name)
    if not any(w.lower() in two for w in said):
        return name
    return class_name("".join(w[:1].upper() + w[1:].lower() if w.lower() in two else w for w in said), reserved)


def _name_fields(model: ir.Model) -> ir.Model:
    """Fields keep their keys where valid: a field shadows a name only inside its class (its body and
    annotations), so only what that class uses is reserved (the classes its annotations name)."""
    used: set[str] = set()
    for t in types(*(f.type for f in model.fields)):  # (one walk of the field types)
        if isinstance(t, ir.Ref):
            used.add(t.name)
        elif isinstance(t, ir.Scalar) and t.format:
            used.add(FORMAT_NAMES[t.format])
    reserved = Both(FIELD_RESERVED, used)
    written = {f.wire_name: identifier(f.wire_name, style="snake", reserved=reserved) for f in model.fields}
    taken: set[str] = set()
    names: dict[str, str] = {}
    for f in sorted(model.fields, key=lambda f: written[f.wire_name] != f.wire_name):  # valid keys keep theirs
        names[f.wire_name] = unique(written[f.wire_name], taken)
    if all(f.name == names[f.wire_name] for f in model.fields):
        return model
    return replace(model, fields=tuple(replace(f, name=names[f.wire_name]) for f in model.fields))
