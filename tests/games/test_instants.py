"""Every instant the API shows, in every body, event and notification, is RFC 3339 in UTC with
milliseconds, and every deadline a client counts down has its milliseconds left beside it."""

from __future__ import annotations

import json
import random
import re

from tests.games.conftest import make_app
from tests.games.helpers import HUMAN, Player, random_action
from tests.webhooks.receiver import Receiver

RFC3339_MS = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z")
COUNTDOWNS = {"deadline": "deadline_ms_left", "turn_deadline": "turn_ms_left",
              "expires_at": "expires_ms_left"}


def instants(value, path: str = "") -> list[tuple[str, object]]:
    """(path, value) of every field that names an instant: time, timestamp, a deadline, or a
    name ending in _at."""
    found = []
    if isinstance(value, dict):
        for key, item in value.items():
            where = f"{path}.{key}"
            if key in ("time", "timestamp") or key.endswith(("deadline", "_at")):
                found.append((where, item))
            found += instants(item, where)
    elif isinstance(value, list):
        for number, item in enumerate(value):
            found += instants(item, f"{path}[{number}]")
    return found


def countdowns_missing(value, path: str = "") -> list[str]:
    """Paths of deadlines shown in a body (not in an event) without their milliseconds left."""
    missing = []
    if isinstance(value, dict):
        if "type" not in value:  # events and notifications are history: no countdown
            missing += [f"{path}.{key}" for key, left in COUNTDOWNS.items()
                        if key in value and left not in value]
        for key, item in value.items():
            missing += countdowns_missing(item, f"{path}.{key}")
    elif isinstance(value, list):
        for number, item in enumerate(value):
            missing += countdowns_missing(item, f"{path}[{number}]")
    return missing


def test_every_instant_in_bodies_events_and_notifications_is_rfc_3339(store, clock):
    app = make_app(store, clock, webhooks_allow_private=True)
    client, worker = app.test_client(), app.extensions["cribbage.webhook_worker"]
    bodies: list[dict] = []

    def keep(response) -> dict:
        body = response.get_json()
        bodies.append(body)
        return body

    with Receiver() as receiver:
        player = keep(client.post("/v1/players", json={"name": "Ana"}))
        auth = {"Authorization": f"Bearer {player['token']}"}
        options = {"turn_time_limit": 600, "counting": "manual", "muggins": "call",
                   "count_time_limit": 30, "deck_seed": "instants"}
        created = keep(client.post("/v1/games", headers=auth,
                                   json={"seats": [HUMAN, HUMAN], "options": options}))
        ana = Player(client, created["game_id"], player["token"], 0)
        bea = Player.joining(client, ana.game_id, created["invites"][0]["code"])
        keep(client.post(f"/v1/games/{ana.game_id}/webhooks", headers=ana.headers(),
                         json={"url": receiver.url()}))
        rng = random.Random(3)
        while keep(ana.get())["view"]["phase"] != "show" or \
                keep(ana.get())["view"]["deadline"] is None:
            game = bodies[-1]
            mover = (ana, bea)[game["view"]["to_act"][0]]
            keep(mover.post(random_action(mover.read()["view"], rng)))
        clock.advance(31)  # the count's deadline passes: a count_timeout event
        keep(ana.get())
        keep(bea.post({"type": "resign"}))
        keep(ana.client.post(f"/v1/games/{ana.game_id}/rematch", headers=ana.headers()))
        keep(ana.events())
        keep(bea.events())
        keep(client.get("/v1/players/me/games", headers=auth))
        hooks = keep(client.get(f"/v1/games/{ana.game_id}/webhooks", headers=ana.headers()))
        while worker.run_once():
            pass
        keep(client.get(f"/v1/games/{ana.game_id}/webhooks/{hooks['webhooks'][0]['webhook_id']}"
                        "/deliveries", headers=ana.headers()))
        notified = [received.payload for received in receiver.received]
    found = instants(bodies + notified)
    kinds = {path.rsplit(".", 1)[1] for path, value in found if value is not None}
    assert {"time", "timestamp", "deadline", "turn_deadline", "expires_at", "updated_at",
            "created_at", "last_attempt_at", "delivered_at"} <= kinds
    assert [(path, value) for path, value in found
            if value is not None and not (isinstance(value, str) and RFC3339_MS.fullmatch(value))
            ] == []
    assert countdowns_missing(bodies) == []
    assert "count_timeout" in json.dumps(bodies)
