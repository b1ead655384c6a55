"""Orchestration probes and the trivial endpoint benchmarks compare against."""
from __future__ import annotations

import marshmallow as ma
from flask import current_app
from marshmallow import fields

from service.api.blueprint import Blueprint
from service.api.problems import Problem
from service.api.responses import document_errors, json_response

blp = Blueprint("health", __name__, description="Liveness, readiness and a trivial endpoint")


class PingSchema(ma.Schema):
    ok = fields.Boolean(required=True)


class HealthSchema(ma.Schema):
    status = fields.String(required=True, metadata={"example": "ok"})
    checks = fields.Dict(keys=fields.String(), values=fields.String(), metadata={
        "example": {"store": "ok"}})

READINESS_CHECKS = "cribbage.readiness"


def add_readiness_check(app, name: str, check) -> None:
    """Make /readyz also require `check()` to return true (or not raise)."""
    app.extensions.setdefault(READINESS_CHECKS, []).append((name, check))


@blp.route("/livez", methods=["GET"])
@blp.doc(operationId="livez")
@document_errors(blp, 500)
@blp.documented_response(200, HealthSchema, example={"status": "ok"})
def livez():
    """The process is alive

    Answers as long as the process serves requests; it checks nothing else."""
    return json_response({"status": "ok"})


@blp.route("/readyz", methods=["GET"])
@blp.doc(operationId="readyz")
@document_errors(blp, 500, 503)
@blp.documented_response(200, HealthSchema,
                         example={"status": "ready", "checks": {"store": "ok"}})
def readyz():
    """The service can take traffic

    503 while any readiness check fails, for example the game store: unreachable, or out of
    memory."""
    results = {}
    for name, check in current_app.extensions.get(READINESS_CHECKS, ()):
        try:
            results[name] = "ok" if check() else "failing"
        except Exception as error:  # a probe reports a failing dependency, it never fails itself
            current_app.logger.warning("readiness check %s failed: %s", name, error)
            results[name] = "failing"
    failing = [name for name, state in results.items() if state != "ok"]
    if failing:
        raise Problem(503, "not_ready", "not ready", failing=", ".join(failing),
                      extra={"errors": {name: ["failing"] for name in failing}})
    return json_response({"status": "ready", "checks": results})


@blp.route("/v1/ping", methods=["GET"])
@blp.doc(operationId="ping")
@document_errors(blp, 500)
@blp.documented_response(200, PingSchema, example={"ok": True})
def ping():
    """Trivial JSON response

    The benchmark baseline: the cheapest answer the service gives."""
    return json_response({"ok": True})
