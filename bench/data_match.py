"""`hard` on another file of two-player win-model data against `hard` on the shipped file, on
bench/match.py's duplicate deals (two-player games to 121, seats swapped, luck cancelled).

The win model (service/bots/win_probability.py reads service/bots/data/deal_scores_2.json)
decides `hard`'s discards and plays near the end of a game. To play both files in one game, the
modules that read it (win_probability, and side_race, discard_choice, endgame, pegging and the
computer players, which reach it) are loaded a second time under other names, the copy of
win_probability reading the other file; the first player is the copies' `hard`. Both players
are `hard`'s code; only the data differ.

    python bench/data_match.py NEW_DATA.json [--deals 1000] [--workers 2] [--salt bench-match]

The first player of the printed match is `hard-new-data` (the file given), the second `hard`.
"""
from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from types import ModuleType, SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.match import play_deal, summarise  # noqa: E402
from service.simulation.selfplay import PLAYERS  # noqa: E402

BOTS = Path(__file__).resolve().parents[1] / "service" / "bots"
NEW = "hard-new-data"


def _second_copy(name: str, **bound) -> ModuleType:
    """service.bots.`name` loaded again as its own module, then given the names in `bound` in
    place of what its imports bound (its functions read their globals when called)."""
    path = BOTS / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"service.bots._other_data_{name}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    for attribute, value in bound.items():
        setattr(module, attribute, value)
    return module


def modules_on(data: Path) -> SimpleNamespace:
    """Second copies of the modules that reach the two-player win model, reading `data`, up to
    the computer players (service.bots.players), whose `hard` then reads it."""
    win_probability = _second_copy("win_probability")
    win_probability.DATA = data
    side_race = _second_copy("side_race", win_probability=win_probability,
                             PositionError=win_probability.PositionError,
                             PositionValue=win_probability.PositionValue)
    discard_choice = _second_copy("discard_choice", win_probability=win_probability,
                                  side_race=side_race)
    endgame = _second_copy("endgame", win_probability=win_probability, side_race=side_race)
    pegging = _second_copy("pegging", AfterPlay=endgame.AfterPlay,
                           after_play=endgame.after_play, in_endgame=endgame.in_endgame)
    levels = _second_copy("players", rank_discards=discard_choice.rank_discards,
                          analyse_play=pegging.analyse_play)
    return SimpleNamespace(win_probability=win_probability, discard_choice=discard_choice,
                           pegging=pegging, players=levels)


def hard_on(data: Path):
    """`hard`, its win model reading `data`."""
    return modules_on(data).players.LEVELS["hard"]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path, help="the other deal_scores_2.json")
    parser.add_argument("--deals", type=int, default=1000, help="duplicate deals (2 games each)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--salt", default="bench-match")
    args = parser.parse_args(argv)
    PLAYERS[NEW] = hard_on(args.data.resolve())  # before the pool forks: its workers have it
    jobs = [(NEW, "hard", index, 121, args.salt) for index in range(args.deals)]
    started = time.perf_counter()
    with Pool(args.workers) as pool:
        deals = list(pool.imap(play_deal, jobs, chunksize=10))
    print(f"{NEW}: hard on {args.data}")
    print(summarise(NEW, "hard", deals, time.perf_counter() - started))


if __name__ == "__main__":
    main()
