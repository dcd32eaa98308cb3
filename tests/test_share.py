"""``passes.share``: an inline declaration that says just what a named one says is that one; any field
it says otherwise keeps it (its text is built field by field, ``share._bare``)."""

from __future__ import annotations

from typing import Any

import pytest

from schemagen import frozen, ir
from schemagen.diagnostics import Reporter
from schemagen.passes.share import share

FIELD = ir.Field("name", "name", ir.Scalar("str"), True, None, "The name.")
NAMED = ir.Model("Owner", (FIELD,), "An owner.")
SET_ASIDE = {ir.Model: {"name", "tag", "inline", "origin"}, ir.Alias: {"name", "inline", "origin"}, ir.Field: set()}
"""What share does not compare: where a declaration is and what it is called (and a union's tag on a model)."""


def shared(named: ir.Declaration, copy: ir.Declaration) -> bool:
    holder = ir.Model("Key", (ir.Field("owner", "owner", ir.Ref(copy.name), True),))
    module = share(ir.Module((holder, named, copy)), Reporter())
    return copy.name not in {d.name for d in module.declarations}


def test_a_copy_that_says_the_same_in_other_lines_is_the_named_declaration() -> None:
    copy = frozen.replace(NAMED, name="KeyOwner", doc="An\n  owner.", inline=True,
                          origin=ir.Origin("spec.json", "/properties/owner"))
    assert shared(NAMED, copy)


@pytest.mark.parametrize(("node", "field", "value"), [
    (ir.Model, "fields", ()), (ir.Model, "doc", "Another."), (ir.Model, "closed", True),
    (ir.Field, "name", "title"), (ir.Field, "wire_name", "title"), (ir.Field, "type", ir.Scalar("int")),
    (ir.Field, "required", False), (ir.Field, "default", ir.Default("x")), (ir.Field, "doc", "Another."),
])
def test_a_copy_that_says_anything_else_stays_its_own(node: type[Any], field: str, value: Any) -> None:
    changed = frozen.replace(FIELD, **{field: value}) if node is ir.Field else FIELD
    copy = frozen.replace(NAMED, name="KeyOwner", inline=True, fields=(changed,))
    copy = frozen.replace(copy, **{field: value}) if node is ir.Model else copy
    assert not shared(NAMED, copy)


@pytest.mark.parametrize(("field", "value", "kept"), [
    ("doc", "A key's\n  owner.", False), ("doc", "Another.", True), ("type", ir.Scalar("int"), True)])
def test_an_alias_copy_is_shared_by_its_type_and_doc_alone(field: str, value: Any, kept: bool) -> None:
    named = ir.Alias("OwnerId", ir.Scalar("str"), "A key's owner.")
    copy = frozen.replace(named, name="KeyOwner", inline=True, origin=ir.Origin("spec.json", "/properties/owner"),
                          **{field: value})
    assert shared(named, copy) is not kept


def test_every_field_of_a_declaration_is_compared_or_set_aside() -> None:
    """A field added to the IR must be said in ``share._bare`` (and above), or set aside here on purpose."""
    compared = {ir.Model: {"fields", "doc", "closed"}, ir.Alias: {"type", "doc"},
                ir.Field: {"name", "wire_name", "type", "required", "default", "doc"}}
    for node, fields in compared.items():
        assert {f.name for f in frozen.fields(node)} == fields | SET_ASIDE[node], node.__name__
