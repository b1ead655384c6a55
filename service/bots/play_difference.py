"""What each of a few kept hands is worth in the play, with two players, measured on the same
sampled deals: the points its side pegs less the other side's over the hand's play, on average.

The deals are those of the play search (service.bots.pegging, compiled where built): the other
hand drawn from the 46 cards the discarding seat has not seen, kept with the chance that strong
players keep such a hand (service.bots.belief), the other player pegging by the search's
opponent model (service.bots.playout), the kept hand by its own policy after its first card,
which is the best of the deal's first cards. As pone the kept hand leads. As dealer it answers
the pone's lead: the leads are sampled once (a hand drawn as above, its first card by a policy
of the mix), and each lead's best answer is searched on as many deals as that lead came.

Every kept hand is played on the same deals (the generator is set back to one state for each):
common random numbers, so the differences between hands, which are all a discard needs, carry
far less noise than the values themselves. The starter is left out: suits and the starter
score nothing in the play (his heels is the same whatever is kept).
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from service.bots import fast_playout
from service.bots.belief import Belief
from service.bots.pegging import play_outs
from service.bots.playout import POLICY_MIX, RANK, VALUE, choose_card
from service.cards import DECK, Card

NO_TARGET = [10_000, 10_000]  # nobody wins during the play: points are all that count


def play_differences(dealt: Sequence[Card], keeps: Sequence[Sequence[Card]], dealer: bool,
                     deals: int, rng: random.Random,
                     mix: tuple[float, ...] = POLICY_MIX) -> list[float]:
    """Each of `keeps` (four cards of `dealt` each): its expected pegging less the other's, all
    on the same `deals` sampled deals drawn from `rng`, the other player's policy drawn from
    `mix` in each."""
    pool = tuple(card.index for card in DECK if card not in dealt)
    if not dealer:
        belief = Belief(pool, sizes=(4,), above=(0,), played=((),), players=2, dealer=(True,))
        return [total / deals for total in _on_same_deals(rng, keeps, belief, deals, (), 0, mix)]
    pone = Belief(pool, sizes=(4,), above=(0,), played=((),), players=2, dealer=(False,))
    leads = Counter(RANK[choose_card(rng.choice(mix), hand, (), 4)]
                    for hand in (pone.sample(rng)[0] for _ in range(deals)))
    answers = []
    for rank, times in sorted(leads.items()):
        lead = next(card for card in pool if RANK[card] == rank)
        belief = Belief(tuple(card for card in pool if card != lead), sizes=(3,), above=(0,),
                        played=((rank,),), players=2, dealer=(False,))
        answers.append(_on_same_deals(rng, keeps, belief, times, (rank,), VALUE[lead], mix))
    return [sum(totals) / deals for totals in zip(*answers)]


def _on_same_deals(rng: random.Random, keeps: Sequence[Sequence[Card]], belief: Belief,
                   deals: int, ranks: tuple[int, ...], count: int,
                   mix: tuple[float, ...]) -> list[float]:
    """_best_total of each kept hand, the generator set back to one state before each."""
    state = rng.getstate()
    totals = []
    for keep in keeps:
        rng.setstate(state)
        totals.append(_best_total(belief, rng, deals, [card.index for card in keep], ranks,
                                  count, mix))
    return totals


def _best_total(belief: Belief, rng: random.Random, deals: int, hand: list[int],
                ranks: tuple[int, ...], count: int, mix: tuple[float, ...]) -> float:
    """The best sum over `deals` deals of own less other's pegging, over the first cards of
    `hand` (all fit)."""
    arguments = (belief, rng, deals, hand, hand, ranks, count, (0, 1), NO_TARGET, False, False,
                 mix)
    outcome = fast_playout.play_outs(*arguments)
    for_totals, against_totals, _ = play_outs(*arguments) if outcome is None else outcome
    return max(own - other for own, other in zip(for_totals, against_totals))
