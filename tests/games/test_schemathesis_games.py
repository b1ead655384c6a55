"""A stateful schemathesis run over the games API, following the OpenAPI links
(create -> join -> read -> act -> events; player -> seek -> paired game), every check: every
response must match the document, and a request that follows its schema is refused only as
documented (tests/refusals.py). The run counts what it reached, and must have reached a paired
game and played in it. The rematch and webhook answers the random run rarely reaches are
checked one by one."""

from __future__ import annotations

from collections import Counter

import hypothesis
import schemathesis

from tests.games.conftest import make_app
from tests.games.helpers import HUMAN, Player, create
from tests.refusals import config
from tests.webhooks.push_device import Device

POLL_CAP = 0.05  # seconds: long polls are real waits; the contract is the same with short ones
# The run creates games in one store from one address, example after example: with a cap on
# live games, a late example would be refused where an early one was not (hypothesis then
# calls the run flaky). The cap's refusal is documented, and tested in test_live_games_cap.py.
NO_CAP = {"max_live_games_per_client": 0}


def test_games_api_follows_its_openapi_links(store):
    app = make_app(store, stream_seconds=0.2, **NO_CAP)
    schema = schemathesis.openapi.from_wsgi("/openapi.json", app, config=config())
    client = app.test_client()
    assert_reached_paired_games(run_games_state_machine(
        schema, max_examples=100,
        new_player=lambda: client.post("/v1/players", json={}).get_json()["token"],
        cancel_seek=lambda seek_id, token: client.delete(
            f"/v1/seeks/{seek_id}", headers={"Authorization": f"Bearer {token}"})))


def assert_reached_paired_games(reached: Counter) -> None:
    """The run saw seeks come back paired, and successful answers of their games'
    operations."""
    assert reached["paired seek"] >= 1, reached
    assert sum(count for key, count in reached.items() if key.startswith("paired: ")) >= 1, \
        reached


def run_games_state_machine(schema, max_examples: int, new_player, cancel_seek) -> Counter:
    """Play the games operations of `schema` as a client would, following the links; a seek
    made before any player is made with `new_player()`'s token, and each example's seeks are
    cancelled at its end (`cancel_seek(seek_id, owner_token)`): a seek left open would be
    paired in a later example, whose answers would then depend on the examples before it
    (hypothesis replays each example and must see the same). Returns
    what it reached: how many answers each operation gave of each status ("<method> <path>
    <status>"), how many showed a seek paired ("paired seek"), and how many successful answers
    each operation gave on a paired game ("paired: <method> <path>")."""
    schema = schema.include(path_regex="^/v1/(games|players|leaderboards|seeks)")
    tokens: dict[str, str] = {}
    owners: dict[str, str] = {}   # seek id -> its owner's player token
    players: list[str] = []       # the player tokens made, the newest last
    seeks_made = Counter()        # in this example: the same example always makes the same
    paired: set[str] = set()      # the games seeks were paired into
    reached: Counter = Counter()

    @schema.auth(refresh_interval=None)
    class SeatToken:
        """The token a client keeps for each game it created or joined, or was paired into,
        the player token of each seek it made, and its newest player's token to seek with
        (the links carry one step only: no later request or response holds them)."""

        def get(self, case, ctx):
            parameters = case.path_parameters or {}
            if "seek_id" in parameters:
                return owners.get(parameters["seek_id"])
            if case.operation.path == "/v1/seeks" and case.method == "POST":
                if not players:
                    players.append(new_player())
                return players[-1]
            return tokens.get(parameters.get("game_id"))

        def set(self, case, token, ctx):
            if token is not None:  # else a link may have given a player token, or nothing
                case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}

    class GamesStateMachine(schema.as_state_machine()):
        def setup(self):
            tokens.clear()
            owners.clear()
            paired.clear()
            players.clear()
            seeks_made.clear()

        def teardown(self):
            for seek_id, token in owners.items():
                cancel_seek(seek_id, token)

        def before_call(self, case):
            try:
                if float(case.query["wait"]) > POLL_CAP:
                    case.query["wait"] = POLL_CAP
            except (TypeError, KeyError, ValueError):
                pass  # no wait, or one the API refuses at once
            if case.operation.path == "/v1/seeks" and case.method == "POST" \
                    and isinstance(case.body, dict):
                # Every other seek with computers that fill at once: a seek the run pairs
                # alone (a wait of minutes would be over long after the run).
                seeks_made["seeks"] += 1
                if seeks_made["seeks"] % 2:
                    case.body["computers"] = {**(case.body.get("computers") or {}), "after": 0}

        def after_call(self, response, case):
            super().after_call(response, case)
            reached[f"{case.method} {case.operation.path} {response.status_code}"] += 1
            if response.status_code not in (200, 201):
                return
            body = response.json()
            if not isinstance(body, dict):
                return
            if case.operation.path == "/v1/players" and case.method == "POST":
                players.append(body["token"])
            if case.operation.path == "/v1/seeks" and case.method == "POST":
                owners[body["seek_id"]] = case.headers["Authorization"].removeprefix("Bearer ")
            if body.get("status") == "paired" and "token" in body:
                reached["paired seek"] += 1
                paired.add(body["game_id"])
            if (case.path_parameters or {}).get("game_id") in paired:
                reached[f"paired: {case.method} {case.operation.path}"] += 1
            if case.method in ("POST", "GET") and "token" in body and "game_id" in body:
                tokens.setdefault(body["game_id"], body["token"])  # a seat's, not a player's

    GamesStateMachine.run(settings=hypothesis.settings(
        max_examples=max_examples,
        stateful_step_count=8,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(hypothesis.HealthCheck),
    ))
    return reached


def test_rematch_and_webhook_answers_pass_every_check(store):
    """What the random run rarely reaches (a finished game, a webhook or a push subscription
    that registers, an offer to decline): each answer, success and refusal, through
    schemathesis' checks."""
    app = make_app(store, webhooks_allow_private=True, **NO_CAP)
    schema = schemathesis.openapi.from_wsgi("/openapi.json", app, config=config())
    client = app.test_client()
    created = create(client, [HUMAN, HUMAN])
    ana = Player.creator(client, created)
    bea = Player.joining(client, ana.game_id, created["invites"][0]["code"])
    player = client.post("/v1/players", json={"name": "Cy"}).get_json()

    def call(method: str, path: str, token: str, body=None, **path_parameters) -> dict:
        operation = schema[path][method]
        case = operation.Case(path_parameters={"game_id": ana.game_id, **path_parameters},
                              headers={"Authorization": f"Bearer {token}"},
                              **({} if body is None else {"body": body}))
        response = case.call_and_validate()
        return {"status": response.status_code, **(response.json() or {})}

    game_hooks, player_hooks = "/v1/games/{game_id}/webhooks", "/v1/players/me/webhooks"
    rematch = "/v1/games/{game_id}/rematch"
    hook = {"url": "https://127.0.0.1:9/hook", "events": ["turn", "presence"]}
    seat_hook = call("POST", game_hooks, ana.token, hook)
    assert (seat_hook["status"], seat_hook["seat"]) == (201, 0)
    assert call("POST", player_hooks, player["token"], hook)["status"] == 201
    assert call("GET", game_hooks, ana.token)["webhooks"][0]["webhook_id"] == seat_hook[
        "webhook_id"]
    assert call("GET", f"{game_hooks}/{{webhook_id}}/deliveries", ana.token,
                webhook_id=seat_hook["webhook_id"])["deliveries"] == []
    assert call("GET", player_hooks, player["token"])["status"] == 200
    game_push, player_push = ("/v1/games/{game_id}/push-subscriptions",
                              "/v1/players/me/push-subscriptions")
    subscription = Device().subscription("https://127.0.0.1:9/wp")
    seat_push = call("POST", game_push, ana.token, subscription)
    assert (seat_push["status"], seat_push["seat"]) == (201, 0)
    assert call("GET", game_push, ana.token)["subscriptions"][0]["subscription_id"] == seat_push[
        "subscription_id"]
    assert call("GET", f"{game_push}/{{subscription_id}}/deliveries", ana.token,
                subscription_id=seat_push["subscription_id"])["deliveries"] == []
    player_sub = call("POST", player_push, player["token"], subscription)
    assert player_sub["status"] == 201
    assert call("GET", f"{player_push}/{{subscription_id}}/deliveries", player["token"],
                subscription_id=player_sub["subscription_id"])["deliveries"] == []
    assert call("GET", player_push, player["token"])["status"] == 200
    assert call("DELETE", f"{game_push}/{{subscription_id}}", ana.token,
                subscription_id=seat_push["subscription_id"]) == {"status": 200,
                                                                 "subscriptions": []}
    assert call("DELETE", f"{game_push}/{{subscription_id}}", ana.token,
                subscription_id=seat_push["subscription_id"])["code"] == \
        "push_subscription_not_found"
    assert call("GET", "/v1/push/key", ana.token)["public_key"].startswith("B")
    assert call("POST", rematch, ana.token)["code"] == "game_not_over"
    bea.act({"type": "resign"})
    assert call("POST", rematch, ana.token)["rematch"]["status"] == "open"
    assert call("DELETE", rematch, bea.token)["rematch"]["status"] == "declined"
    assert call("DELETE", rematch, bea.token)["code"] == "no_rematch_offer"
    offered = call("POST", rematch, bea.token)
    assert (offered["status"], offered["game"]) == (202, None)
    assert call("POST", rematch, bea.token)["code"] == "rematch_already_accepted"
    started = call("POST", rematch, ana.token)
    assert (started["status"], started["rematch"]["status"]) == (201, "started")
    assert started["game"]["rematch_of"] == ana.game_id
    assert call("DELETE", f"{game_hooks}/{{webhook_id}}", ana.token,
                webhook_id=seat_hook["webhook_id"]) == {"status": 200, "webhooks": []}
