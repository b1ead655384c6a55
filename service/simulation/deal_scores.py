"""Make the per-deal score distributions of the win probability (service/bots/data/deal_scores_2.json).

    python -m service.simulation.deal_scores [--games 60] [--level hard] [--seed deals-1]

Two-player self-play of one level in games to 1000, stopped before the first deal that begins
within service.bots.win_probability.ENDGAME_NEED points of the target (where `hard` would
discard by these very data). Each deal is recorded as the sequence of points the dealer and
the pone peg in order (heels first), the pone's show and the dealer's show (hand and crib). The
file keeps: the joint play points, for every pair of needs who pegs them first, and the two
show distributions (and the dealer's hand and crib apart), as counts (service.bots.win_probability reads them). Deterministic for a
seed; bench/par.py reports the same deals' means (Colvert's par).
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import dataclass

import numpy as np

from service.bots.win_probability import DATA, is_endgame
from service.engine import GameOptions, apply, new_game, to_act, view
from service.simulation.selfplay import PLAYERS


@dataclass
class Deal:
    play: list[tuple[str, int]]     # ("dealer" | "pone", points) in the order pegged
    pone_show: int = 0
    dealer_show: int = 0            # hand and crib
    dealer_crib: int = 0

    def pegged(self, role: str) -> int:
        return sum(points for who, points in self.play if who == role)


def deals_of_game(level: str, seed: str, rng: random.Random) -> list[Deal]:
    """The deals of one two-player game to 1000 between copies of `level`, up to the endgame."""
    state = new_game(GameOptions(target=1000), seed.encode())
    deals: list[Deal] = []
    hand = 0  # the cut for the first deal is hand 0
    scores = state.scores
    while state.phase != "game_over":
        if state.hand_number != hand:
            if is_endgame(state.scores, state.options.target):
                return deals
            deals.append(Deal([]))
            hand = state.hand_number
        seat = to_act(state)[0]
        dealer = state.dealer
        state, events = apply(state, PLAYERS[level].choose(view(state, seat), rng), 0.0)
        # Automatic counting shows the hands within the action that plays the last card: the
        # events tell the play's points from the show's.
        for event in events:
            if "scores" not in event.public:
                continue
            for side, (old, new) in enumerate(zip(scores, event.public["scores"])):
                if new == old:
                    continue
                role = "dealer" if side == dealer else "pone"
                if event.type != "show_scored":
                    deals[-1].play.append((role, new - old))
                elif role == "pone":
                    deals[-1].pone_show += new - old
                else:
                    deals[-1].dealer_show += new - old
                    if event.public["hand"] == "crib":
                        deals[-1].dealer_crib += new - old
            scores = tuple(event.public["scores"])
    return deals[:-1]  # a deal that scored past the endgame line to the target: cut short


def play_deals(level: str, games: int, seed: str, max_seconds: float | None = None) -> list[Deal]:
    started = time.perf_counter()
    deals = []
    for game in range(games):
        deals += deals_of_game(level, f"{seed}:{game}", random.Random(f"{seed}:{game}"))
        if max_seconds and time.perf_counter() - started > max_seconds:
            break
    return deals


def first_reach(deal: Deal, role: str, needs: int) -> np.ndarray:
    """For each need 0..needs: the index of the play event that first reaches it (a large
    number when never)."""
    reached = np.full(needs + 1, 1 << 20)
    total = 0
    for index, (who, points) in enumerate(deal.play):
        if who == role:
            reached[total + 1:min(total + points, needs) + 1] = index
            total += points
    reached[0] = -1
    return reached


def distributions(deals: list[Deal]) -> dict:
    most_d = max(deal.pegged("dealer") for deal in deals)
    most_p = max(deal.pegged("pone") for deal in deals)
    play = np.zeros((most_d + 1, most_p + 1), dtype=np.int64)
    race_dealer = np.zeros((most_d + 2, most_p + 2), dtype=np.int64)
    race_pone = np.zeros_like(race_dealer)
    pone_show = np.zeros(30, dtype=np.int64)
    dealer_show = np.zeros(59, dtype=np.int64)
    dealer_hand = np.zeros(30, dtype=np.int64)
    dealer_crib = np.zeros(30, dtype=np.int64)
    for deal in deals:
        play[deal.pegged("dealer"), deal.pegged("pone")] += 1
        pone_show[deal.pone_show] += 1
        dealer_show[deal.dealer_show] += 1
        dealer_hand[deal.dealer_show - deal.dealer_crib] += 1
        dealer_crib[deal.dealer_crib] += 1
        by_dealer = first_reach(deal, "dealer", most_d + 1)
        by_pone = first_reach(deal, "pone", most_p + 1)
        race_dealer += by_dealer[:, None] < by_pone[None, :]
        race_pone += by_pone[None, :] < by_dealer[:, None]
    race_dealer[0, :] = race_pone[:, 0] = 0  # a need of 0 is never asked
    return {"deals": len(deals), "play": play.tolist(), "race_dealer": race_dealer.tolist(),
            "race_pone": race_pone.tolist(), "pone_show": pone_show.tolist(),
            "dealer_show": dealer_show.tolist(), "dealer_hand": dealer_hand.tolist(),
            "dealer_crib": dealer_crib.tolist()}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="hard", choices=sorted(PLAYERS))
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--seed", default="deals-1")
    parser.add_argument("--output", default=str(DATA))
    args = parser.parse_args(argv)
    deals = play_deals(args.level, args.games, args.seed)
    data = {"about": __doc__.splitlines()[0], "command": " ".join(sys.argv),
            "level": args.level, "seed": args.seed, "games": args.games,
            **distributions(deals)}
    with open(args.output, "w") as out:
        json.dump(data, out, separators=(",", ":"))
        out.write("\n")
    print(f"{len(deals)} deals from {args.games} games written to {args.output}")


if __name__ == "__main__":
    main()
