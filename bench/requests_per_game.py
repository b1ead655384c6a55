"""How many requests a game takes, and whether the default rate limits let one client address
play game after game.

Starts gunicorn (deploy/gunicorn.conf.py, the embedded store, every rate limit at its default)
on a free loopback port; one scripted client (tests/ops/scripted_client.py: the first legal
action with If-Match and an Idempotency-Key, then the events that followed, on one keep-alive
connection) plays `--games` two-player games against a computer seat, one after another. Prints
requests per game (min, median, max), the answers by status (a 429 would be a refusal), the
client's requests per minute, and what the last answer's RateLimit headers said.

    python bench/requests_per_game.py [--games 20] [--max-seconds 600]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from statistics import median

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.ops.gunicorn_server import GunicornServer  # noqa: E402
from tests.ops.scripted_client import ScriptedClient  # noqa: E402

DEFAULT_LIMITS = {"CRIBBAGE_REDIS_URL": None, "CRIBBAGE_RATE_LIMIT": None,
                  "CRIBBAGE_ACTION_RATE_LIMIT": None, "CRIBBAGE_TOKEN_RATE_LIMIT": None,
                  "CRIBBAGE_RATE_LIMIT_ENABLED": None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--max-seconds", type=float, default=600.0,
                        help="stop starting new games after this long")
    args = parser.parse_args()
    server = GunicornServer(DEFAULT_LIMITS, workers=None, threads=None).start()
    client = ScriptedClient(server.port)
    per_game = []
    started = time.monotonic()
    try:
        while len(per_game) < args.games and time.monotonic() - started < args.max_seconds:
            per_game.append(client.play_game())
        elapsed = time.monotonic() - started
        _, headers, _ = client.call("GET", "/v1/ping")
    finally:
        client.close()
        server.stop()
    print(f"games played: {len(per_game)} in {elapsed:.1f} s")
    print(f"requests per game: min {min(per_game)}, median {median(per_game)}, "
          f"max {max(per_game)} (create, then per decision one action and one events read)")
    print(f"answers by status: {dict(sorted(client.statuses.items()))}")
    print(f"client's pace: {sum(per_game) / elapsed * 60:.0f} requests/minute")
    print(f"last RateLimit-Policy: {headers.get('RateLimit-Policy')}")
    print(f"last RateLimit: {headers.get('RateLimit')}")


if __name__ == "__main__":
    main()
