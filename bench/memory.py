"""Bytes per game: in Redis (MEMORY USAGE of each key of a game) and in the embedded store
(the process's resident size with the store holding `--cap` games).

Redis: starts a redis-server on a free loopback port and plays `--games` two-player games to
121 through the app (Flask test client, rate limits off), the join and every action sent with
an Idempotency-Key: two humans (first legal action each) and a human against a computer. It
sums `MEMORY USAGE <key> SAMPLES 0` over the game's keys when the game is fresh (created, and
for two humans also joined), mid-game (a score first reaches 61) and finished (game over), and
prints the mean and the largest of each, then a finished game's keys one by one and their TTLs.

Embedded store: plays the same kinds of games on a MemoryGameStore, records every create and
save it receives, then in a fresh process replays them under new game ids (every string a new
copy, so no game shares memory with another) until the store holds `--cap` games, and prints
the process's VmRSS before and after, and per game; finished games and games stopped mid-game
(live) separately, and what one more game past the cap does.

    python bench/memory.py [--games 10] [--cap 5000]
"""

from __future__ import annotations

import argparse
import gc
import pickle
import subprocess
import sys
import tempfile
from pathlib import Path
from statistics import mean

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from service.api import create_app  # noqa: E402
from service.config import Settings  # noqa: E402
from service.store import MemoryGameStore, RedisGameStore  # noqa: E402
from tests.games.helpers import COMPUTER, HUMAN, Player, create, first_legal  # noqa: E402
from tests.redis_servers import RedisServer  # noqa: E402

KINDS = {"two humans": [HUMAN, HUMAN], "human v computer": [HUMAN, COMPUTER]}
MIDWAY = 61


# Playing -----------------------------------------------------------------------------------------
def play(client, seats, measure) -> None:
    """One game to 121, every request with an Idempotency-Key; `measure(stage, game_id)` at
    "fresh", "joined", "mid" and "finished"."""
    created = create(client, seats)
    game_id = created["game_id"]
    measure("fresh", game_id)
    players = [Player.creator(client, created)]
    for invite in created["invites"]:
        response = client.post(f"/v1/games/{game_id}/join", json={"code": invite["code"]},
                               headers={"Idempotency-Key": f"join-{invite['seat']}"})
        body = response.get_json()
        players.append(Player(client, game_id, body["token"], body["seat"]))
        measure("joined", game_id)
    game, midway = players[0].read(), False
    while game["view"]["phase"] != "game_over":
        seat = game["view"]["to_act"][0]
        player = next(p for p in players if p.seat == seat)
        view = player.read()["view"]
        game = player.act(first_legal(view), Idempotency_Key=f"act-{view['version']}")
        if not midway and max(game["view"]["scores"]) >= MIDWAY:
            midway = True
            measure("mid", game_id)
    measure("finished", game_id)


def app_on(store):
    settings = Settings(rate_limit_enabled=False, max_live_games_per_client=0)
    return create_app({"TESTING": True, "GAME_STORE": store, "SETTINGS": settings})


# Redis -------------------------------------------------------------------------------------------
def redis_sizes(games: int) -> None:
    server = RedisServer().start()
    settings = Settings()
    store = RedisGameStore(server.url, settings.game_ttl_seconds,
                           finished_ttl_seconds=settings.finished_game_ttl_seconds)
    try:
        client = app_on(store).test_client()
        redis = store._connect()
        for kind, seats in KINDS.items():
            sizes: dict[str, list[int]] = {}
            last: dict[str, tuple[int, int]] = {}

            def measure(stage: str, game_id: str) -> None:
                keys = sorted(redis.scan_iter(match=f"cribbage:{{{game_id}}}:*"))
                usage = {key.split(":", 2)[2]: (redis.memory_usage(key, samples=0),
                                                redis.ttl(key)) for key in keys}
                sizes.setdefault(stage, []).append(sum(size for size, _ in usage.values()))
                if stage == "finished":
                    last.clear()
                    last.update(usage)

            for _ in range(games):
                play(client, seats, measure)
            print(f"Redis, {kind}, {games} games to 121 (bytes per game, mean / largest):")
            for stage, values in sizes.items():
                print(f"  {stage:9} {mean(values):9,.0f} / {max(values):,}")
            print("  the last finished game's keys (bytes, TTL s):")
            for key, (size, ttl) in last.items():
                print(f"    {key:12} {size:8,} {ttl:9,}")
    finally:
        store.close()
        server.remove()


# Embedded store ----------------------------------------------------------------------------------
class RecordingStore(MemoryGameStore):
    """A MemoryGameStore that keeps the arguments of every create and save, by game."""

    def __init__(self):
        super().__init__(Settings().game_ttl_seconds)
        self.calls: dict[str, list[tuple[str, tuple, dict]]] = {}

    def create(self, game_id, *args, **kwargs):
        self.calls.setdefault(game_id, []).append(("create", args, kwargs))
        return super().create(game_id, *args, **kwargs)

    def save(self, game_id, *args, **kwargs):
        self.calls.setdefault(game_id, []).append(("save", args, kwargs))
        return super().save(game_id, *args, **kwargs)


def templates(games: int) -> dict[str, list]:
    """The store calls of finished games and of the same games stopped mid-game (live)."""
    finished, live = [], []
    for seats in KINDS.values():
        store = RecordingStore()
        client = app_on(store).test_client()
        stops: dict[str, int] = {}

        def measure(stage: str, game_id: str) -> None:
            if stage == "mid":
                stops[game_id] = len(store.calls[game_id])

        for _ in range(games):
            play(client, seats, measure)
        for game_id, calls in store.calls.items():
            finished.append(calls)
            live.append(calls[:stops[game_id]])
    return {"finished": finished, "live": live}


def fresh(value):
    """A copy of `value` that shares no string with it."""
    if isinstance(value, str):
        return value.encode().decode()
    if isinstance(value, (list, tuple)):
        return type(value)(fresh(item) for item in value)
    if isinstance(value, dict):
        return {fresh(k): fresh(v) for k, v in value.items()}
    return value


def rss_kib() -> int:
    gc.collect()
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def fill(path: str, which: str, cap: int) -> None:
    """In a fresh process: replay the templates into one store until it holds `cap` games."""
    calls = pickle.loads(Path(path).read_bytes())[which]
    settings = Settings()
    store = MemoryGameStore(settings.game_ttl_seconds, max_games=cap,
                            finished_ttl_seconds=settings.finished_game_ttl_seconds)
    before = rss_kib()
    for number in range(cap + 1):
        game_id = f"{number:016d}"
        try:
            for method, args, kwargs in calls[number % len(calls)]:
                getattr(store, method)(game_id, *fresh(args), **fresh(kwargs))
        except Exception as error:  # noqa: BLE001: what the store does past its cap
            past = type(error).__name__
            break
        if number == cap - 1:
            after = rss_kib()
    else:
        past = "accepted" if len(store._games) > cap else "accepted, one evicted"
    print(f"  {which:8} {cap:,} games: RSS {before / 1024:,.1f} MiB before, "
          f"{after / 1024:,.1f} MiB at the cap, {(after - before) * 1024 / cap:,.0f} bytes "
          f"per game; one more game: {past}")


def embedded_sizes(games: int, cap: int) -> None:
    with tempfile.NamedTemporaryFile(suffix=".pickle") as handle:
        handle.write(pickle.dumps(templates(games)))
        handle.flush()
        print(f"Embedded store at its cap ({games} games of each kind, cloned):")
        for which in ("finished", "live"):
            subprocess.run([sys.executable, __file__, "--fill", handle.name, which, str(cap)],
                           check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--cap", type=int, default=Settings().memory_max_games)
    parser.add_argument("--fill", nargs=3, metavar=("PICKLE", "WHICH", "CAP"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.fill:
        path, which, cap = args.fill
        fill(path, which, int(cap))
        return
    redis_sizes(args.games)
    embedded_sizes(args.games, args.cap)


if __name__ == "__main__":
    main()
