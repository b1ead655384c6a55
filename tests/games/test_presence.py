"""Presence: a seat is at the table while its stream or long poll is open or it acted in the
last 30 s; the table hears at once when it comes back and after a 30 s grace when it has gone.
On the embedded store and on Redis, with no client needed for the news to go out."""

from __future__ import annotations

import pytest

from service.games import GamesService
from service.games.sweeper import Sweeper
from service.store import MemoryGameStore, RedisGameStore
from service.store.redis_store import DEADLINES
from tests.games.conftest import Clock, make_app
from tests.games.helpers import HUMAN, Player, Stream, create


@pytest.fixture(params=["memory", "redis"])
def store(request):
    if request.param == "memory":
        return MemoryGameStore(3600)
    server = request.getfixturevalue("redis_server")
    server.cli("DEL", DEADLINES)  # entries of earlier tests' games, due by our clock
    return RedisGameStore(server.url, 3600)


@pytest.fixture
def clock():
    return Clock()


def presence_of(player: Player, seat: int) -> list[bool]:
    events = player.events().get_json()["events"]
    return [event["connected"] for event in events
            if event["type"] == "presence" and event["seat"] == seat]


def open_stream(player: Player) -> Stream:
    stream = Stream(player.client.get(f"/v1/games/{player.game_id}/stream", buffered=False,
                                      headers=player.headers()))
    assert stream.next_message()["event"] == "snapshot"
    return stream


def test_a_dropped_stream_is_told_after_the_grace_and_its_return_at_once(store, clock):
    client = make_app(store, clock).test_client()
    created = create(client, [HUMAN, HUMAN])
    ana = Player.creator(client, created)
    bea = Player.joining(client, ana.game_id, created["invites"][0]["code"])
    sweeper = Sweeper(GamesService(store, clock), period=0)
    stream = open_stream(bea)
    clock.advance(40)
    sweeper.sweep()
    assert presence_of(ana, 1) == []  # the stream holds Bea's seat
    assert [seat["connected"] for seat in ana.read()["seats"]] == [True, True]  # Ana: grace
    stream.close()  # the phone lost its connection
    clock.advance(29.5)
    sweeper.sweep()
    assert presence_of(ana, 1) == []  # within the grace
    clock.advance(0.5)
    assert sweeper.sweep() == 1  # no client asks: the sweeper tells the table
    assert presence_of(ana, 1) == [False]
    assert ana.read()["seats"][1]["connected"] is False
    stream = open_stream(bea)
    assert presence_of(ana, 1) == [False, True]  # at once
    assert ana.read()["seats"][1]["connected"] is True
    stream.close()


def test_a_long_poll_holds_the_seat_and_an_action_brings_it_back(store, clock):
    client = make_app(store, clock).test_client()
    created = create(client, [HUMAN, HUMAN])
    ana = Player.creator(client, created)
    bea = Player.joining(client, ana.game_id, created["invites"][0]["code"])
    clock.advance(61)
    assert presence_of(ana, 1) == [False]  # joined, then nothing for 30 + 30 s
    last = bea.read()["last_event"]
    waited = bea.events(after=last, wait=0.01).get_json()["events"]
    assert [(event["type"], event["seat"], event["connected"]) for event in waited] == [
        ("presence", 1, True)]  # the wait itself brings Bea back
    assert presence_of(ana, 1) == [False, True]
    clock.advance(61)
    assert presence_of(ana, 1) == [False, True, False]
    bea.act({"type": "cut_for_deal", "depth": 10})
    assert presence_of(ana, 1) == [False, True, False, True]


def test_a_gone_seat_is_told_after_the_grace_though_a_move_reset_the_turn_timer(store, clock):
    client = make_app(store, clock).test_client()
    # A fixed deck: the cuts for deal at depths 10 and 30 are not tied.
    created = create(client, [HUMAN, HUMAN],
                     {"turn_time_limit": 600, "deck_seed": "presence: no tied cut"})
    ana = Player.creator(client, created)
    bea = Player.joining(client, ana.game_id, created["invites"][0]["code"])
    sweeper = Sweeper(GamesService(store, clock), period=0)
    bea.act({"type": "cut_for_deal", "depth": 10})
    open_stream(bea).close()  # Bea's phone drops: she is gone 30 s after her cut
    clock.advance(1)
    assert ana.act({"type": "cut_for_deal", "depth": 30})["view"]["phase"] == "discard"
    clock.advance(59)  # the grace is over; Ana's discard is due in 540 s
    assert sweeper.sweep() == 1
    assert presence_of(ana, 1) == [False]
