"""The HTTP reference hook renders what openapi.yaml says: an operation under its tag with its
method, path, parameters, body, responses and examples, and each schema once."""
from __future__ import annotations

import importlib.util
from pathlib import Path

HOOK = Path(__file__).resolve().parents[2] / "docs" / "hooks" / "openapi_reference.py"
spec_loader = importlib.util.spec_from_file_location("openapi_reference", HOOK)
openapi_reference = importlib.util.module_from_spec(spec_loader)
spec_loader.loader.exec_module(openapi_reference)

SPEC = {
    "tags": [{"name": "scoring", "description": "Shows and piles"}],
    "paths": {"/v1/show/score": {"post": {
        "tags": ["scoring"], "operationId": "scoreShow", "summary": "Score a show",
        "parameters": [{"name": "Accept-Language", "in": "header", "schema": {"type": "string"},
                        "description": "en or es"}],
        "requestBody": {"required": True, "content": {"application/json": {
            "schema": {"$ref": "#/components/schemas/Show"}, "example": {"hand": ["5H"]}}}},
        "responses": {"422": {"description": "Not a card | or twice"}},
    }}},
    "components": {"schemas": {"Show": {
        "required": ["hand"],
        "properties": {"hand": {"type": "array", "items": {"type": "string"}},
                       "crib": {"type": "boolean", "description": "A crib"}}}}},
}


def test_an_operation_is_rendered_under_its_tag_and_its_schema_once():
    assert openapi_reference.render(SPEC).splitlines() == [
        "## Scoring", "", "Shows and piles", "",
        "### Score a show { #scoreShow }", "",
        "`POST /v1/show/score` · operationId `scoreShow`", "",
        "**Parameters**", "", "| name | in | type | required | description |",
        "| --- | --- | --- | --- | --- |",
        "| `Accept-Language` | header | string | no | en or es |", "",
        "**Request body** (required)", "",
        "`application/json`: [Show](#schema-show)", "",
        "```json", "{", '  "hand": [', '    "5H"', "  ]", "}", "```", "",
        "**Responses**", "",
        "- **422**: Not a card \\| or twice", "",
        "## Schemas", "",
        "### Show { #schema-show }", "",
        "| field | type | required | description |", "| --- | --- | --- | --- |",
        "| `hand` | array of string | yes |  |",
        "| `crib` | boolean | no | A crib |"]
