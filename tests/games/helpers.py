"""A test player over HTTP, and random choices among a view's legal actions."""

from __future__ import annotations

import json
import random

from service.cards import Card
from service.engine.rules import MOST_A_SHOW_IS_WORTH
from service.scoring import show_points

HUMAN = {"kind": "human"}
COMPUTER = {"kind": "computer", "level": "first"}


def create(client, seats, options=None, **extra):
    response = client.post("/v1/games", json={"seats": seats, "options": options or {}, **extra})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


class Player:
    """One seat (or a spectator, token None) of one game, over the test client."""

    def __init__(self, client, game_id: str, token: str | None, seat: int | None):
        self.client = client
        self.game_id = game_id
        self.token = token
        self.seat = seat

    @classmethod
    def creator(cls, client, created: dict) -> Player:
        return cls(client, created["game_id"], created["token"], created["seat"])

    @classmethod
    def joining(cls, client, game_id: str, code: str) -> Player:
        response = client.post(f"/v1/games/{game_id}/join", json={"code": code})
        assert response.status_code == 200, response.get_json()
        body = response.get_json()
        return cls(client, game_id, body["token"], body["seat"])

    def headers(self, **extra) -> dict:
        auth = {} if self.token is None else {"Authorization": f"Bearer {self.token}"}
        return {**auth, **{name.replace("_", "-"): value for name, value in extra.items()}}

    def get(self, **headers):
        return self.client.get(f"/v1/games/{self.game_id}", headers=self.headers(**headers))

    def read(self) -> dict:
        response = self.get()
        assert response.status_code == 200, response.get_json()
        return response.get_json()

    def post(self, action: dict, **headers):
        return self.client.post(f"/v1/games/{self.game_id}/actions", json=action,
                                headers=self.headers(**headers))

    def act(self, action: dict, **headers) -> dict:
        response = self.post(action, **headers)
        assert response.status_code == 200, (action, response.get_json())
        return response.get_json()

    def events(self, after: int = 0, wait: float = 0):
        return self.client.get(f"/v1/games/{self.game_id}/events?after={after}&wait={wait}",
                               headers=self.headers())


# Decisions a computer leaves to the people at the table.
HUMAN_DECISIONS = {"next_game", "end_match", "resign"}


def first_legal(view: dict) -> dict:
    """The first legal action of an HTTP view, made concrete: first cards listed, random cuts,
    a true count (the computer level "first", as a request body)."""
    option = next(o for o in view["legal_actions"] if o["type"] not in HUMAN_DECISIONS)
    kind = option["type"]
    if kind in ("cut_for_deal", "cut_starter"):
        return {"type": kind, "depth": None}
    if kind == "discard":
        return {"type": kind, "cards": option["cards"][: option["count"]]}
    if kind == "play":
        return {"type": kind, "card": option["cards"][0]}
    if kind == "claim":
        cards = [Card.parse(text) for text in option["cards"]]
        points = show_points(cards, Card.parse(option["starter"]), crib=option["hand"] == "crib")
        return {"type": kind, "points": points}
    return {"type": kind}


def random_action(view: dict, rng: random.Random, *, games_per_match: int = 2) -> dict:
    """A random legal action for the seat of `view`; claims are sometimes miscounted."""
    options = view["legal_actions"]
    muggins = [o for o in options if o["type"] == "muggins"]
    if muggins and (len(options) == 1 or rng.random() < 0.5):
        return {"type": "muggins"}
    option = next(o for o in options if o["type"] != "muggins")
    kind = option["type"]
    if kind in ("cut_for_deal", "cut_starter"):
        depth = rng.choice([None, rng.randint(option["min_depth"], option["max_depth"])])
        return {"type": kind, "depth": depth}
    if kind == "discard":
        return {"type": kind, "cards": rng.sample(option["cards"], option["count"])}
    if kind == "play":
        return {"type": kind, "card": rng.choice(option["cards"])}
    if kind == "claim":
        cards = [Card.parse(text) for text in option["cards"]]
        points = show_points(cards, Card.parse(option["starter"]), crib=option["hand"] == "crib")
        if rng.random() < 0.3:
            points = min(max(0, points + rng.choice((-2, -1, 1, 2))),
                         MOST_A_SHOW_IS_WORTH[len(cards) + 1])
        return {"type": kind, "points": points}
    if kind in ("next_game", "end_match"):
        return {"type": "next_game" if len(view["results"]) < games_per_match else "end_match"}
    raise AssertionError(f"unexpected legal action {option}")


class Stream:
    """A game's event stream read message by message, as an EventSource would."""

    def __init__(self, response):
        self.response = response
        self._chunks = response.response  # the server's generator: read as the test asks
        self._buffer = b""

    def next_message(self) -> dict:
        """The next message as {event, id, data (parsed JSON)}; a heartbeat as {comment}."""
        while b"\n\n" not in self._buffer:
            self._buffer += next(self._chunks)
        block, self._buffer = self._buffer.split(b"\n\n", 1)
        message = {}
        for line in block.decode().split("\n"):
            name, _, value = line.partition(": ")
            if name == "":
                message["comment"] = value
            elif name == "data":
                message["data"] = json.loads(value)
            elif name in ("event", "id", "retry"):
                message[name] = value
        return message

    def close(self) -> None:
        self.response.close()
