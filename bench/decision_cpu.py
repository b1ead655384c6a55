"""CPU per `hard` decision, discards and plays, 2-6 players, from a fresh process and warm.

    python bench/decision_cpu.py [--games 6] [--players 2 3 4 5 6] [--kinds play discard]
                                 [--level hard]

The decisions come from games between `medium` players (from --seed; they do not search):
every discard, and every play with two or more cards that fit, as the seat saw it. Each
(kind, player count) is timed in fresh processes of its own, by the process's CPU time (the
machine is shared; wall time would count the others' work):
- cold: a fresh process times the decisions of --games games in order, its caches filling as
  a fresh compute worker's do; `first` is the CPU of the process's first decision alone;
- warm: a fresh process first makes the decisions of as many other games (another seed), then
  times the same decisions as cold.
Prints p50, p99 and mean in milliseconds, and with --json one JSON line per row. --level times
another player of bench/match.py's (a yardstick such as hard-sim-4x200) instead of `hard`.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from service.bots import LEVELS  # noqa: E402
from service.engine import (GameOptions, LegalDiscard, LegalPlay, apply, new_game,  # noqa: E402
                            to_act, view)
from service.simulation.selfplay import PLAYERS  # noqa: E402


def decisions(kind: str, players: int, games: int, seed: str) -> list:
    """(view, legal option) of every `kind` decision `medium` players meet in `games` games."""
    found = []
    rng = random.Random(seed)
    wanted = LegalPlay if kind == "play" else LegalDiscard
    for game in range(games):
        state = new_game(GameOptions(players=players), f"{seed}:{players}:{game}".encode())
        while state.phase != "game_over":
            seat = to_act(state)[0]
            seat_view = view(state, seat)
            legal = next((o for o in seat_view.legal_actions if isinstance(o, wanted)), None)
            if legal is not None and (kind == "discard" or len(legal.cards) > 1):
                found.append((seat_view, legal))
            state, _ = apply(state, LEVELS["medium"].choose(seat_view, rng), 0.0)
    return found


def decide(level: str, kind: str, seat_view, legal) -> None:
    player = PLAYERS[level]
    rng = random.Random(0)  # `hard` draws nothing from it; the search seeds its own
    if kind == "play":
        player.play(seat_view, legal.cards, rng)
    else:
        player.discard(seat_view, legal.cards, legal.count, rng)


def timed(level: str, kind: str, found: list) -> list[float]:
    cpu = []
    for seat_view, legal in found:
        started = time.process_time()
        decide(level, kind, seat_view, legal)
        cpu.append(time.process_time() - started)
    return cpu


def child(level: str, kind: str, players: int, games: int, seed: str, warm: bool) -> dict:
    found = decisions(kind, players, games, seed)
    if warm:
        timed(level, kind, decisions(kind, players, games, seed + ":warm-up"))
    cpu = timed(level, kind, found)
    ms = sorted(s * 1000 for s in cpu)
    return {"kind": kind, "players": players, "mode": "warm" if warm else "cold", "n": len(ms),
            "p50": statistics.median(ms), "p99": ms[min(len(ms) - 1, round(0.99 * (len(ms) - 1)))],
            "mean": statistics.fmean(ms), "first": cpu[0] * 1000}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="games per player count")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 5, 6])
    parser.add_argument("--kinds", nargs="+", default=["play", "discard"],
                        choices=["play", "discard"])
    parser.add_argument("--seed", default="bench-decision")
    parser.add_argument("--level", default="hard", choices=sorted(PLAYERS))
    parser.add_argument("--json", action="store_true", help="also print each row as JSON")
    parser.add_argument("--child", nargs=2, metavar=("KIND", "MODE"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        kind, mode = args.child
        print(json.dumps(child(args.level, kind, args.players[0], args.games, args.seed,
                               mode == "warm")))
        return
    for kind in args.kinds:
        for players in args.players:
            for mode in ("cold", "warm"):
                done = subprocess.run(
                    [sys.executable, __file__, "--child", kind, mode, "--players", str(players),
                     "--games", str(args.games), "--seed", args.seed, "--level", args.level],
                    check=True, capture_output=True, text=True)
                row = json.loads(done.stdout)
                print(f"{kind:<8} {players} players {mode:<5} n={row['n']:<5} "
                      f"p50 {row['p50']:7.2f} ms   p99 {row['p99']:7.2f} ms   "
                      f"mean {row['mean']:7.2f} ms   first {row['first']:7.2f} ms", flush=True)
                if args.json:
                    print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
