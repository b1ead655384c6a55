"""The Blueprint every API module uses: JSON bodies only, read defensively and quickly."""
from __future__ import annotations

import functools
import json

import flask_smorest
import marshmallow as ma
from flask import request
from webargs.core import is_json
from webargs.flaskparser import FlaskParser

from service.api.problems import Problem, validation_problem


def load_json_body(schema: ma.Schema):
    """The request body loaded by `schema`.

    Raises Problem: 415 for a body not declared JSON, 400 for unreadable JSON (bad syntax,
    bad UTF-8, absurd nesting), 422 naming each invalid field. An empty body is an empty
    object, so every required field is reported missing.
    """
    raw = request.get_data(cache=True)  # over MAX_CONTENT_LENGTH: werkzeug raises 413
    if not raw:
        data = {}
    elif not is_json(request.mimetype):
        raise Problem(415, "unsupported_media_type", "send application/json")
    else:
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError):
            raise Problem(400, "invalid_json", "invalid JSON") from None
    try:
        return schema.load(data)
    except ma.ValidationError as error:
        raise validation_problem(error.messages) from None


class JsonBodyParser(FlaskParser):
    """webargs' parser, except that JSON bodies go straight through `load_json_body`."""

    def use_args(self, argmap, req=None, *, location=None, **kwargs):
        if location != "json" or req is not None or kwargs:
            return super().use_args(argmap, req, location=location, **kwargs)
        schema = argmap() if isinstance(argmap, type) else argmap

        def decorator(view):
            @functools.wraps(view)
            def wrapper(*args, **view_kwargs):
                return view(*args, load_json_body(schema), **view_kwargs)
            return wrapper
        return decorator


class Blueprint(flask_smorest.Blueprint):
    ARGUMENTS_PARSER = JsonBodyParser()
