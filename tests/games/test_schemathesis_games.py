"""A stateful schemathesis run over the games API, following the OpenAPI links
(create -> join -> read -> act -> events): every response must match the document."""

from __future__ import annotations

import re

import hypothesis
import schemathesis
from schemathesis.config import SchemathesisConfig
from schemathesis.specs.openapi.checks import positive_data_acceptance

from tests.games.conftest import make_app

POLL_CAP = 0.05  # seconds: long polls are real waits; the contract is the same with short ones
CONFIG = SchemathesisConfig.from_dict({
    "generation": {"mode": "all"},
    "checks": {
        # A schema-valid request can still be refused: by the rules (409), by a version that
        # moved on (412), or by what JSON Schema cannot say (422: teams that do not fit the
        # number of seats, a time limit without manual counting, a creator seat that is a
        # computer). An If-Match that is not a list of entity-tags is a 400 (invalid_if_match):
        # `validate_response` below lets that one through.
        "positive_data_acceptance": {
            "expected-statuses": ["2xx", "304", "401", "403", "404", "409", "412", "422"]},
    },
})
# RFC 9110: If-Match = "*" / #entity-tag, entity-tag = [ "W/" ] DQUOTE *etagc DQUOTE.
_ENTITY_TAG = r'\s*(?:W/)?"[\x21\x23-\x7e\x80-\xff]*"\s*'
IF_MATCH_LIST = re.compile(rf"\s*\*\s*|(?:{_ENTITY_TAG}|\s*)(?:,(?:{_ENTITY_TAG}|\s*))*")


def refused_if_match(response, case) -> bool:
    """A 400 invalid_if_match for an If-Match that is not "*" or a list of entity-tags: a
    refusal the document's plain string header cannot say."""
    if response.status_code != 400:
        return False
    try:
        code = response.json().get("code")
    except ValueError:
        return False
    header = {name.lower(): value for name, value in (case.headers or {}).items()}.get("if-match")
    return (code == "invalid_if_match" and isinstance(header, str)
            and not IF_MATCH_LIST.fullmatch(header))


def test_games_api_follows_its_openapi_links(store):
    schema = schemathesis.openapi.from_wsgi("/openapi.json", make_app(store, stream_seconds=0.2),
                                            config=CONFIG)
    schema = schema.include(path_regex="^/v1/games")
    tokens: dict[str, str] = {}

    @schema.auth(refresh_interval=None)
    class SeatToken:
        """The token a client keeps for each game it created or joined (the links carry it one
        step only: no later request or response holds it)."""

        def get(self, case, ctx):
            return tokens.get((case.path_parameters or {}).get("game_id"))

        def set(self, case, token, ctx):
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}

    class GamesStateMachine(schema.as_state_machine()):
        def setup(self):
            tokens.clear()

        def before_call(self, case):
            try:
                if float(case.query["wait"]) > POLL_CAP:
                    case.query["wait"] = POLL_CAP
            except (TypeError, KeyError, ValueError):
                pass  # no wait, or one the API refuses at once

        def validate_response(self, response, case, additional_checks=None, **kwargs):
            if refused_if_match(response, case):
                case.validate_response(response, additional_checks=additional_checks,
                                       excluded_checks=[positive_data_acceptance],
                                       transport_kwargs=kwargs)
                return
            super().validate_response(response, case, additional_checks, **kwargs)

        def after_call(self, response, case):
            super().after_call(response, case)
            if case.method == "POST" and response.status_code in (200, 201):
                body = response.json()
                if "token" in body:
                    tokens.setdefault(body["game_id"], body["token"])

    GamesStateMachine.run(settings=hypothesis.settings(
        max_examples=100,
        stateful_step_count=8,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(hypothesis.HealthCheck),
    ))
