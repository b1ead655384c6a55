"""The Blueprint every API module uses: JSON bodies only, read defensively."""
from __future__ import annotations

import json

import flask_smorest
from webargs import core
from webargs.flaskparser import FlaskParser

from service.api.problems import Problem


class JsonBodyParser(FlaskParser):
    """A body must be declared JSON (else 415) and be readable JSON (else 400)."""

    def _raw_load_json(self, req):
        if not req.get_data(cache=True):
            return core.missing  # an empty body: every required field is reported missing
        if not core.is_json(req.mimetype):
            raise Problem(415, "unsupported_media_type", "send application/json")
        try:
            return json.loads(req.get_data(cache=True))
        except (ValueError, RecursionError):  # bad JSON, bad UTF-8, absurd nesting
            raise Problem(400, "invalid_json", "invalid JSON") from None


class Blueprint(flask_smorest.Blueprint):
    ARGUMENTS_PARSER = JsonBodyParser()
