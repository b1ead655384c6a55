"""Make service/bots/data/kept_play_2.json: the pegging value of each kept hand of four ranks,
two players, as dealer and as pone (service.bots.kept_play reads it).

    .venv/bin/python -m service.simulation.kept_play --deals 1000 --workers 2   # ~7 min

A hand's value is what the play search (service.bots.pegging, compiled where built) finds for
its best first card at the start of the play: the other hand drawn from the 48 other cards as
the search draws it (service.bots.belief: a random hand kept with the chance that strong
players keep such a hand; the starter is not known at the discard), the other player pegging
by the search's opponent model (service.bots.playout), the kept hand by its own policy after
its first card; the value is the mean of own pegging less the other's to the play's last card.
As pone the kept hand leads, on `--deals` sampled deals. As dealer it answers the pone's lead:
LEADS leads are sampled (a hand drawn as above, its first card by a policy of the mix), and
each lead's best answer, on `--deals` / 2 deals, is weighted by how often that lead came. The
kept cards take the first suits in deck order (suits score nothing in the play). Each
(role, multiset) has its own seeded rng, so the output is the same for the same --deals and
--seed whatever --workers.
"""
from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from itertools import combinations_with_replacement
from multiprocessing import Pool

from service.bots import fast_playout
from service.bots.belief import Belief
from service.bots.kept_play import DATA, ROLES, rank_key
from service.bots.pegging import play_outs
from service.bots.playout import POLICY_MIX, RANK, VALUE, choose_card

NO_TARGET = [10_000, 10_000]  # nobody wins during the play: points are all that count
LEADS = 500  # the pone's leads sampled to weigh the dealer's answers, each on deals / 2


def kept_cards(ranks: tuple[int, ...]) -> list[int]:
    """Deck indices for `ranks`: each copy of a rank in the next suit (deck index suit*13+rank-1)."""
    return [ranks[:position].count(rank) * 13 + rank - 1 for position, rank in enumerate(ranks)]


def play_value(ranks: tuple[int, ...], dealer: bool, deals: int, rng: random.Random) -> float:
    """The kept hand's expected pegging difference: its best first card's, as the search
    values it on `deals` sampled deals; as dealer, averaged over the pone's sampled leads."""
    kept = kept_cards(ranks)
    pool = tuple(card for card in range(52) if card not in kept)
    if not dealer:
        belief = Belief(pool, sizes=(4,), above=(0,), played=((),), players=2, dealer=(True,))
        return _best_card(belief, rng, deals, kept, (), 0)
    pone = Belief(pool, sizes=(4,), above=(0,), played=((),), players=2, dealer=(False,))
    leads = Counter(RANK[choose_card(rng.choice(POLICY_MIX), hand, (), 4)]
                    for hand in (pone.sample(rng)[0] for _ in range(LEADS)))
    value = 0.0
    for rank in sorted(leads):
        lead = next(card for card in pool if RANK[card] == rank)
        belief = Belief(tuple(card for card in pool if card != lead), sizes=(3,), above=(0,),
                        played=((rank,),), players=2, dealer=(False,))
        value += leads[rank] * _best_card(belief, rng, deals // 2, kept, (rank,), VALUE[lead])
    return value / LEADS


def _best_card(belief: Belief, rng: random.Random, deals: int, hand: list[int],
               ranks: tuple[int, ...], count: int) -> float:
    """The best mean of own less other's pegging over the cards of `hand` (all fit)."""
    outcome = fast_playout.play_outs(belief, rng, deals, hand, hand, ranks, count, (0, 1),
                                     NO_TARGET, False, False)
    if outcome is None:
        outcome = play_outs(belief, rng, deals, hand, hand, ranks, count, (0, 1), NO_TARGET,
                            False, False)
    for_totals, against_totals, _ = outcome
    return max(own - other for own, other in zip(for_totals, against_totals)) / deals


def _job(args) -> tuple[str, str, float]:
    role, ranks, deals, seed = args
    rng = random.Random(f"{seed}:{role}:{rank_key(ranks)}")
    return role, rank_key(ranks), round(play_value(ranks, role == "dealer", deals, rng), 4)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--seed", default="kept-play")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    jobs = [(role, ranks, args.deals, args.seed) for role in ROLES
            for ranks in combinations_with_replacement(range(1, 14), 4)]
    values: dict[str, dict[str, float]] = {role: {} for role in ROLES}
    with Pool(args.workers) as pool:
        for role, key, value in pool.imap(_job, jobs, chunksize=20):
            values[role][key] = value
    made = f"python -m service.simulation.kept_play --deals {args.deals} --seed {args.seed}"
    with DATA.open("w") as out:
        json.dump({"made_by": made, "values": values}, out, indent=0, sort_keys=True)
        out.write("\n")


if __name__ == "__main__":
    main()
