"""What players cost: listing a player's games, and reading a game with the player token
instead of the seat token.

For the embedded store and a redis-server it starts on a free loopback port, through the app
(Flask test client, rate limits off): one player creates `--games` games against a computer
(each counts among its games), then the script times `GET /v1/players/me/games` (`--lists`
times) and `GET /v1/games/{id}` with the seat token and with the player token, alternating
(`--reads` each), and prints the median and 90th percentile of each in milliseconds. A lobby
loads every listed game once (one round trip each on Redis), so its time grows with the games.

    python bench/players.py [--games 20 100] [--lists 50] [--reads 300]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from statistics import median, quantiles

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from service.api import create_app  # noqa: E402
from service.config import Settings  # noqa: E402
from service.store import MemoryGameStore, RedisGameStore  # noqa: E402
from tests.games.helpers import COMPUTER, HUMAN  # noqa: E402
from tests.redis_servers import RedisServer  # noqa: E402


def timed(call) -> float:
    started = time.perf_counter()
    response = call()
    elapsed = (time.perf_counter() - started) * 1000
    assert response.status_code == 200, response.get_json()
    return elapsed


def figures(samples: list[float]) -> str:
    return f"p50 {median(samples):6.2f} ms, p90 {quantiles(samples, n=10)[-1]:6.2f} ms"


def measure(store, games: int, lists: int, reads: int) -> None:
    settings = Settings(rate_limit_enabled=False, max_live_games_per_client=0,
                        max_live_games_per_player=0)
    client = create_app({"TESTING": True, "GAME_STORE": store, "SETTINGS": settings}).test_client()
    player = client.post("/v1/players", json={"name": "Ana"}).get_json()
    by_player = {"Authorization": f"Bearer {player['token']}"}
    created = [client.post("/v1/games", headers=by_player,
                           json={"seats": [HUMAN, COMPUTER]}).get_json() for _ in range(games)]
    lobby = [timed(lambda: client.get("/v1/players/me/games", headers=by_player))
             for _ in range(lists)]
    game = f"/v1/games/{created[0]['game_id']}"
    by_seat = {"Authorization": f"Bearer {created[0]['token']}"}
    seat_reads, player_reads = [], []
    for _ in range(reads):
        seat_reads.append(timed(lambda: client.get(game, headers=by_seat)))
        player_reads.append(timed(lambda: client.get(game, headers=by_player)))
    print(f"  {games:4d} games: list {figures(lobby)}")
    print(f"             read with the seat token   {figures(seat_reads)}")
    print(f"             read with the player token {figures(player_reads)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[20, 100])
    parser.add_argument("--lists", type=int, default=50)
    parser.add_argument("--reads", type=int, default=300)
    options = parser.parse_args()
    print("embedded store")
    for games in options.games:
        measure(MemoryGameStore(3600), games, options.lists, options.reads)
    server = RedisServer().start()
    try:
        print("Redis")
        for games in options.games:
            store = RedisGameStore(server.url, 3600)
            measure(store, games, options.lists, options.reads)
            store.close()
    finally:
        server.remove()


if __name__ == "__main__":
    main()
