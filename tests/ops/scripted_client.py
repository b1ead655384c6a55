"""A fast scripted client: plays whole games against a computer seat as an app would, over one
keep-alive connection, and counts its requests and their answers."""

from __future__ import annotations

import collections
import http.client
import json

from tests.games.helpers import first_legal

GAME = {"seats": [{"kind": "human", "name": "Script"},
                  {"kind": "computer", "level": "first"}], "options": {}}


class ScriptedClient:
    def __init__(self, port: int):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.statuses: collections.Counter = collections.Counter()
        self.requests = 0

    def call(self, method: str, path: str, body=None, headers=None):
        headers = dict(headers or {})
        payload = None
        if body is not None:
            payload = json.dumps(body)
            headers["Content-Type"] = "application/json"
        self.connection.request(method, path, body=payload, headers=headers)
        response = self.connection.getresponse()
        raw = response.read()
        self.requests += 1
        self.statuses[response.status] += 1
        return response.status, response.headers, json.loads(raw) if raw else None

    def play_game(self) -> int:
        """One game to its end: create it, then for each decision act (If-Match, an
        Idempotency-Key) and read the events that followed. Returns the requests it took."""
        before = self.requests
        status, _, created = self.call("POST", "/v1/games", GAME)
        assert status == 201, created
        game_id, seat = created["game_id"], {"Authorization": f"Bearer {created['token']}"}
        game, last_event = created["game"], created["game"]["last_event"]
        while game["view"]["phase"] != "game_over":
            action = first_legal(game["view"])
            status, _, game = self.call(
                "POST", f"/v1/games/{game_id}/actions", action,
                {**seat, "If-Match": f'"{game["version"]}-0"',
                 "Idempotency-Key": f"{game_id}-{game['version']}"})
            assert status == 200, game
            status, _, page = self.call(
                "GET", f"/v1/games/{game_id}/events?after={last_event}", headers=seat)
            assert status == 200, page
            last_event = page["last_event"]
        return self.requests - before

    def close(self) -> None:
        self.connection.close()
