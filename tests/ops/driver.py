"""Simulated players for load and fault runs: each plays two-player games against a computer.

A player creates a game, then sends random legal actions for its human seat (each with an
Idempotency-Key and If-Match) until the game ends, and starts another. Requests alternate
between the servers given, so games move between gunicorn servers that share one store. A 503
or a broken connection is retried after Retry-After with the same Idempotency-Key, as a careful
client would; every request's outcome is recorded for the figures.
"""

from __future__ import annotations

import http.client
import json
import random
import threading
import time
import uuid
from dataclasses import dataclass, field

from tests.games.helpers import random_action

SEATS = [{"kind": "human"}, {"kind": "computer", "level": "first"}]
REQUEST_TIMEOUT = 30.0
RETRY_PAUSE = 0.2  # after a broken connection, which carries no Retry-After


@dataclass(frozen=True)
class Outcome:
    kind: str              # "create", "act" or "read"
    status: int | None     # None: the connection failed or broke
    seconds: float
    at: float              # time.monotonic() when the request was sent
    retry_after: str | None = None


@dataclass
class Tally:
    """Everything the players saw, shared by all their threads."""

    outcomes: list[Outcome] = field(default_factory=list)
    acknowledged: dict[str, int] = field(default_factory=dict)  # game id -> last version acked
    finished: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)
    stop: threading.Event = field(default_factory=threading.Event)  # set: play no more

    def acknowledge(self, game_id: str, version: int) -> None:
        with self.lock:
            self.acknowledged[game_id] = max(version, self.acknowledged.get(game_id, 0))


class Player:
    def __init__(self, ports: list[int], tally: Tally, seed: int):
        self.ports = ports
        self.tally = tally
        self.rng = random.Random(seed)
        self.connections: dict[int, http.client.HTTPConnection] = {}
        self.turn = seed  # which server the next request goes to
        self.game: dict | None = None  # the last game body the server returned
        self.token: str | None = None
        self.stop_at = 0.0

    def play(self, stop_at: float) -> None:
        self.stop_at = stop_at
        try:
            while time.monotonic() < stop_at and not self.tally.stop.is_set():
                if self.game is None:
                    self.create()
                elif self.game["view"]["phase"] == "game_over":
                    with self.tally.lock:
                        self.tally.finished += 1
                    self.game = None
                elif self.game["view"]["legal_actions"]:
                    self.act()
                else:
                    self.read()
        finally:
            for connection in self.connections.values():
                connection.close()

    def create(self) -> None:
        status, headers, body = self.request("create", "POST", "/v1/games",
                                             {"seats": SEATS, "options": {}})
        if status == 201:
            self.game, self.token = body["game"], body["token"]
            self.tally.acknowledge(body["game_id"], body["game"]["version"])
        else:
            self.pause(headers)

    def act(self) -> None:
        action = random_action(self.game["view"], self.rng)
        key = uuid.uuid4().hex
        path = f"/v1/games/{self.game['game_id']}/actions"
        while True:  # retried with the same key until the outcome is known
            etag = f'"{self.game["version"]}-{self.game["seat"]}"'
            status, headers, body = self.request(
                "act", "POST", path, action,
                {"Authorization": f"Bearer {self.token}", "Idempotency-Key": key,
                 "If-Match": etag})
            if status == 200:
                self.game = body
                self.tally.acknowledge(body["game_id"], body["version"])
                return
            if status in (None, 503):
                self.pause(headers)
                if time.monotonic() >= self.stop_at or self.tally.stop.is_set():
                    return
                continue
            self.read()  # a refusal (412 after a lost reply, say): start again from the game
            return

    def read(self) -> None:
        status, headers, body = self.request(
            "read", "GET", f"/v1/games/{self.game['game_id']}",
            headers={"Authorization": f"Bearer {self.token}"})
        if status == 200:
            self.game = body
        elif status == 404:
            self.game = None  # lost with the store's data: start a new game
        else:
            self.pause(headers)

    def pause(self, headers: dict) -> None:
        retry_after = headers.get("retry-after")
        time.sleep(float(retry_after) if retry_after else RETRY_PAUSE)

    def request(self, kind: str, method: str, path: str, body=None, headers=None):
        port = self.ports[self.turn % len(self.ports)]
        self.turn += 1
        started = time.monotonic()
        try:
            connection = self.connections.get(port)
            if connection is None:
                connection = http.client.HTTPConnection("127.0.0.1", port,
                                                        timeout=REQUEST_TIMEOUT)
                self.connections[port] = connection
            payload = None if body is None else json.dumps(body)
            all_headers = {"Content-Type": "application/json"} if body is not None else {}
            connection.request(method, path, body=payload, headers={**all_headers,
                                                                     **(headers or {})})
            response = connection.getresponse()
            raw = response.read()
            status = response.status
            response_headers = {name.lower(): value for name, value in response.getheaders()}
        except (OSError, http.client.HTTPException):
            broken = self.connections.pop(port, None)
            if broken is not None:
                broken.close()
            self.tally.outcomes.append(Outcome(kind, None, time.monotonic() - started, started))
            return None, {}, None
        self.tally.outcomes.append(Outcome(kind, status, time.monotonic() - started, started,
                                           response_headers.get("retry-after")))
        parsed = json.loads(raw) if raw and "json" in response_headers.get("content-type", "") \
            else None
        return status, response_headers, parsed


def run_players(ports: list[int], clients: int, seconds: float, tally: Tally | None = None,
                seed: int = 0) -> Tally:
    """`clients` players in threads for `seconds`; returns what they saw."""
    tally = tally or Tally()
    stop_at = time.monotonic() + seconds
    threads = [threading.Thread(target=Player(ports, tally, seed * 1000 + n).play,
                                args=(stop_at,), daemon=True) for n in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(seconds + 2 * REQUEST_TIMEOUT)
    return tally


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]
