"""Post-game analysis: the time to analyse a whole game, in process, by table.

    python bench/postgame.py [--games 3] [--seed postgame]

For each table (two players; four in two teams) --games games to 121 between `medium` players
are played (no search: the analysis' caches start as cold as in a fresh worker, but for the
crib tables and the win table, loaded once before timing), and every hand of each is analysed
as `GET /v1/games/{id}/analysis` does once the game is over (service.games.analysis with an
empty hand cache), then a second time from the filled cache. Prints, per table, the decisions
per game and the wall and CPU seconds per game, cold and cached. Under a minute on a laptop.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from service.bots import LEVELS  # noqa: E402
from service.bots.discard import analyse_discard  # noqa: E402
from service.bots.win_probability import IN_GAME_REACH, win_table  # noqa: E402
from service.cards import Card  # noqa: E402
from service.engine import Event, GameOptions, apply, start_game, to_act, view  # noqa: E402
from service.games.analysis import HandCache, game_analysis  # noqa: E402

TABLES = {"2 players": GameOptions(), "4 players, 2x2": GameOptions(players=4, teams="2x2")}


def game_events(options: GameOptions, seed: str) -> list[Event]:
    """A finished game between `medium` players, its events as the store gives them back."""
    state, events = start_game(options, seed.encode())
    rng = random.Random(seed)
    while not state.over:
        seat = to_act(state)[0]
        state, produced = apply(state, LEVELS["medium"].choose(view(state, seat), rng), 0.0)
        events += produced
    return [Event.from_dict(json.loads(json.dumps(event.to_dict()))) for event in events]


def timed(options: GameOptions, events: list[Event], cache: HandCache) -> tuple[float, float, int]:
    wall, cpu = time.perf_counter(), time.process_time()
    analysis = game_analysis("bench", None, options, events, True, cache)
    return time.perf_counter() - wall, time.process_time() - cpu, len(analysis.decisions)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", default="postgame")
    args = parser.parse_args()
    analyse_discard(tuple(Card.parse(c) for c in "5H 5S JD 6C 4H KS".split()), own_crib=True)
    win_table(IN_GAME_REACH)
    print(f"{'table':16} {'decisions':>9} {'cold wall s':>11} {'cold cpu s':>10} "
          f"{'cached ms':>9}   (per game, mean of {args.games})")
    for name, options in TABLES.items():
        rows = []
        for game in range(args.games):
            events = game_events(options, f"{args.seed}:{name}:{game}")
            cache = HandCache()
            wall, cpu, decisions = timed(options, events, cache)
            cached, _, _ = timed(options, events, cache)
            rows.append((decisions, wall, cpu, cached))
        decisions, wall, cpu, cached = (statistics.mean(column) for column in zip(*rows))
        print(f"{name:16} {decisions:9.0f} {wall:11.2f} {cpu:10.2f} {cached * 1000:9.1f}")


if __name__ == "__main__":
    main()
