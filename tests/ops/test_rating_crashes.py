"""A worker killed while rated games end: every rating is counted exactly once.

Three server processes (one worker each) share a Redis, standalone or a 3-master Cluster.
Pairs of players each play one rated game; every loser resigns at once, all through the first
server, whose worker is SIGKILLed while those games end. A game whose end was saved but whose
counting was cut off is finished by a sweeper (the others' or the restarted worker's) once it is
due (service.games.results.SETTLE_AFTER); a resignation whose response was lost is sent again.
In the end every winner shows the rating of one win and every loser of one loss, each game
named once among the player's settled games, its stats one game.
"""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest

from service.games.players import player_from
from service.games.record import GameRecord
from service.store import RedisGameStore
from tests.ops.faults import servers_on

PAIRS = 40
WIN = {"format": "2", "rating": 1069, "change": 69, "provisional": True, "games": 1}
LOSS = {"format": "2", "rating": 963, "change": -37, "provisional": True, "games": 1}


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


@pytest.mark.parametrize("backend", ["redis", "cluster"])
def test_a_worker_killed_while_games_end_leaves_every_rating_counted_once(backend, request):
    server = request.getfixturevalue("redis_server" if backend == "redis" else "redis_cluster")
    cluster = backend == "cluster"
    with servers_on(server.url, count=3, workers=1, cluster=cluster,
                    env={"CRIBBAGE_SWEEP_SECONDS": "1"}) as servers:
        first = servers[0]
        games = [_rated_game(servers[n % 3]) for n in range(PAIRS)]
        answered: list[int] = []

        def resign(game_id: str, loser: str) -> None:
            try:
                status, _, _ = first.request("POST", f"/v1/games/{game_id}/actions",
                                             {"type": "resign"}, bearer(loser), timeout=10)
                answered.append(status)
            except OSError:
                answered.append(0)   # cut off with the worker

        threads = [threading.Thread(target=resign, args=(game_id, loser))
                   for game_id, _, loser in games]
        for thread in threads:
            thread.start()
        while not answered:
            time.sleep(0.001)
        os.kill(first.worker_pids()[0], signal.SIGKILL)
        for thread in threads:
            thread.join()
        store = RedisGameStore(server.url, 3600, cluster=cluster)
        try:
            records = [GameRecord.from_json(store.load(game_id).data)
                       for game_id, _, _ in games]
            ended = sum(record.ended for record in records)
            unsettled = sum(record.settling is not None for record in records)
            print(f"{backend}: {answered.count(200)} of {PAIRS} resignations answered, "
                  f"{ended} games ended, {unsettled} left uncounted by the kill")
            for (game_id, _, loser), record in zip(games, records):  # retry the lost ones
                if not record.ended:
                    status, _, _ = servers[1].request("POST", f"/v1/games/{game_id}/actions",
                                                      {"type": "resign"}, bearer(loser))
                    assert status == 200
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and any(
                    GameRecord.from_json(store.load(game_id).data).settling is not None
                    for game_id, _, _ in games):
                time.sleep(0.5)
            for game_id, winner, loser in games:
                record = GameRecord.from_json(store.load(game_id).data)
                assert record.result is not None and record.result.settled
                for token, expected in ((winner, WIN), (loser, LOSS)):
                    status, _, profile = servers[2].request("GET", "/v1/players/me", None,
                                                            bearer(token))
                    assert (status, profile["ratings"]) == (200, [expected])
                    assert profile["stats"][0]["games"] == 1
                for seat in record.seats:
                    stored = store.load_player(seat.player_hash, 3600)
                    assert player_from(seat.player_hash, stored).settled == (game_id,)
        finally:
            store.close()


def _rated_game(server) -> tuple[str, str, str]:
    """A rated game between two new players: (game id, winner's token, loser's token)."""
    tokens = [server.request("POST", "/v1/players", {})[2]["token"] for _ in range(2)]
    status, _, created = server.request("POST", "/v1/games", {
        "seats": [{"kind": "human"}, {"kind": "human"}], "rated": True}, bearer(tokens[0]))
    assert status == 201, created
    status, _, joined = server.request("POST", f"/v1/games/{created['game_id']}/join",
                                       {"code": created["invites"][0]["code"]},
                                       bearer(tokens[1]))
    assert status == 200, joined
    return created["game_id"], tokens[0], tokens[1]
