"""The intermediate representation: what a schema means, in no dialect and for no backend.

``nodes`` holds the node types (re-exported here: ``ir.Model``, ``ir.union``); ``walk`` reads and
rewrites types, ``values`` checks a JSON value against a type, ``dump`` writes a module as JSON.
This package imports nothing else of the generator, and only the standard library.
"""

from .nodes import (FORMATS, JSON, Alias, AnyType, Array, Constrained, Constraints, Declaration, Default, Field, Format,
                    Literal, LiteralValue, Map, Model, Module, Null, Origin, Ref, Scalar, ScalarKind, Tag, Tuple, Type,
                    Union, union)

__all__ = [
    "FORMATS", "JSON", "Alias", "AnyType", "Array", "Constrained", "Constraints", "Declaration", "Default", "Field",
    "Format", "Literal", "LiteralValue", "Map", "Model", "Module", "Null", "Origin", "Ref", "Scalar", "ScalarKind",
    "Tag", "Tuple", "Type", "Union", "union",
]
