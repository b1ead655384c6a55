"""The HTTP reference page, made from openapi.yaml each time the site is built.

`docs/reference/http.md` holds the page's introduction and the marker below; this hook replaces
the marker with every operation, grouped by tag in the document's order: its method and path,
summary, description, parameters, request body, responses with their schemas and examples.
Component schemas follow, each once, linked from wherever they are used. `mkdocs serve` watches
openapi.yaml, so the page changes when the document does.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

MARKER = "<!-- openapi-reference -->"
PAGE = "reference/http.md"
METHODS = ("get", "post", "put", "patch", "delete")
SPEC = Path(__file__).resolve().parents[2] / "openapi.yaml"


def on_config(config):
    config["watch"].append(str(SPEC))
    return config


def on_page_markdown(markdown: str, page, config, files) -> str:
    if page.file.src_uri != PAGE:
        return markdown
    spec = yaml.safe_load(SPEC.read_text(encoding="utf-8"))
    return markdown.replace(MARKER, render(spec))


def render(spec: dict[str, Any]) -> str:
    """The reference of `spec` (an OpenAPI 3.1 document) as Markdown."""
    operations: dict[str, list[tuple[str, str, dict, list]]] = {}
    for path, item in spec["paths"].items():
        shared = item.get("parameters", [])
        for method in METHODS:
            if method in item:
                operation = item[method]
                tag = (operation.get("tags") or ["other"])[0]
                operations.setdefault(tag, []).append((method, path, operation, shared))
    tags = [tag["name"] for tag in spec.get("tags", [])]
    tags += [tag for tag in operations if tag not in tags]
    descriptions = {tag["name"]: tag.get("description", "") for tag in spec.get("tags", [])}
    lines: list[str] = []
    for tag in tags:
        if tag not in operations:
            continue
        lines += [f"## {tag.capitalize()}", "", descriptions.get(tag, ""), ""]
        for method, path, operation, shared in operations[tag]:
            lines += _operation(spec, method, path, operation, shared)
    lines += ["## Schemas", ""]
    for name, schema in spec["components"]["schemas"].items():
        lines += [f"### {name} {{ #schema-{name.lower()} }}", ""]
        lines += _schema(schema)
    return "\n".join(lines)


def _operation(spec, method: str, path: str, operation: dict, shared: list) -> list[str]:
    lines = [f"### {operation.get('summary') or path} {{ #{operation['operationId']} }}", "",
             f"`{method.upper()} {path}` · operationId `{operation['operationId']}`", ""]
    if operation.get("description"):
        lines += [operation["description"].strip(), ""]
    parameters = [_resolve(spec, parameter)
                  for parameter in [*shared, *operation.get("parameters", [])]]
    if parameters:
        lines += ["**Parameters**", "", "| name | in | type | required | description |",
                  "| --- | --- | --- | --- | --- |"]
        for parameter in parameters:
            lines.append(f"| `{parameter['name']}` | {parameter['in']} | "
                         f"{_type(parameter.get('schema', {}))} | "
                         f"{'yes' if parameter.get('required') else 'no'} | "
                         f"{_cell(parameter.get('description', ''))} |")
        lines.append("")
    body = operation.get("requestBody")
    if body:
        lines += ["**Request body**" + (" (required)" if body.get("required") else ""), ""]
        lines += _content(body.get("content", {}))
    lines += ["**Responses**", ""]
    for status, response in operation.get("responses", {}).items():
        response = _resolve(spec, response)
        lines += [f"- **{status}**: {_cell(response.get('description', ''))}"]
        lines += ["    " + line if line else "" for line in _content(response.get("content", {}))]
    lines.append("")
    return lines


def _content(content: dict) -> list[str]:
    lines: list[str] = []
    for media_type, entry in content.items():
        schema = entry.get("schema")
        lines += [f"`{media_type}`" + (f": {_type(schema)}" if schema else ""), ""]
        examples = [entry["example"]] if "example" in entry else [
            example.get("value") for example in entry.get("examples", {}).values()]
        for example in examples:
            if example is None:
                continue
            text = example if isinstance(example, str) else json.dumps(
                example, indent=2, ensure_ascii=False)
            lines += ["```json" if not isinstance(example, str) else "```text",
                      *text.splitlines(), "```", ""]
    return lines


def _schema(schema: dict) -> list[str]:
    lines: list[str] = []
    if schema.get("description"):
        lines += [schema["description"].strip(), ""]
    for key in ("oneOf", "anyOf", "allOf"):
        if key in schema:
            lines += [f"{key}: " + ", ".join(_type(item) for item in schema[key]), ""]
    properties = schema.get("properties")
    if properties:
        required = set(schema.get("required", []))
        lines += ["| field | type | required | description |", "| --- | --- | --- | --- |"]
        for name, field in properties.items():
            lines.append(f"| `{name}` | {_type(field)} | {'yes' if name in required else 'no'} "
                         f"| {_cell(field.get('description', ''))} |")
        lines.append("")
    elif not any(key in schema for key in ("oneOf", "anyOf", "allOf")):
        lines += [f"Type: {_type(schema)}", ""]
    return lines


def _type(schema: dict) -> str:
    """A schema's type in a few words, a component by a link to its section."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return f"[{name}](#schema-{name.lower()})"
    for key in ("oneOf", "anyOf", "allOf"):
        if key in schema:
            return " or ".join(_type(item) for item in schema[key])
    kind = schema.get("type", "any")
    if isinstance(kind, list):
        kind = " or ".join(kind)
    if kind == "array" or "items" in schema:
        return f"array of {_type(schema.get('items', {}))}"
    if "enum" in schema:
        return f"{kind}, one of " + ", ".join(f"`{value}`" for value in schema["enum"])
    if schema.get("format"):
        return f"{kind} ({schema['format']})"
    return kind


def _resolve(spec: dict, item: dict) -> dict:
    while "$ref" in item:
        section, name = item["$ref"].split("/")[-2:]
        item = spec["components"][section][name]
    return item


def _cell(text: str) -> str:
    """Text for one table cell or list line: no line breaks, no stray pipes."""
    return " ".join(text.split()).replace("|", "\\|")
