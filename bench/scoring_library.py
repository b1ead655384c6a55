"""Hands scored per second by the library, and the time of the full enumeration.

Prints, best of `--repeat` timings each (the machine may be shared):
- service.scoring.score_show, show_combinations (the itemised count by card positions, what
  POST /v1/show/score uses) and show_points, one call per hand, their caches by ranks warm as
  in a running service;
- service.scoring.fast.score_hands, vectorised: one starter per hand, and every starter per hand;
- the full enumeration: all 270,725 hands x 48 starters = 12,994,800 shows scored as hands and
  as cribs, with both histograms (what tests/test_exhaustive.py runs).

    python bench/scoring_library.py [--repeat 3]
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from service.scoring import fast  # noqa: E402
from service.cards import DECK  # noqa: E402
from service.scoring import score_show, show_combinations, show_points  # noqa: E402

CHUNK = 16_384


def best_time(function, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def random_shows(count: int, seed: int = 1) -> np.ndarray:
    """[count, 5] card indexes: four hand cards and a starter, all distinct."""
    return np.argsort(np.random.default_rng(seed).random((count, 52)), axis=1)[:, :5]


def full_enumeration() -> tuple[np.ndarray, np.ndarray]:
    hand_counts = np.zeros(30, dtype=np.int64)
    crib_counts = np.zeros(30, dtype=np.int64)
    every_hand = fast.all_hands()
    for start in range(0, len(every_hand), CHUNK):
        hands = every_hand[start:start + CHUNK]
        starters = fast.starters_for(hands)
        hand_counts += np.bincount(fast.score_hands(hands, starters).ravel(), minlength=30)
        crib_counts += np.bincount(fast.score_hands(hands, starters, crib=True).ravel(),
                                   minlength=30)
    return hand_counts, crib_counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="timings per figure; best is shown")
    repeat = parser.parse_args().repeat

    start = time.perf_counter()
    fast.rank_points_table(5)
    print(f"fastscore 5-card rank table built in {1e3 * (time.perf_counter() - start):.0f} ms")

    shows = random_shows(20_000)
    cards = [([DECK[card] for card in show[:4]], DECK[show[4]]) for show in shows.tolist()]
    for name, score in (("score_show", score_show), ("show_combinations", show_combinations),
                        ("show_points", show_points)):
        for hand, starter in cards:  # warm the caches by ranks
            score(hand, starter)
        seconds = best_time(lambda: [score(hand, starter) for hand, starter in cards], repeat)
        print(f"scoring.{name:<17} per call {len(cards) / seconds:>13,.0f} hands/s")

    shows = random_shows(1_000_000, seed=2)
    hands, starters = shows[:, :4].copy(), shows[:, 4].copy()
    seconds = best_time(lambda: fast.score_hands(hands, starters), repeat)
    print(f"fast.score_hands one starter each {len(shows) / seconds:>13,.0f} hands/s")

    hands = fast.all_hands()[:CHUNK * 8]
    starters = fast.starters_for(hands)
    seconds = best_time(lambda: [fast.score_hands(hands[start:start + CHUNK],
                                                       starters[start:start + CHUNK])
                                 for start in range(0, len(hands), CHUNK)], repeat)
    print(f"fast.score_hands 48 starters each {starters.size / seconds:>13,.0f} hands/s")

    seconds = best_time(full_enumeration, repeat)
    hand_counts, crib_counts = full_enumeration()
    shows = int(hand_counts.sum())
    print(f"full enumeration, {shows:,} shows as hands and as cribs: {seconds:.3f} s "
          f"({2 * shows / seconds:,.0f} scores/s)")
    print(f"  hand histogram {hand_counts.tolist()}, mean "
          f"{(hand_counts * np.arange(30)).sum() / shows:.6f}")
    print(f"  crib histogram {crib_counts.tolist()}")


if __name__ == "__main__":
    main()
