"""The schemas an OpenAPI document's operations use (request bodies, JSON responses, webhooks) are
generated beside its components, named from the operation; ``openapi_scope`` chooses which parts are."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from schemagen import ir
from schemagen.diagnostics import Reporter
from schemagen.frontend.dialects.openapi import PARTS
from schemagen.project.config import OPENAPI_PARTS
from schemagen.project.inputs import Input
from schemagen.project.pipeline import to_ir
from test_cli import run
from test_cli_problems import configured, fails


def body(schema: dict[str, Any], media_type: str = "application/json") -> dict[str, Any]:
    return {"description": "a body", "content": {media_type: {"schema": schema}}}


OBJECT = {"type": "object", "properties": {"id": {"type": "integer"}}}
SHOP: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "Shop", "version": "1"},
    "paths": {
        "/menu/items": {"get": {"responses": {"200": body(OBJECT)}}},  # no operationId: method and path
        "/orders/{id}": {"get": {"operationId": "getOrder", "responses": {
            "200": body({"$ref": "#/components/schemas/Order"}),
            "404": body({"type": "object", "properties": {"title": {"type": "string"}}}, "application/problem+json"),
            "4XX": body(OBJECT, "application/json; charset=utf-8"),
            "default": {"$ref": "#/components/responses/Problem"},
            "204": {"description": "no body"},
        }}},
        "/orders": {"post": {"operationId": "create-order", "requestBody": body(OBJECT),
                             "responses": {"201": body({"$ref": "#/components/schemas/Order"}),
                                           "500": body({"type": "string"}, "text/plain")}}},
        "/other": {"$ref": "#/components/pathItems/Other"},
    },
    "webhooks": {"order_shipped": {"post": {"requestBody": body({"type": "object", "properties": {
        "order": {"$ref": "#/components/schemas/Order"}}})}}},
    "components": {
        "schemas": {"Order": {"type": "object", "properties": {"request": OBJECT}},
                    "CreateOrder": {"type": "object", "properties": {"request": OBJECT}}},
        "responses": {"Problem": body(OBJECT, "application/problem+json")},
        "pathItems": {"Other": {"put": {"operationId": "putOther", "responses": {"2XX": body(OBJECT)}}}},
    },
}


def lowered(tmp_path: Path, document: dict[str, Any], scope: tuple[str, ...] = PARTS) -> tuple[ir.Module, Reporter]:
    path = tmp_path / "shop.json"
    path.write_text(json.dumps(document))
    reporter = Reporter()
    return to_ir(Input("shop", path, "shop.json", openapi_scope=scope), tmp_path, reporter), reporter  # type: ignore[arg-type]


def origins(module: ir.Module) -> dict[str, str]:
    return {d.name: d.origin.pointer for d in module.declarations if d.origin is not None}


def test_inline_bodies_are_classes_named_from_the_operation_and_a_ref_is_the_component(tmp_path: Path) -> None:
    module, reporter = lowered(tmp_path, SHOP)
    assert origins(module) == {
        "Order": "/components/schemas/Order",
        "OrderRequest": "/components/schemas/Order/properties/request",
        "CreateOrder": "/components/schemas/CreateOrder",
        "CreateOrderRequest": "/components/schemas/CreateOrder/properties/request",  # the component's, as before
        "GetMenuItemsResponse": "/paths/~1menu~1items/get/responses/200/content/application~1json/schema",
        "GetOrderResponse404": "/paths/~1orders~1{id}/get/responses/404/content/application~1problem+json/schema",
        "GetOrderResponse4XX": "/paths/~1orders~1{id}/get/responses/4XX/content/application~1json; charset=utf-8/schema",
        "ProblemResponse": "/components/responses/Problem/content/application~1problem+json/schema",
        "CreateOrderRequestBody": "/paths/~1orders/post/requestBody/content/application~1json/schema",
        "PutOtherResponse": "/components/pathItems/Other/put/responses/2XX/content/application~1json/schema",
        "PostOrderShippedRequest": "/webhooks/order_shipped/post/requestBody/content/application~1json/schema",
    }
    assert not reporter.warnings


def test_components_are_what_they_were_without_the_operations(tmp_path: Path) -> None:
    both, _ = lowered(tmp_path, SHOP)
    alone, _ = lowered(tmp_path, SHOP, ("schemas",))
    assert {d.name for d in alone.declarations} == {"Order", "OrderRequest", "CreateOrder", "CreateOrderRequest"}
    by_name = {d.name: d for d in both.declarations}
    assert all(by_name[d.name] == d for d in alone.declarations)


def test_operations_alone_keep_the_components_they_use(tmp_path: Path) -> None:
    module, _ = lowered(tmp_path, SHOP, ("operations",))
    names = [d.name for d in module.declarations]
    assert "Order" in names and "CreateOrder" not in names and "GetMenuItemsResponse" in names


def test_a_document_that_declares_nothing_is_a_warning_naming_the_file(tmp_path: Path) -> None:
    document = {**SHOP, "components": {}, "paths": {"/a": {"get": {"responses": {"200": body({}, "text/plain")}}}}}
    del document["webhooks"]
    module, reporter = lowered(tmp_path, document)
    assert module.declarations == ()
    assert [str(w) for w in reporter.warnings] == [
        "warning: shop.json: #: declares nothing: its modules are empty - an OpenAPI document's classes are its "
        "components.schemas and the JSON bodies of its operations (as openapi_scope says)"]


def split(tmp_path: Path, files: dict[str, Any]) -> Path:
    """A split project in ``tmp_path/schemas`` (``openapi.json`` its root): the file name → its value."""
    for name, value in files.items():
        (tmp_path / "schemas" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "schemas" / name).write_text(json.dumps(value))
    return tmp_path / "schemas" / "openapi.json"


def split_ir(tmp_path: Path, files: dict[str, Any]) -> tuple[ir.Module, Reporter]:
    path = split(tmp_path, files)
    reporter = Reporter()
    return to_ir(Input("shop", path, "schemas/openapi.json"), tmp_path, reporter), reporter


def root(paths: dict[str, Any], **components: Any) -> dict[str, Any]:
    return {"openapi": "3.1.0", "info": SHOP["info"], "paths": paths, "components": components}


ONE_INPUT = '[tool.schemagen]\n[[tool.schemagen.inputs]]\npath = "schemas/openapi.json"\n'
PROBLEM = {"allOf": [{"$ref": "../schemas/Problem.json"},
                     {"type": "object", "properties": {"id": {"$ref": "#/$defs/Id"}}}]}


def test_a_path_item_in_another_file_gives_its_bodies_which_refer_from_where_they_are(tmp_path: Path) -> None:
    """A split project: ``paths/*.json`` refer to ``schemas/*.json`` from where they are, and to a
    response kept as a file of its own; the root names the files."""
    module, reporter = split_ir(tmp_path, {
        "openapi.json": root({"/pets": {"$ref": "./paths/pets.json"}, "/pets/{id}": {"$ref": "paths/pet.json#/item"}},
                             responses={"Gone": body({"type": "object", "properties": {"at": {"type": "string"}}})}),
        "paths/pets.json": {"get": {"operationId": "listPets", "responses": {
            "200": body({"type": "array", "items": {"$ref": "../schemas/Pet.json"}}),
            "404": {"$ref": "../responses/NotFound.json"},
            "410": {"$ref": "../openapi.json#/components/responses/Gone"}}}},
        "paths/pet.json": {"item": {"get": {"responses": {"200": body({"$ref": "../schemas/Pet.json"}),
                                                          "404": {"$ref": "../responses/NotFound.json"}}}}},
        "responses/NotFound.json": {"$defs": {"Id": {"type": "string"}},
                                    **body(PROBLEM, "application/problem+json")},
        "schemas/Pet.json": {"title": "Pet", "type": "object", "properties": {"name": {"type": "string"}}},
        "schemas/Problem.json": {"title": "Problem", "type": "object", "properties": {"title": {"type": "string"}}},
    })
    assert not reporter.warnings
    assert {d.name: (d.origin.path, d.origin.pointer) for d in module.declarations if d.origin} == {
        "ListPetsResponse": ("schemas/paths/pets.json", "/get/responses/200/content/application~1json/schema"),
        "NotFoundResponse": ("schemas/responses/NotFound.json", "/content/application~1problem+json/schema"),
        "GoneResponse": ("schemas/openapi.json", "/components/responses/Gone/content/application~1json/schema"),
        "Pet": ("schemas/schemas/Pet.json", ""),
        "Id": ("schemas/responses/NotFound.json", "/$defs/Id"),
    }
    [found] = [d for d in module.declarations if d.name == "NotFoundResponse"]
    assert isinstance(found, ir.Model)
    assert [(f.wire_name, f.type) for f in found.fields] == [("title", ir.Scalar("str")), ("id", ir.Ref("Id"))]


def test_a_cycle_of_path_item_references_across_files_ends(tmp_path: Path) -> None:
    module, reporter = split_ir(tmp_path, {"openapi.json": root({"/a": {"$ref": "a.json"}}),
                                           "a.json": {"$ref": "b.json"}, "b.json": {"$ref": "./a.json"}})
    assert module.declarations == ()
    assert [w.message for w in reporter.warnings] == ["declares nothing: its modules are empty"]


@pytest.mark.parametrize(("ref", "said"), [
    ("paths/missing.json", "#/paths/~1a/$ref: no file 'schemas/paths/missing.json' - fix the reference"),
    ("../../outside.json", "#/paths/~1a/$ref: '../outside.json' is outside the schema "
                           "folder: it is not read - vendor it into the schema folder"),
])
def test_a_path_item_file_that_is_not_read_is_a_located_error(tmp_path: Path, ref: str, said: str) -> None:
    split(tmp_path, {"openapi.json": root({"/a": {"$ref": ref}})})
    (tmp_path / "outside.json").write_text("{}")
    (tmp_path / "pyproject.toml").write_text(ONE_INPUT)
    assert said in fails(tmp_path)


def test_a_broken_path_item_file_is_reported_with_the_other_problems(tmp_path: Path) -> None:
    split(tmp_path, {"openapi.json": root({"/a": {"$ref": "a.json"}, "/b": {"$ref": "b.json"}})})
    (tmp_path / "schemas" / "a.json").write_text('{"get": ')
    (tmp_path / "pyproject.toml").write_text(ONE_INPUT)
    err = fails(tmp_path)
    assert "schemas/a.json:1:9" in err and "no file 'schemas/b.json'" in err


@pytest.mark.parametrize(("ref", "said"), [
    ("https://example.com/paths.json", "'https://example.com/paths.json' is no file of the schema folder: "
                                       "the bodies it holds are not generated"),
    ("#/components/pathItems/Nothing", "'#/components/pathItems/Nothing' names nothing: the bodies it would hold are not generated"),
    ("other.json#anchor", "'other.json#anchor' names nothing: the bodies it would hold are not generated"),
])
def test_a_path_item_reference_that_finds_nothing_is_a_warning(tmp_path: Path, ref: str, said: str) -> None:
    _, reporter = split_ir(tmp_path, {"openapi.json": root({"/a": {"$ref": ref}}, schemas={"A": {"type": "string"}}),
                                      "other.json": {}})
    assert [(w.location.pointer, w.message) for w in reporter.warnings] == [("/paths/~1a/$ref", said)]


def test_the_parts_are_the_same_in_config_and_dialect() -> None:
    assert OPENAPI_PARTS == PARTS


def test_the_setting_per_project_and_per_input(tmp_path: Path) -> None:
    (tmp_path / "schemas").mkdir()
    (tmp_path / "schemas" / "shop.json").write_text(json.dumps(SHOP))
    (tmp_path / "schemas" / "mine.json").write_text(json.dumps(SHOP))
    (tmp_path / "pyproject.toml").write_text('[tool.schemagen]\nopenapi_scope = ["schemas"]\n'
                                             '[[tool.schemagen.inputs]]\npath = "schemas/shop.json"\n'
                                             '[[tool.schemagen.inputs]]\npath = "schemas/mine.json"\n'
                                             'openapi_scope = ["operations", "schemas"]\n')
    result = run(tmp_path, "generate")
    assert result.returncode == 0, result.stderr
    assert "GetMenuItemsResponse" not in (tmp_path / "generated" / "shop" / "msgspec_models.py").read_text()
    assert "class GetMenuItemsResponse(" in (tmp_path / "generated" / "mine" / "msgspec_models.py").read_text()


@pytest.mark.parametrize(("settings", "said"), [
    ('openapi_scope = ["schemas", "operation"]\n', "pyproject.toml:2:29: #/tool/schemagen/openapi_scope/1: "
     "'operation' is not a part of an OpenAPI document; expected one of: schemas, operations - did you mean "
     "'operations'?"),
    ("openapi_scope = []\n", "pyproject.toml:2:1: #/tool/schemagen/openapi_scope: must be a non-empty list of: "
     "schemas, operations, not []"),
    ('[[tool.schemagen.inputs]]\npath = "schemas/a.json"\nopenapi_scope = "schemas"\n',
     "pyproject.toml:4:1: #/tool/schemagen/inputs/0/openapi_scope: must be a non-empty list of: schemas, "
     "operations, not 'schemas' - did you mean 'schemas'?"),
])
def test_a_bad_scope_names_the_value_at_its_line_and_column(tmp_path: Path, settings: str, said: str) -> None:
    assert fails(configured(tmp_path, "[tool.schemagen]\n" + settings)) == said + "\n"


@pytest.mark.parametrize("dialect", ["openapi", "jsonschema"])
def test_a_write_only_property_is_not_required_and_a_read_only_one_is_as_written(tmp_path: Path, dialect: str) -> None:
    """Classes are read as response bodies: a ``writeOnly`` property is never returned."""
    user = {"type": "object", "required": ["id", "password"],
            "properties": {"id": {"type": "integer", "readOnly": True}, "password": {"type": "string", "writeOnly": True}}}
    document: dict[str, Any] = {"openapi": "3.0.3", "info": SHOP["info"], "paths": {},
                                "components": {"schemas": {"User": user}}} if dialect == "openapi" else {"$defs": {"User": user}}
    module, _ = lowered(tmp_path, document)
    [model] = [d for d in module.declarations if isinstance(d, ir.Model)]
    assert [(f.wire_name, f.required) for f in model.fields] == [("id", True), ("password", False)]
