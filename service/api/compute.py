"""The compute tier in HTTP: whom an analysis is charged to, the `cpu` policy in the RateLimit
headers, and the 429 and 503 answers of the operations that run searches."""
from __future__ import annotations

import copy

from flask import Flask, Response, current_app, request

from service.api.limits import token_key
from service.api.problems import PROBLEM_MEDIA_TYPE
from service.api.responses import problem_example
from service.compute import ComputeTier
from service.compute.budget import WINDOW

EXTENSION = "cribbage.compute"
# Operations charged the CPU of their searches to the client (its bearer token, else address).
CHARGED_ENDPOINTS = frozenset({"analysis.discard_analysis", "analysis.play_analysis",
                               "analysis.position_analysis", "games.get_game_analysis"})
CHARGED_PATHS = frozenset({"/v1/analysis/discard", "/v1/analysis/play",
                           "/v1/analysis/position", "/v1/games/{game_id}/analysis"})


def init_app(app: Flask, tier: ComputeTier) -> None:
    app.extensions[EXTENSION] = tier
    app.after_request(_cpu_headers)


def compute() -> ComputeTier:
    return current_app.extensions[EXTENSION]


def cpu_client() -> str:
    """Whom the request's searches are charged to: its bearer token's digest, else its
    address (the same keys as the request rate limits)."""
    return token_key()


def _cpu_headers(response: Response) -> Response:
    """Add the `cpu` policy (milliseconds of compute CPU a minute) to the RateLimit headers
    of a charged operation."""
    tier: ComputeTier | None = current_app.extensions.get(EXTENSION)
    if tier is None or tier.budget is None or request.endpoint not in CHARGED_ENDPOINTS:
        return response
    try:
        state = tier.budget.state(cpu_client())
    except Exception:  # the counters' store failed: answer without the headers
        return response
    policy = f'"cpu";q={state.budget_ms};w={WINDOW}'
    standing = f'"cpu";r={state.remaining_ms};t={state.reset_in}'
    for name, value in (("RateLimit-Policy", policy), ("RateLimit", standing)):
        current = response.headers.get(name)
        response.headers[name] = f"{current}, {value}" if current else value
    return response


def _problem(status: int, code: str, description: str, params: dict) -> dict:
    return {"description": description,
            "headers": {"Retry-After": {"description": "Seconds to wait before retrying",
                                        "schema": {"type": "integer"}}},
            "content": {PROBLEM_MEDIA_TYPE: {"schema": {"$ref": "#/components/schemas/Problem"},
                                             "example": problem_example(status, code, params)}}}


BUDGET_SPENT = _problem(
    429, "cpu_budget_exhausted",
    "Too many requests (rate_limited), or this client's CPU budget for analyses is spent for "
    "the minute (cpu_budget_exhausted: the `cpu` policy of the RateLimit headers counts "
    "milliseconds of compute CPU); retry after Retry-After seconds",
    {"budget_ms": 10000, "window": WINDOW, "retry_after": 42})
COMPUTE_BUSY = _problem(
    503, "compute_busy",
    "The compute tier's queue for analyses is full (compute_busy), no compute process "
    "answered in time (compute_unavailable), or the game store is unavailable; retry after "
    "Retry-After seconds",
    {"retry_after": 1})


def document(app: Flask) -> None:
    """Document the 429 of a spent CPU budget and the 503 of a busy compute tier on the
    charged operations (after limits.init_app has documented the request limits' 429)."""
    spec = app.extensions["cribbage.api"].spec
    for path, operations in spec._paths.items():
        if path not in CHARGED_PATHS:
            continue
        for operation in operations.values():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            responses = operation["responses"]
            rate_limit_headers = {name: header for name, header in
                                  responses.get("429", {}).get("headers", {}).items()
                                  if name.startswith("RateLimit")}
            for status, problem in (("429", BUDGET_SPENT), ("503", COMPUTE_BUSY)):
                documented = copy.deepcopy(problem)
                documented["headers"].update(copy.deepcopy(rate_limit_headers))
                if status in responses and "headers" in responses[status]:
                    documented["headers"] = {**copy.deepcopy(responses[status]["headers"]),
                                             **copy.deepcopy(rate_limit_headers)}
                responses[status] = documented
