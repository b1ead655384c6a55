"""Idle waiters cost Redis nothing: a stream on a game that does not change, and a client asking
a long poll again and again, send no command once they wait (their seats held, their games
subscribed and read). Counted on a Redis of the test's own with INFO commandstats."""

from __future__ import annotations

import threading
import time

from service.games import Games, GameTable
from service.store import RedisGameStore
from tests.games.conftest import make_app
from tests.games.test_live import two_humans

WINDOW = 3.0   # seconds counted
POLL_WAIT = 0.2  # each long poll's wait: many rounds in the window


def commands(redis) -> int:
    """Commands Redis has run (those a script runs included), less the INFO that asks."""
    stats = redis.cli("INFO", "commandstats")
    return sum(int(line.split("calls=")[1].split(",")[0]) for line in stats.splitlines()
               if line.startswith("cmdstat_") and not line.startswith("cmdstat_info:"))


def test_idle_streams_and_long_polls_send_no_redis_command(dedicated_redis):
    store = RedisGameStore(dedicated_redis.url, 3600)
    games = Games(GameTable(store))
    client = make_app(store).test_client()
    polled, streamed = two_humans(client), two_humans(client)
    stop = threading.Event()
    polls = [0, 0]

    def poll(seat: int) -> None:
        player = polled[seat]
        after = player.read()["last_event"]
        while not stop.is_set():
            assert games.events(player.game_id, player.token, after, POLL_WAIT).events == ()
            polls[seat] += 1

    def follow(seat: int) -> None:
        player = streamed[seat]
        items = games.follow(player.game_id, player.token, None)
        next(items)  # the snapshot; then the stream waits for the game to change
        for page in items:
            if stop.is_set():
                break
        items.close()

    threads = [threading.Thread(target=target, args=(seat,))
               for target in (poll, follow) for seat in (0, 1)]
    for thread in threads:
        thread.start()
    time.sleep(1.0)  # every waiter has read its game, subscribed and taken its seat
    before, polls_before = commands(dedicated_redis), sum(polls)
    time.sleep(WINDOW)
    sent, rounds = commands(dedicated_redis) - before, sum(polls) - polls_before
    stop.set()
    streamed[0].act({"type": "cut_for_deal", "depth": 10})  # wakes the streams to end
    for thread in threads:
        thread.join(10)
    assert rounds >= 2 * WINDOW / POLL_WAIT * 0.8  # the long polls went round all along
    assert sent == 0
    store.close()
