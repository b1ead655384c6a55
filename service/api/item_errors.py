"""What is wrong with one item of a batch, or one field of a body, as plain data in a given
language: shared by the problems of a request (problems.py) and the batch jobs a compute
process runs (scoring/batches.py), so nothing here needs a request."""
from __future__ import annotations

import marshmallow as ma

from service.api.messages import problem_text, translate_errors
from service.errors import DomainError


def domain_params(error: DomainError, where: str | None) -> tuple[dict, dict]:
    """The params of the error's message, and the problem's `field` member, for the input at
    fault named `where`."""
    params = {**error.params, "field": error.field or ""}
    extra = {}
    if where:  # else a detail that starts with the field falls back to the error's own message
        params["where"] = where
        extra["field"] = where
    return params, extra


def item_problem(error: Exception, prefix: str, language: str) -> dict:
    """What is wrong with one item of a batch, `prefix` naming the item (`shows[3]`): its code,
    the field at fault and a detail in the request's language, worded as a whole request's
    problem would be. Only refusals: a DomainError or a marshmallow ValidationError."""
    if isinstance(error, ma.ValidationError):
        errors = translate_errors(flatten_messages(error.messages, prefix), language)
        _, detail = problem_text("validation_failed", language, {"fields": ", ".join(errors)},
                                 "invalid request")
        return {"code": "validation_failed", "field": next(iter(errors)), "detail": detail,
                "errors": errors}
    if not isinstance(error, DomainError):
        raise TypeError(f"not a refusal: {error!r}")
    where = f"{prefix}.{error.where}" if error.where else prefix
    params, extra = domain_params(error, where)
    _, detail = problem_text(error.code, language, params, str(error))
    return {"code": error.code, **extra, "detail": detail}


def flatten_messages(messages, prefix: str = "") -> dict[str, list[str]]:
    """marshmallow's nested messages as {"hand[0]": [...], "crib": [...]}; `_schema` is "body"."""
    if isinstance(messages, (list, tuple)):
        if all(isinstance(message, str) for message in messages):
            return {prefix or "body": list(messages)}
        flat: dict[str, list[str]] = {}
        for message in messages:
            flat.update(flatten_messages(message, prefix))
        return flat
    if not isinstance(messages, dict):
        return {prefix or "body": [str(messages)]}
    flat = {}
    for key, value in messages.items():
        if key == "_schema":
            name = prefix or "body"
        elif isinstance(key, int) or (isinstance(key, str) and key.isdigit()):
            name = f"{prefix}[{key}]"
        else:
            name = f"{prefix}.{key}" if prefix else str(key)
        for field, texts in flatten_messages(value, name).items():
            flat.setdefault(field, []).extend(texts)
    return flat
