"""Print the OpenAPI document as YAML: `python -m service.api.openapi > openapi.yaml`."""
from __future__ import annotations

import sys

import yaml

from service.api import create_app
from service.config import Settings


def openapi_yaml() -> str:
    app = create_app({"SETTINGS": Settings()})
    spec = app.extensions["cribbage.api"].spec.to_dict()
    for operations in spec["paths"].values():
        for method, operation in operations.items():
            if method == "parameters":
                continue
            operation["responses"] = dict(sorted(operation["responses"].items()))
    first = ("openapi", "info", "servers", "security", "tags", "paths", "components")
    ordered = {key: spec[key] for key in first if key in spec}
    ordered.update((key, value) for key, value in spec.items() if key not in ordered)
    return yaml.safe_dump(ordered, sort_keys=False, allow_unicode=True, width=100)


if __name__ == "__main__":
    sys.stdout.write(openapi_yaml())
