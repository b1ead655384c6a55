"""Rematch: after a game ends every human seat accepts (the first one offers), then a linked
game starts with the same seats and options, the first deal rotated and a new shuffle; each
seat's token comes in its own response, never in an event. On each store."""

from __future__ import annotations

import json

import pytest
import yaml
from openapi_schema_validator import OAS30Validator

from service.api.openapi import openapi_yaml
from service.games import tokens
from service.games.rematch import OFFER_SECONDS
from tests.games.backends import store  # noqa: F401  (the store on every backend)
from tests.games.helpers import COMPUTER, HUMAN, Player, create

LAYOUTS = {
    "two humans": ([HUMAN, HUMAN], {"target": 61}),
    "four in teams, a computer": ([HUMAN, HUMAN, COMPUTER, HUMAN],
                                  {"teams": "2x2", "counting": "manual", "muggins": "auto"}),
    "six in three pairs, two computers": ([HUMAN, COMPUTER, HUMAN, HUMAN, COMPUTER, HUMAN],
                                          {"teams": "3x2", "target": 61}),
}


@pytest.fixture(scope="module")
def documented():
    """validate(schema name, value): the value must fit the schema in openapi.yaml."""
    components = yaml.safe_load(openapi_yaml())["components"]

    def validate(name: str, value) -> None:
        OAS30Validator({"components": components,
                        "$ref": f"#/components/schemas/{name}"}).validate(value)
    return validate


def seated(client, seats, options) -> list[Player]:
    """The human seats of a new game, every one taken, in seat order."""
    created = create(client, [{**seat, "name": f"P{number}"} for number, seat in enumerate(seats)],
                     options)
    players = [Player.creator(client, created)]
    players += [Player.joining(client, created["game_id"], invite["code"])
                for invite in created["invites"]]
    return sorted(players, key=lambda player: player.seat)


def cut_and_resign(players: list[Player]) -> int:
    """Cut for the deal, then the first seat resigns; returns the first dealer."""
    while players[0].read()["view"]["phase"] == "cut_for_deal":
        for player in players:
            if any(a["type"] == "cut_for_deal" for a in player.read()["view"]["legal_actions"]):
                player.act({"type": "cut_for_deal", "depth": None})
    dealer = players[0].read()["view"]["dealer"]
    players[0].act({"type": "resign"})
    return dealer


def rematch(player: Player, **headers):
    return player.client.post(f"/v1/games/{player.game_id}/rematch",
                              headers=player.headers(**headers))


def new_events(player: Player, after: int, timed: bool = False) -> list[dict]:
    """The events after `after`; without their `time` (the write's, tested elsewhere) unless
    `timed`."""
    events = player.events(after=after).get_json()["events"]
    return events if timed else [{k: v for k, v in e.items() if k != "time"} for e in events]


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_every_human_seat_accepts_and_the_rematch_starts_with_the_deal_rotated(client, layout,
                                                                               documented):
    seats, options = LAYOUTS[layout]
    players = seated(client, seats, options)
    old_id, count = players[0].game_id, len(seats)
    first_dealer = cut_and_resign(players)
    before = players[0].read()
    seen = before["last_event"]

    answers = [rematch(player) for player in players]
    assert [answer.status_code for answer in answers] == [202] * (len(players) - 1) + [201]
    bodies = [answer.get_json() for answer in answers]
    new_id = bodies[0]["game_id"]
    humans = [player.seat for player in players]
    assert [(b["game_id"], b["seat"], b["game"] is None) for b in bodies] == [
        (new_id, seat, seat != humans[-1]) for seat in humans]
    assert bodies[0]["rematch"]["status"] == "open" and bodies[0]["rematch"]["accepted"] == [
        humans[0]]
    assert bodies[-1]["rematch"] == {**bodies[0]["rematch"], "status": "started",
                                     "accepted": humans}
    assert new_events(players[0], seen) == [
        {"number": seen + 1, "type": "rematch_offered", "seat": humans[0], "game_id": new_id,
         "expires_at": bodies[0]["rematch"]["expires_at"]},
        *({"number": seen + 1 + n, "type": "rematch_accepted", "seat": seat}
          for n, seat in enumerate(humans[1:], start=1)),
        {"number": seen + len(humans) + 1, "type": "rematch_started", "game_id": new_id}]

    for body in bodies:
        documented("RematchAccess", body)
    for event in new_events(players[0], seen, timed=True):
        documented("Event", event)
    old = players[0].read()
    documented("Game", old)
    assert (old["rematch"]["status"], old["rematch"]["game_id"], old["rematch_of"]) == (
        "started", new_id, None)
    renewed = [Player(client, new_id, body["token"], body["seat"]) for body in bodies]
    games = [player.read() for player in renewed]
    assert [game["seat"] for game in games] == humans
    game = games[0]
    assert (game["rematch_of"], game["rematch"]) == (old_id, None)
    assert [(s["kind"], s["name"], s["taken"], s.get("level")) for s in game["seats"]] == [
        (s["kind"], s["name"], True, s.get("level")) for s in before["seats"]]
    assert game["view"]["options"] == before["view"]["options"]
    assert (game["view"]["phase"], game["view"]["dealer"]) == ("discard",
                                                               (first_dealer + 1) % count)
    opening = new_events(renewed[0], 0)
    assert [event["type"] for event in opening[:2]] == ["game_started", "dealt"]
    old_commitments = {e.get("seed_commitment") for e in new_events(players[0], 0)}
    assert opening[1]["seed_commitment"] not in old_commitments
    # a game seed of its own, committed to and kept secret as any new game's
    assert game["view"]["game_seed"] is None and old["view"]["game_seed"] is not None
    assert game["view"]["game_seed_commitment"] != old["view"]["game_seed_commitment"]
    assert all(game["view"]["game_seed_commitment"] == other["view"]["game_seed_commitment"]
               for other in games)
    # The old tokens stay with the old game; no token is in any event
    assert players[0].client.get(f"/v1/games/{new_id}",
                                 headers=players[0].headers()).status_code == 403
    every_event = json.dumps(new_events(players[0], 0) + opening)
    assert not [body["token"] for body in bodies if body["token"] in every_event]


def test_a_player_token_opens_the_rematch_and_lists_it(client, documented):
    ana = client.post("/v1/players", json={"name": "Ana"}).get_json()
    auth = {"Authorization": f"Bearer {ana['token']}"}
    created = client.post("/v1/games", headers=auth, json={"seats": [HUMAN, COMPUTER]})
    old = Player(client, created.get_json()["game_id"], ana["token"], 0)
    old.act({"type": "resign"})
    started = rematch(old)
    assert started.status_code == 201  # the only human seat: it starts at once
    new_id = started.get_json()["game_id"]
    by_player = Player(client, new_id, ana["token"], None).read()
    assert (by_player["seat"], by_player["rematch_of"]) == (0, old.game_id)
    listed = client.get("/v1/players/me/games", headers=auth).get_json()
    documented("PlayerGames", listed)
    lines = listed["games"]
    assert [(g["game_id"], g["rematch_of"], g["rematch"]) for g in lines] == [
        (new_id, old.game_id, None), (old.game_id, None, new_id)]


def test_a_declined_offer_never_starts_and_a_new_one_may_follow(client, documented):
    ana, bea = seated(client, [HUMAN, HUMAN], {})
    bea.act({"type": "resign"})
    offered = rematch(ana).get_json()
    declined = client.delete(f"/v1/games/{ana.game_id}/rematch", headers=bea.headers())
    assert declined.status_code == 200
    documented("Game", declined.get_json())
    assert declined.get_json()["rematch"] == {**offered["rematch"], "status": "declined",
                                              "declined_by": 1}
    again = client.delete(f"/v1/games/{ana.game_id}/rematch", headers=bea.headers())
    assert (again.status_code, again.get_json()["code"]) == (409, "no_rematch_offer")
    assert client.get(f"/v1/games/{offered['game_id']}").status_code == 404
    assert Player(client, offered["game_id"], offered["token"], 0).get().status_code == 404
    second = rematch(bea).get_json()
    assert second["game_id"] != offered["game_id"] and second["rematch"]["offered_by"] == 1
    assert rematch(ana).status_code == 201
    assert [e["type"] for e in new_events(ana, 0)][-5:] == [
        "rematch_offered", "rematch_declined", "rematch_offered", "rematch_accepted",
        "rematch_started"]


def test_an_offer_lapses_after_its_time_with_an_event(client, clock, documented):
    ana, bea = seated(client, [HUMAN, HUMAN], {})
    ana.act({"type": "resign"})
    offered = rematch(ana).get_json()
    seen = ana.read()["last_event"]
    clock.advance(OFFER_SECONDS)
    assert bea.read()["rematch"]["status"] == "open"  # at its very time, as deadlines are
    clock.advance(0.001)
    game = bea.read()
    assert game["rematch"]["status"] == "expired"
    assert new_events(bea, seen) == [{"number": seen + 1, "type": "rematch_expired",
                                      "offered_by": 0}]
    documented("Event", new_events(bea, seen, timed=True)[0])
    late = rematch(bea).get_json()
    assert (late["rematch"]["status"], late["rematch"]["offered_by"]) == ("open", 1)
    assert late["game_id"] != offered["game_id"]


def test_an_offer_accepted_at_its_very_time_starts_the_new_game(client, clock):
    ana, bea = seated(client, [HUMAN, HUMAN], {})
    ana.act({"type": "resign"})
    offered = rematch(ana).get_json()
    clock.advance(OFFER_SECONDS)
    accepted = rematch(bea)
    assert accepted.status_code == 201
    assert (accepted.get_json()["game_id"], accepted.get_json()["rematch"]["status"]) == (
        offered["game_id"], "started")


def test_refusals_before_the_end_twice_and_without_a_token(client):
    ana, bea = seated(client, [HUMAN, HUMAN], {})
    early = rematch(ana, Accept_Language="es")
    assert early.get_json() == {
        "type": "urn:cribbage:problem:game_not_over", "title": "Partida en curso",
        "status": 409, "detail": "La revancha llega cuando termina la partida; está en "
                                 "cut_for_deal", "code": "game_not_over"}
    ana.act({"type": "resign"})
    rematch(ana)
    twice = rematch(ana)
    assert (twice.status_code, twice.get_json()["detail"]) == (
        409, "Seat 0 has accepted this rematch already")
    anonymous = client.post(f"/v1/games/{ana.game_id}/rematch")
    assert (anonymous.status_code, anonymous.get_json()["code"]) == (401, "missing_token")
    stranger = client.post(f"/v1/games/{ana.game_id}/rematch",
                           headers={"Authorization": "Bearer not-a-seat-token-at-all"})
    assert (stranger.status_code, stranger.get_json()["code"]) == (403, "invalid_token")
    assert bea.read()["rematch"]["accepted"] == [0]


def test_a_retry_with_the_same_key_gets_the_same_token_and_applies_nothing(client):
    ana, bea = seated(client, [HUMAN, HUMAN], {})
    ana.act({"type": "resign"})
    first = rematch(ana, Idempotency_Key="again")
    retry = rematch(ana, Idempotency_Key="again")
    assert (retry.status_code, retry.headers["Idempotent-Replayed"]) == (202, "true")
    assert retry.get_json() == first.get_json()
    accepted = rematch(bea, Idempotency_Key="bea-1")
    replayed = rematch(bea, Idempotency_Key="bea-1")
    assert replayed.status_code == 201 and replayed.get_json()["token"] == accepted.get_json()[
        "token"]
    token = first.get_json()["token"]
    assert first.get_json()["token"] not in json.dumps(new_events(ana, 0))
    stored = json.dumps(client.application.extensions["cribbage.game_table"].store.load(
        ana.game_id).data)
    assert token not in stored and tokens.digest(token) in stored


def test_a_seat_nobody_took_stays_open_in_the_rematch_for_the_same_invite(client):
    created = create(client, [HUMAN, HUMAN, COMPUTER])
    ana = Player.creator(client, created)
    ana.act({"type": "resign"})
    started = rematch(ana)
    assert started.status_code == 201
    new_id = started.get_json()["game_id"]
    assert [s["taken"] for s in started.get_json()["game"]["seats"]] == [True, False, True]
    bea = Player.joining(client, new_id, created["invites"][0]["code"])
    assert (bea.seat, bea.read()["rematch_of"]) == (1, ana.game_id)
