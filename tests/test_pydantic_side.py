"""bench/pydantic_side.py's counts of a pydantic module (``make bench`` prints them for OpenAI's description,
schemagen's module beside datamodel-code-generator's), on a small module: what a copy, a twin, a numbered and
a positional name are, and what the schema names."""

from __future__ import annotations

from conftest import bench_module

SIDE = bench_module("pydantic_side")

MODULE = '''from __future__ import annotations

from enum import Enum

from pydantic import BaseModel, RootModel


class Pet(BaseModel):
    name: str


class Owner(BaseModel):
    pet: Pet1
    kind: Type1 | None = None


class Pet1(BaseModel):
    name: str


class Type(Enum):
    dog = "dog"


class Type1(Enum):
    dog = "dog"


class Type2(Enum):
    dog = "dog"


class Tags(RootModel[list[str]]):
    root: list[str]


class OwnerOption1(BaseModel):
    age: int


class BetaTag2(BaseModel):
    name: str


Either = Pet | Owner
'''


def test_the_schema_names_are_its_components_without_what_a_name_cannot_hold() -> None:
    assert SIDE.schema_names(["Pet", "Beta_Tag-2"]) == {"Pet", "BetaTag2"}


def test_copies_twins_numbered_and_positional_names_are_counted_among_invented_classes() -> None:
    found = SIDE.structure(MODULE, SIDE.schema_names(["Pet", "Owner", "Tags", "Beta_Tag-2"]))
    assert (found.classes, found.root_models, found.enums, found.aliases) == (9, 1, 3, 1)
    assert found.copies == ["Pet1"]  # the text of Pet, which the schema names (BetaTag2 is named too)
    assert found.twins == ["Type1", "Type2"]  # the text of Type, which it does not
    assert found.numbered == ["Pet1", "Type1", "Type2", "OwnerOption1"]
    assert found.positional == ["OwnerOption1"]
