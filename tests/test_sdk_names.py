"""``names = "sdk"``: the rules the official SDKs name a spec's definitions by (``lower.sdk``,
``passes.naming``), each on a small spec; the default stays the schema's names.

The measure on a real spec and SDK is ``bench/sdk_names.py`` (the SDK is read there, never here).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from schemagen import ir
from schemagen.diagnostics import Reporter
from schemagen.names import Naming
from schemagen.project.inputs import Input
from schemagen.project.pipeline import to_ir

STRING = {"type": "string"}


def obj(**properties: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties}


def ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/{name}"}


def responding(name: str) -> dict[str, Any]:
    return {"responses": {"200": {"description": "ok", "content": {"application/json": {"schema": ref(name)}}}}}


def declared(tmp_path: Path, schemas: dict[str, Any], paths: dict[str, Any] | None = None,
             names: Naming = "sdk") -> dict[str, ir.Declaration]:
    path = tmp_path / "spec.json"
    path.write_text(json.dumps({"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": paths or {},
                                "components": {"schemas": schemas}}))
    module = to_ir(Input("spec", path, "spec.json", names=names), tmp_path, Reporter())
    return {d.name: d for d in module.declarations}


def test_the_response_side_of_request_response_twins_is_the_bare_name(tmp_path: Path) -> None:
    block = obj(text=STRING, citation=obj(url=STRING))
    schemas = {"RequestTextBlock": block, "ResponseTextBlock": block | {"description": "A block."},
               "BetaRequestCitation": obj(a=STRING), "BetaResponseCitation": obj(b=STRING),
               "CreateOrderRequest": obj(c=STRING), "CreateOrderResponse": obj(d=STRING)}
    named = declared(tmp_path, schemas)
    assert sorted(named) == ["BetaCitation", "BetaRequestCitation", "CreateOrderRequest", "CreateOrderResponse",
                             "RequestTextBlock", "RequestTextBlockCitation", "TextBlock", "TextBlockCitation"]
    assert named["TextBlock"].doc == "A block.\n\nThe schema's name: `ResponseTextBlock`."
    assert sorted(declared(tmp_path, schemas, names="schema")) == sorted(
        [*schemas, "RequestTextBlockCitation", "ResponseTextBlockCitation"])


def test_a_trailing_param_goes_from_what_a_response_reads_where_the_bare_name_is_free(tmp_path: Path) -> None:
    schemas = {"ChatParam": obj(tool=ref("WebSearchToolParam"), taken=ref("FilterParam")),
               "WebSearchToolParam": obj(a=STRING), "FilterParam": obj(b=STRING), "Filter": obj(c=STRING),
               "SentParam": obj(d=STRING)}
    paths = {"/chat": {"post": {"requestBody": {"content": {"application/json": {"schema": ref("SentParam")}}},
                                **responding("ChatParam")}}}
    assert sorted(declared(tmp_path, schemas, paths)) == ["Chat", "Filter", "FilterParam", "SentParam", "WebSearchTool"]


def test_without_operations_every_definition_may_be_read_and_two_claims_to_a_name_leave_both(tmp_path: Path) -> None:
    schemas = {"ToolParam": obj(a=STRING), "Tool_Param": obj(b=STRING), "ImageParam": obj(c=STRING)}
    assert sorted(declared(tmp_path, schemas)) == ["Image", "ToolParam", "Tool_Param"]


def test_a_word_spelt_two_ways_is_spelt_as_a_word_and_an_acronym_spelt_one_way_stays(tmp_path: Path) -> None:
    event = {"anyOf": [obj(type={"const": "done"}) | {"title": "ResponseMcpCallWsDone"}, obj(n={"type": "integer"})]}
    schemas = {"ResponseMCPCallDone": obj(a=STRING), "Event": event, "HTTPError": obj(b=STRING)}
    named = declared(tmp_path, schemas)
    assert {"ResponseMcpCallDone", "ResponseMcpCallWsDone", "HTTPError"} <= set(named)
    assert "ResponseMCPCallDone" in declared(tmp_path, schemas, names="schema")


@pytest.mark.parametrize("where", ["table", "input"])
def test_the_setting_is_read_for_the_project_and_for_one_input(tmp_path: Path, where: str) -> None:
    from schemagen.project.config import load
    from schemagen.project.inputs import discover

    (tmp_path / "schemas").mkdir()
    (tmp_path / "schemas" / "a.json").write_text(json.dumps({"title": "a", "type": "object"}))
    table = 'names = "sdk"\n' if where == "table" else '[[tool.schemagen.inputs]]\npath = "schemas/a.json"\nnames = "sdk"\n'
    (tmp_path / "pyproject.toml").write_text("[tool.schemagen]\n" + table)
    assert [i.names for i in discover(load(tmp_path))] == ["sdk"]
