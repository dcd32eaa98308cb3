"""The pydantic variant's own rules, at run time: what a field that may be absent reads, against the same
type in a required field (the agreement with msgspec on payloads: tests/test_pydantic_agreement.py)."""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import msgspec
import pydantic
import pytest

from conftest import bench_module
from schemagen.diagnostics import Reporter
from schemagen.project.inputs import Input
from schemagen.project.pipeline import Renderer, to_ir
from schemagen.render.options import RenderOptions

modules = bench_module("modules")
RENDERER = Renderer(None, RenderOptions())
DRAFT = "https://json-schema.org/draft/2020-12/schema"


@pytest.fixture
def generated(tmp_path: Path) -> Iterator[Any]:
    """Renders a JSON Schema document (``title`` the root class) as one variant and imports it."""
    made: list[ModuleType] = []

    def make(schema: dict[str, Any], variant: str = "pydantic") -> ModuleType:
        path = tmp_path / "case.json"
        path.write_text(json.dumps({"$schema": DRAFT, **schema}))
        module = to_ir(Input("case", path, path.name, "jsonschema"), tmp_path, Reporter())
        made.append(modules.exec_module(RENDERER.render(module, variant, "case"), "case"))
        return made[-1]

    yield make
    for module in made:
        modules.forget_module(module)


MOMENTS = {"anyOf": [{"type": "string", "format": "date-time"}, {"type": "string", "format": "date"}]}


@pytest.mark.parametrize(("text", "kind"), [("2086-05-17", datetime.date), ("2086-05-17T01:00:00", datetime.datetime)])
def test_a_field_that_may_be_absent_reads_a_union_as_a_required_one_does(generated: Any, text: str,
                                                                         kind: type) -> None:
    """``Omittable`` refuses null after the union has read the JSON value: a validator before it handed the
    union the parsed string in Python mode, where pydantic's smart mode took a day for a ``datetime``."""
    module = generated({"title": "Case", "type": "object", "required": ["present"],
                              "properties": {"present": MOMENTS, "optional": MOMENTS}})
    read = module.Case.model_validate_json(json.dumps({"present": text, "optional": text}))
    assert type(read.present) is kind and type(read.optional) is kind
    assert read.model_dump(mode="json", exclude_unset=True) == {"present": text, "optional": text}


def test_a_field_that_may_be_absent_refuses_null_and_keeps_absent_apart(generated: Any) -> None:
    module = generated({"title": "Case", "type": "object", "properties": {"n": {"type": "integer"}}})
    assert module.Case.model_validate_json("{}").model_fields_set == set()
    with pytest.raises(pydantic.ValidationError, match="null is not allowed here"):
        module.Case.model_validate_json('{"n": null}')


FORMATS = {"title": "Case", "type": "object", "properties": {"format": {"$ref": "#/$defs/Format"}},
           "$defs": {"Format": {"anyOf": [
               {"type": "object", "properties": {"type": {"type": "string", "enum": ["audio/pcm"]},
                                                 "rate": {"type": "integer"}}},
               {"type": "object", "properties": {"type": {"type": "string", "enum": ["audio/pcmu"]}}}]}}}
"""OpenAI's ``RealtimeAudioFormats``: a union tagged by ``type``, which no member requires."""


@pytest.mark.parametrize("payload", [{"format": {}}, {"format": {"rate": 1}}, {"format": {"type": "audio/pcmu"}},
                                     {"format": {"type": "audio/pcm", "rate": 1}}, {"format": {"type": "x"}}])
def test_a_tag_the_schema_does_not_require_is_needed_in_the_union_as_msgspec_needs_it(generated: Any,
                                                                                       payload: Any) -> None:
    """The union is told apart by the tag (it was read in smart mode: ``{}`` as its first member)."""
    ms, py = generated(FORMATS, "msgspec"), generated(FORMATS)
    try:
        expected = msgspec.to_builtins(msgspec.json.decode(json.dumps(payload), type=ms.Case))
    except msgspec.ValidationError:
        with pytest.raises(pydantic.ValidationError):
            py.Case.model_validate_json(json.dumps(payload))
    else:
        assert py.Case.model_validate_json(json.dumps(payload)).model_dump(mode="json", exclude_unset=True) == expected


def test_a_tag_the_schema_does_not_require_is_the_class_own_when_it_is_read_alone(generated: Any) -> None:
    """As msgspec reads a tagged class on its own: an absent tag is its own (it was ``None``)."""
    ms, py = generated(FORMATS, "msgspec"), generated(FORMATS)
    for name in ("FormatAudioPcm", "FormatAudioPcmu"):
        expected = msgspec.to_builtins(msgspec.json.decode(b"{}", type=getattr(ms, name)))
        read = getattr(py, name).model_validate_json(b"{}")
        assert read.model_dump(mode="json", exclude_none=True) == expected and read.model_fields_set == set()
