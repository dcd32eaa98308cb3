"""Unions as the docstrings and annotations say them: the members the msgspec variant widens, the
constraints of each union member named by that member, and literal members as one ``Literal[...]``.

The modules are rendered from the golden cases' inputs (``union_widening``, ``union_member_constraints``,
``union_literals``), so that these tests check the generator, not only the committed expectations.
"""

from __future__ import annotations

import ast
import inspect
import json
import sys
from functools import cache
from pathlib import Path
from types import ModuleType

import msgspec
import pytest

from schemagen import ir, render
from schemagen.diagnostics import Reporter
from schemagen.project.inputs import Input
from schemagen.project.pipeline import to_ir
from schemagen.render import msgspec as msgspec_rules
from schemagen.render.annotations import annotation
from schemagen.render.imports import Imports
from schemagen.render.options import RenderOptions
from golden import GOLDEN, Case, generate

STDLIB = ("dataclass", "typeddict")
VARIANTS = (*STDLIB, "msgspec")


@cache
def _rendered(case: str) -> dict[str, str]:
    """File name → text: each variant's module of the golden case, and its ``warnings.txt``."""
    c = Case(GOLDEN / case)
    return generate(c, c.inputs[0])


def _docs(source: str, owner: str | None) -> dict[str, str]:
    """The docstring under each field of the class ``owner`` (``None``: under each module-level alias)."""
    tree = ast.parse(source)
    body = tree.body if owner is None else next(
        n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == owner).body
    docs = {}
    for statement, after in zip(body, body[1:]):
        target = statement.target if isinstance(statement, ast.AnnAssign) else (
            statement.targets[0] if isinstance(statement, ast.Assign) else None)
        if isinstance(target, ast.Name) and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant):
            docs[target.id] = inspect.cleandoc(after.value.value)
    return docs


def _imported(source: str, name: str) -> ModuleType:
    module = ModuleType(name)
    sys.modules[name] = module  # msgspec resolves the lazy annotations through the module
    exec(compile(source, name, "exec"), module.__dict__)
    return module


# Widening, said where it happens ---------------------------------------------------------------

def test_msgspec_docstrings_say_which_members_are_widened_into_what() -> None:
    out = _rendered("union_widening")
    fields = _docs(out["msgspec_models.py"], "Event")
    assert fields["contact"] == "Who to tell.\n\nNot enforced here: `Email | Phone` is decoded as `dict[str, Any]`."
    assert fields["labels"] == ("Not enforced here: `list[str] | list[int]` is decoded as `list[str | int]`.\n\n"
                                "Constraints not enforced: `list[str]`: min length 1.")  # the dropped minItems
    assert fields["when"] == "Not enforced here: `datetime.datetime | datetime.date` is decoded as `str`."
    # two strings with different limits are one `str`: the type is the same, only the limits are gone
    assert fields["code"] == "Constraints not enforced: `str`: min length 2; `str`: pattern '^[A-Z]'."
    assert "stamp" not in fields  # the alias says it
    assert _docs(out["msgspec_models.py"], None)["Stamp"] == (
        "A moment or a day.\n\nNot enforced here: `datetime.datetime | datetime.date` is decoded as `str`.")
    for variant in STDLIB:
        assert "Not enforced here" not in out[f"{variant}_models.py"]


def test_the_widening_warning_names_the_pointer_of_the_property() -> None:
    assert _rendered("union_widening")["warnings.txt"] == (
        "warning: tests/golden/union_widening/input.json: #/properties/contact: no property tells the object types "
        "Email | Phone apart (no discriminator, no distinct const); the msgspec variant decodes them as a plain object\n")


# Constraints of union members --------------------------------------------------------------------

@pytest.mark.parametrize("variant", STDLIB)
def test_stdlib_docstrings_name_the_member_each_constraint_belongs_to(variant: str) -> None:
    fields = _docs(_rendered("union_member_constraints")[f"{variant}_models.py"], "Filter")
    assert fields["terms"] == "Constraints: `str`: min length 1; `list[str]`: min length 1, unique items."
    assert fields["limit"] == "Constraints: `int`: >= 1, <= 100; `str`: pattern '^[0-9]+$'."  # the null is no member
    assert fields["scores"] == "Constraints: `float`: multiple of 0.5; `str`: max length 3."  # a union inside a list
    # not a union of two or more types: the text stays as it was
    assert fields["name"] == "Constraints: min length 1."
    assert fields["tags"] == "Constraints: max length 5, unique items."


def test_msgspec_names_the_member_of_a_constraint_it_does_not_enforce() -> None:
    fields = _docs(_rendered("union_member_constraints")["msgspec_models.py"], "Filter")
    assert fields["terms"] == "Constraints not enforced: `list[str]`: unique items."
    assert fields["scores"] == "Constraints not enforced: `float`: multiple of 0.5."
    assert fields["tags"] == "Constraints not enforced: unique items."


# Literal members as one Literal ------------------------------------------------------------------

@pytest.mark.parametrize("variant", VARIANTS)
def test_literal_members_of_a_union_are_one_literal(variant: str) -> None:
    source = _rendered("union_literals")[f"{variant}_models.py"]
    assert "] | Literal[" not in source, source
    for expected in ('Literal["left", "right"] | None', 'Literal["s", "m", "l"]', "Literal[1, 2]",
                     'Literal["auto", 0]', 'Pick = Literal["x", "y"]'):
        assert expected in source, (expected, source)
    unit = 'Literal["px", "em"] | ' + ("Annotated[str, Meta(min_length=2)]" if variant == "msgspec" else "str")
    assert unit in source, source
    if variant == "msgspec":
        _decodes_the_merged_literals(_imported(source, "union_docs_literals_msgspec"))


def _decodes_the_merged_literals(module: ModuleType) -> None:
    decode = msgspec.json.Decoder(module.Choice).decode
    choice = decode(b'{"side": "right", "size": "l", "level": 2, "mixed": 0, "unit": "em", "pick": "y"}')
    assert (choice.side, choice.size, choice.level, choice.mixed, choice.unit) == ("right", "l", 2, 0, "em")
    assert decode(b'{"unit": "rem"}').unit == "rem"  # the constrained `str` beside the literals
    for bad in ({"side": "up"}, {"level": 3}, {"mixed": "0"}, {"unit": "x"}, {"pick": "z"}):
        with pytest.raises(msgspec.ValidationError):
            decode(json.dumps(bad).encode())


def test_merged_literal_values_keep_their_order_and_their_type() -> None:
    union = ir.Union((ir.Literal((1,)), ir.Scalar("str"), ir.Literal((True, 1)), ir.Literal((2,)), ir.Null()))
    imports = Imports()
    assert annotation(union, imports, msgspec_rules.style) == "Literal[1, True, 2] | str | None"
    assert imports.lines(future=False) == ["from typing import Literal"]


def test_an_enum_class_beside_a_literal_is_one_literal_in_msgspec(tmp_path: Path) -> None:
    schema = {"type": "object", "properties": {"c": {"anyOf": [{"$ref": "#/$defs/Color"}, {"const": "x"}]}},
              "$defs": {"Color": {"enum": ["red", "green"]}}}
    path = tmp_path / "schema.json"
    path.write_text(json.dumps(schema))
    module = to_ir(Input("x", path, "schema.json"), tmp_path, Reporter())
    source = render.render(module, "msgspec", "schema.json", render.environment(), RenderOptions(enums="class"))
    assert 'c: Literal["red", "green", "x"] | UnsetType = UNSET' in source, source
