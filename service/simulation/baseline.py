"""`hard` as it was before issue 17 (main at 60a0132), frozen as a yardstick for benchmarks.

Not a public level: bench/match.py and the self-play benches play the new levels against it.
It discards by the uniform crib model (every opponent discard equally likely: the `uniform`
expectation service.bots.discard still computes exactly) and pegs one move deep: the card with
the best points now less the next player's expected greedy reply, with the board's defence
weight. The pegging code is a frozen copy of service/bots/pegging.py of that commit, reduced to
what a game in progress needs (positions from the engine are valid, so nothing is checked).
"""
from __future__ import annotations

from fractions import Fraction
from math import comb

from service.bots.discard import analyse_discard
from service.bots.players import ComputerPlayer
from service.cards import DECK, Card
from service.engine import SeatView
from service.scoring import score_pegging, show_points

DEFEND = Fraction(3)
ATTACK = Fraction(1, 4)
PONE_THREAT = 8


def _uniform_discard(view, hand, count, rng):
    own_crib = view.side_of_seat[view.crib_owner] == view.side_of_seat[view.seat]
    options = analyse_discard(hand, players=view.options.players, own_crib=own_crib,
                              teams=view.options.teams)
    # Until helper/discard's role-aware crib lands, analyse_discard is still the uniform model.
    return options[0].discard


def _one_deep_play(view: SeatView, playable, rng) -> Card:
    seat, players = view.seat, view.options.players
    seen = {played.card for played in view.table} | {view.starter, *view.discards}
    unseen = [card for card in DECK if card not in seen and card not in view.hand]
    next_seat = next(((seat + k) % players for k in range(1, players)
                      if view.hand_sizes[(seat + k) % players]), None)
    next_cards = 0 if next_seat is None else view.hand_sizes[next_seat]
    next_cards = min(next_cards, len(unseen))
    side = view.side_of_seat[seat]
    own_score = view.scores[side]
    opponent_score = max(score for other, score in enumerate(view.scores) if other != side)
    need = view.options.target - own_score
    kept = view.kept
    show = show_points(kept, view.starter) if len(kept) in (4, 5) else None
    defence = Fraction(1)
    if view.dealer != seat and show is not None and show >= need:
        defence = DEFEND
    elif view.dealer == seat and view.options.target - opponent_score <= PONE_THREAT:
        defence = ATTACK
    exact = view.options.exact_finish
    ranked = []
    for card in playable:
        pile = (*view.pile, card)
        scored = score_pegging(pile)
        points = scored.points
        last_card = len(view.hand) == 1 and next_cards == 0
        if last_card and scored.count < 31:
            points += 1
        if exact and points > need:
            points = 0
        no_reply, against = _reply(pile, scored.count, unseen, next_cards)
        go = 0 if last_card or scored.count == 31 else no_reply
        wins = points == need if exact else points >= need
        ranked.append((not wins, -(points + go - defence * against), -card.value, card.index,
                       card))
    return min(ranked)[-1]


def _reply(pile, count, unseen, held) -> tuple[Fraction, Fraction]:
    """(chance the next player cannot play, expected points of their best reply)."""
    if held == 0:
        return Fraction(1), Fraction(0)
    if count == 31:
        return Fraction(0), Fraction(0)
    by_points: dict[int, int] = {}
    for card in unseen:
        if count + card.value <= 31:
            points = score_pegging((*pile, card)).points
            by_points[points] = by_points.get(points, 0) + 1
    hands = comb(len(unseen), held)
    rest = len(unseen)
    expected = Fraction(0)
    previous_none = Fraction(1)
    for points in sorted(by_points, reverse=True):
        rest -= by_points[points]
        none_at_least = Fraction(comb(rest, held), hands)
        expected += points * (previous_none - none_at_least)
        previous_none = none_at_least
    return previous_none, expected


BASELINE = ComputerPlayer(_uniform_discard, _one_deep_play)
