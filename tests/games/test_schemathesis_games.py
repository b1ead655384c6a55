"""A stateful schemathesis run over the games API, following the OpenAPI links
(create -> join -> read -> act -> events), every check: every response must match the document,
and a request that follows its schema is refused only as documented (tests/refusals.py)."""

from __future__ import annotations

import hypothesis
import schemathesis

from tests.games.conftest import make_app
from tests.refusals import config

POLL_CAP = 0.05  # seconds: long polls are real waits; the contract is the same with short ones
# The run creates games in one store from one address, example after example: with a cap on
# live games, a late example would be refused where an early one was not (hypothesis then
# calls the run flaky). The cap's refusal is documented, and tested in test_live_games_cap.py.
NO_CAP = {"max_live_games_per_client": 0}


def test_games_api_follows_its_openapi_links(store):
    app = make_app(store, stream_seconds=0.2, **NO_CAP)
    schema = schemathesis.openapi.from_wsgi("/openapi.json", app, config=config())
    run_games_state_machine(schema, max_examples=100)


def run_games_state_machine(schema, max_examples: int) -> None:
    """Play the games operations of `schema` as a client would, following the links."""
    schema = schema.include(path_regex="^/v1/(games|players)")
    tokens: dict[str, str] = {}

    @schema.auth(refresh_interval=None)
    class SeatToken:
        """The token a client keeps for each game it created or joined (the links carry it one
        step only: no later request or response holds it)."""

        def get(self, case, ctx):
            return tokens.get((case.path_parameters or {}).get("game_id"))

        def set(self, case, token, ctx):
            if token is not None:  # else a link may have given a player token, or nothing
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

        def after_call(self, response, case):
            super().after_call(response, case)
            if case.method == "POST" and response.status_code in (200, 201):
                body = response.json()
                if "token" in body and "game_id" in body:  # a seat's, not a player's
                    tokens.setdefault(body["game_id"], body["token"])

    GamesStateMachine.run(settings=hypothesis.settings(
        max_examples=max_examples,
        stateful_step_count=8,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(hypothesis.HealthCheck),
    ))
