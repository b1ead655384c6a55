"""Presence: a seat is at the table while its stream or long poll is open or it acted in the
last 5 s; the table hears at once when it comes back and after a 30 s grace when it has gone.
On the embedded store and on Redis, with no client needed for the news to go out."""

from __future__ import annotations

import pytest

from service.games import GameTable
from service.games.sweeper import Sweeper
from service.store import MemoryGameStore, RedisGameStore
from service.store.redis_store import DEADLINES, HOLDERS
from tests.games.conftest import Clock, make_app
from tests.games.helpers import HUMAN, Player, Stream, create


@pytest.fixture(params=["memory", "redis"])
def store(request):
    if request.param == "memory":
        return MemoryGameStore(3600)
    server = request.getfixturevalue("redis_server")
    server.cli("DEL", DEADLINES, HOLDERS)  # earlier tests' games and processes, by our clock
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
    sweeper = Sweeper(GameTable(store, clock), period=0)
    stream = open_stream(bea)
    clock.advance(30)
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
    assert presence_of(ana, 1) == [False]  # joined, then nothing for 5 + 30 s
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
    sweeper = Sweeper(GameTable(store, clock), period=0)
    bea.act({"type": "cut_for_deal", "depth": 10})
    open_stream(bea).close()  # Bea's phone drops: she is gone 30 s after her cut
    clock.advance(1)
    assert ana.act({"type": "cut_for_deal", "depth": 30})["view"]["phase"] == "discard"
    clock.advance(59)  # the grace is over; Ana's discard is due in 540 s
    assert sweeper.sweep() == 1
    assert presence_of(ana, 1) == [False]


def test_a_killed_server_processs_seats_are_told_gone_after_the_grace(redis_server, clock):
    redis_server.cli("DEL", DEADLINES, HOLDERS)  # earlier tests' games and processes
    # Two server processes on one Redis: Bea's stream is on the one that is killed.
    killed, alive = RedisGameStore(redis_server.url, 3600), RedisGameStore(redis_server.url, 3600)
    client = make_app(alive, clock).test_client()
    created = create(client, [HUMAN, HUMAN])
    ana = Player.creator(client, created)
    bea = Player.joining(client, ana.game_id, created["invites"][0]["code"])
    sweeper = Sweeper(GameTable(alive, clock), period=0)
    clock.advance(100)  # Bea's join no longer counts as her presence
    stream = open_stream(Player(make_app(killed, clock).test_client(), ana.game_id, bea.token,
                                1))
    assert presence_of(ana, 1) == [False, True]  # gone since her join, back with the stream
    # The killed process beats no more and never closes the stream. Its last beat was when it
    # took the seat: 20 s later it is taken for dead (by the next beat of another process), and
    # its seat is gone since that last beat.
    clock.advance(19.9)
    assert sweeper.sweep() == 0
    clock.advance(5)
    assert sweeper.sweep() == 0  # taken for dead: the seat's grace runs from the last beat
    clock.advance(5.1)
    assert sweeper.sweep() == 1  # 30 s after the last beat
    assert presence_of(ana, 1) == [False, True, False]
    events = ana.events().get_json()["events"]
    assert events[-1]["time"] == "2027-01-15T08:02:10.000Z"  # START + 100 + 30
    stream.close()


def test_a_stalled_server_process_taken_for_dead_holds_its_seats_again(redis_server, clock):
    redis_server.cli("DEL", DEADLINES, HOLDERS)
    stalled, alive = RedisGameStore(redis_server.url, 3600), RedisGameStore(redis_server.url, 3600)
    client = make_app(alive, clock).test_client()
    created = create(client, [HUMAN, HUMAN])
    ana = Player.creator(client, created)
    bea = Player.joining(client, ana.game_id, created["invites"][0]["code"])
    clock.advance(100)
    stream = open_stream(Player(make_app(stalled, clock).test_client(), ana.game_id, bea.token,
                                1))
    sweepers = [Sweeper(GameTable(store, clock), period=0) for store in (alive, stalled)]
    clock.advance(21)
    assert sweepers[0].sweep() == 0  # the stalled process is taken for dead
    claimed = 0
    for _ in range(12):  # from its next beat on it beats again: it lives after all
        clock.advance(5)
        claimed += sweepers[1].sweep() + sweepers[0].sweep()
    assert claimed == 1  # the check due 30 s after its last beat before the stall finds...
    assert presence_of(ana, 1) == [False, True]  # ... the seat held again
    stream.close()


def test_a_seat_that_only_acts_is_told_gone_after_the_grace_with_no_one_asking(store, clock):
    """An app that posts its move and leaves (no stream, no wait): the sweeper tells the table
    35 s after its last action (5 s of presence, then the grace), no client reading the game."""
    client = make_app(store, clock).test_client()
    created = create(client, [HUMAN, HUMAN], {"deck_seed": "presence: no tied cut"})
    ana = Player.creator(client, created)
    bea = Player.joining(client, ana.game_id, created["invites"][0]["code"])
    sweeper = Sweeper(GameTable(store, clock), period=0)
    clock.advance(10)
    bea.act({"type": "cut_for_deal", "depth": 10})
    clock.advance(34.9)
    sweeper.sweep()
    assert [event["type"] for event in bea.events().get_json()["events"]
            if event["type"] == "presence"] == ["presence"]  # Ana's (gone since 35 s)
    assert presence_of(ana, 1) == []
    clock.advance(0.2)
    assert sweeper.sweep() == 1
    assert presence_of(ana, 1) == [False]
    assert ana.read()["seats"][1]["connected"] is False
