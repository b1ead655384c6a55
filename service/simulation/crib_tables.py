"""Make the discard tables of the role-aware crib (service/bots/data/crib_tables.json).

    python -m service.simulation.crib_tables [--hands 6000] [--iterations 3] [--seed crib-1]

Method, as the published equilibrium tables were made: start from uniform tables (every
discard equally likely). In each iteration, for every layout (2-6 players, and teams) and role
(`own`: discards into its own side's crib; `other`: into another side's), deal `hands` hands
of that seat's size from a full deck and let `hard`'s discard analysis choose, valuing the crib
with the previous iteration's tables; count the rank multiset each one discards. The counts are
the next tables. The change between iterations (total variation distance of each table) is
printed and stored; the tables settle when it is down to the sampling noise.

Every batch of `BATCH` hands has its own seed (seed, layout, role, iteration, batch), so the
output is reproducible and any batch can be re-run alone: tests/bots/test_crib_model.py
re-runs the first batch of the last iteration and checks it against the stored counts.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from itertools import combinations_with_replacement

import numpy as np

from service.bots.crib_model import (DATA, ROLES, CribTables, cards_per_seat, crib_fillers,
                                     layout_key)
from service.bots.discard import analyse_discard, deal_shape
from service.cards import DECK

LAYOUTS = ((2, None), (3, None), (4, None), (4, "2x2"), (5, None), (6, None), (6, "3x2"),
           (6, "2x3"))
BATCH = 200


def roles_of(players: int, teams: str | None) -> tuple[str, ...]:
    """The roles that discard in a layout (with 5-6 players and no teams only `other` does)."""
    return tuple(role for role in ROLES if _discards(players, teams, role))


def _discards(players: int, teams: str | None, role: str) -> bool:
    if role == "other":
        return True
    roles, _ = crib_fillers(players, teams, own_crib=False, discards=1)
    return "own" in roles


def _hand_size(players: int) -> int:
    return deal_shape(players, dealer=False).dealt  # a discarding seat's hand, either role


def batch_counts(tables: CribTables, players: int, teams: str | None, role: str, seed: str,
                 iteration: int, batch: int) -> list[int]:
    """How often each rank multiset is discarded in one batch of hands."""
    size = cards_per_seat(players)
    index = {ranks: row for row, ranks in
             enumerate(combinations_with_replacement(range(1, 14), size))}
    counts = [0] * len(index)
    rng = random.Random(f"{seed}:{layout_key(players, teams)}:{role}:{iteration}:{batch}")
    for _ in range(BATCH):
        hand = rng.sample(DECK, _hand_size(players))
        best = analyse_discard(hand, players=players, own_crib=role == "own", teams=teams,
                               tables=tables)[0]
        counts[index[tuple(sorted(card.rank for card in best.discard))]] += 1
    return counts


def build(hands: int, iterations: int, seed: str, log=print) -> dict:
    batches = max(1, hands // BATCH)
    tables = CribTables.uniform(LAYOUTS)
    history: dict = {layout_key(*layout): {} for layout in LAYOUTS}
    counts: dict = {}
    for iteration in range(1, iterations + 1):
        counts = {}
        for players, teams in LAYOUTS:
            key = layout_key(players, teams)
            counts[key] = {}
            for role in roles_of(players, teams):
                started = time.perf_counter()
                per_batch = [batch_counts(tables, players, teams, role, seed, iteration, batch)
                             for batch in range(batches)]
                total = np.sum(per_batch, axis=0)
                counts[key][role] = total.tolist()
                chance = total / total.sum()
                change = 0.5 * float(np.abs(chance - tables.chance(players, teams, role)).sum())
                history[key].setdefault(role, []).append(
                    {"iteration": iteration, "counts": total.tolist(),
                     "first_batch": per_batch[0], "change": round(change, 4)})
                log(f"iteration {iteration} {key:>5} {role:<5} change {change:.4f} "
                    f"({time.perf_counter() - started:.0f} s)")
        tables = CribTables.from_counts(counts)
    return {"about": __doc__.splitlines()[0], "command": " ".join(sys.argv),
            "seed": seed, "hands": batches * BATCH, "batch": BATCH, "iterations": iterations,
            "tables": counts, "history": history}


def tables_before(data: dict, iteration: int) -> CribTables:
    """The tables the given iteration valued the crib with (uniform for the first)."""
    if iteration == 1:
        return CribTables.uniform(LAYOUTS)
    return CribTables.from_counts({
        key: {role: steps[iteration - 2]["counts"] for role, steps in by_role.items()}
        for key, by_role in data["history"].items()})


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=6000, help="hands per layout, role and "
                        "iteration (rounded down to whole batches)")
    parser.add_argument("--iterations", type=int, default=3)
    parser.add_argument("--seed", default="crib-1")
    parser.add_argument("--output", default=str(DATA))
    args = parser.parse_args(argv)
    data = build(args.hands, args.iterations, args.seed)
    with open(args.output, "w") as out:
        json.dump(data, out, separators=(",", ":"))
        out.write("\n")


if __name__ == "__main__":
    main()
