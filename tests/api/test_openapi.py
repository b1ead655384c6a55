"""The committed openapi.yaml is what the code generates, and every operation is documented."""
from pathlib import Path

import pytest
import yaml
from openapi_schema_validator import OAS30Validator
from openapi_spec_validator import validate

from service.api.openapi import openapi_yaml
from tests.refusals import REFUSALS

COMMITTED = Path(__file__).resolve().parents[2] / "openapi.yaml"


@pytest.fixture(scope="module")
def spec():
    return yaml.safe_load(openapi_yaml())


def test_committed_openapi_is_up_to_date():
    assert COMMITTED.read_text() == openapi_yaml(), (
        "openapi.yaml is out of date: run `.venv/bin/python -m service.api.openapi > "
        "openapi.yaml.new && mv openapi.yaml.new openapi.yaml`")


def test_document_is_valid_openapi(spec):
    validate(spec)


def operations(spec):
    for path, methods in spec["paths"].items():
        for method, operation in methods.items():
            if method != "parameters":
                yield f"{method.upper()} {path}", operation


def success_content(operation) -> dict | None:
    """The content of the first success response: JSON, or the stream's text/event-stream;
    None for a 204, which has none."""
    status = min(status for status in operation["responses"] if status.startswith("2"))
    if status == "204":
        return None
    (content,) = operation["responses"][status]["content"].values()
    return content


def test_every_operation_has_an_id_examples_and_problem_errors(spec):
    ids = set()
    for name, operation in operations(spec):
        assert operation.get("operationId"), name
        ids.add(operation["operationId"])
        success = success_content(operation)
        assert success is None or "example" in success or "examples" in success, name
        if "requestBody" in operation:
            body = operation["requestBody"]["content"]["application/json"]
            assert "example" in body or "examples" in body, name
        errors = {status: response for status, response in operation["responses"].items()
                  if int(status) >= 400}
        assert errors, name
        for response in errors.values():
            problem = response["content"]["application/problem+json"]
            assert problem["schema"] == {"$ref": "#/components/schemas/Problem"}
            assert "example" in problem
    assert len(ids) == len(list(operations(spec)))


SCORING = ("/livez", "/readyz", "/v1/ping", "/v1/show/", "/v1/pegging/")


def test_request_examples_give_the_documented_responses(spec, client):
    """For the stateless operations: the examples are true."""
    for name, operation in operations(spec):
        method, path = name.split(" ")
        if not path.startswith(SCORING) or path.endswith(".svg"):  # tests/api/test_images.py
            continue
        success = success_content(operation)
        if "requestBody" not in operation:
            assert client.get(path).get_json() == success["example"], name
            continue
        body = operation["requestBody"]["content"]["application/json"]
        requests = ([body["example"]] if "example" in body else
                    [example["value"] for example in body["examples"].values()])
        responses = [client.post(path, json=request) for request in requests]
        assert all(response.status_code == 200 for response in responses), name
        assert success["example"] in [response.get_json() for response in responses], name


def examples(node, where: str = ""):
    """(where, example, schema) for every example in the document: of media types and
    parameters (under their `schema`), and of schemas and their properties."""
    if isinstance(node, list):
        for index, item in enumerate(node):
            yield from examples(item, f"{where}/{index}")
        return
    if not isinstance(node, dict):
        return
    if "schema" in node:
        for name, value in node.get("examples", {}).items():
            yield f"{where}/examples/{name}", value["value"], node["schema"]
        if "example" in node:
            yield f"{where}/example", node["example"], node["schema"]
    elif "example" in node and ("type" in node or "$ref" in node):
        yield f"{where}/example", node["example"], node
    for key, value in node.items():
        if key not in ("example", "examples"):
            yield from examples(value, f"{where}/{key}")


def test_every_example_follows_its_schema(spec):
    """Request, response and problem examples alike (a problem example lacking its title or
    detail would not)."""
    found = list(examples(spec))
    assert len(found) > 100
    for where, example, schema in found:
        validator = OAS30Validator({**schema, "components": spec["components"]})
        assert not [error.message for error in validator.iter_errors(example)], where


def test_the_refusals_schemathesis_accepts_are_the_documented_ones(spec):
    """tests/refusals.py lets schemathesis accept a refusal of a request that follows the
    schema only where the document names it: its status, each code in its description."""
    by_id = {operation["operationId"]: operation for _, operation in operations(spec)}
    for operation_id, statuses in REFUSALS.items():
        for status, codes in statuses.items():
            description = by_id[operation_id]["responses"][str(status)]["description"]
            for code in codes or ():
                assert code in description, (operation_id, status, code)
