"""Yardsticks for benchmarks, frozen as they were before issue 17 (main at 60a0132).

Not public levels: bench/match.py plays the levels against them.
- GREEDY, the plain greedy player (`medium` then): keeps the cards that score most on their
  own, plays the card that scores most at once, ties at random.
- BASELINE, `hard` then: discards by the uniform crib model (every opponent discard equally
  likely: the `uniform` expectation service.bots.discard still computes exactly) and pegs one
  move deep: the card with the best points now less the next player's expected greedy reply,
  with the board's defence weight. Its pegging is a frozen copy of service/bots/pegging.py of
  that commit, reduced to what a game in progress needs (positions from the engine are valid,
  so nothing is checked).
"""
from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from math import comb

from service.bots.discard import analyse_discard
from service.bots.players import ComputerPlayer
from service.cards import DECK, Card
from service.engine import SeatView
from service.scoring import rank_points, score_pegging, show_points

DEFEND = Fraction(3)
ATTACK = Fraction(1, 4)
PONE_THREAT = 8


def _uniform_discard(view, hand, count, rng):
    own_crib = view.side_of_seat[view.crib_owner] == view.side_of_seat[view.seat]
    options = analyse_discard(hand, players=view.options.players, own_crib=own_crib,
                              teams=view.options.teams)
    # max() keeps the first of equal nets: the deterministic combinations() order, as before.
    return max(options, key=lambda option: option.uniform_net).discard


def _one_deep_play(view: SeatView, playable, rng) -> Card:
    seat, players = view.seat, view.options.players
    hand, kept, discards, starter = view.hand, view.kept, view.discards, view.starter
    if seat is None or hand is None or kept is None or discards is None or starter is None:
        raise ValueError("a play needs a seat's view in the play phase")
    seen = {played.card for played in view.table} | {starter, *discards}
    unseen = [card for card in DECK if card not in seen and card not in hand]
    next_seat = next(((seat + k) % players for k in range(1, players)
                      if view.hand_sizes[(seat + k) % players]), None)
    next_cards = 0 if next_seat is None else view.hand_sizes[next_seat]
    next_cards = min(next_cards, len(unseen))
    side = view.side_of_seat[seat]
    own_score = view.scores[side]
    opponent_score = max(score for other, score in enumerate(view.scores) if other != side)
    need = view.options.target - own_score
    show = show_points(kept, starter) if len(kept) in (4, 5) else None
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
        last_card = len(hand) == 1 and next_cards == 0
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


def _greedy_discard(view, hand, count, rng):
    def kept_points(discard):
        keep = [card for card in hand if card not in discard]
        flush = len(keep) if len({card.suit for card in keep}) == 1 else 0
        return rank_points(tuple(sorted(card.rank for card in keep))) + flush

    options = list(combinations(hand, count))
    best = max(map(kept_points, options))
    return rng.choice([option for option in options if kept_points(option) == best])


def _greedy_play(view, playable, rng):
    points = {card: score_pegging((*view.pile, card)).points for card in playable}
    best = max(points.values())
    return rng.choice([card for card in playable if points[card] == best])


BASELINE = ComputerPlayer(_uniform_discard, _one_deep_play)
GREEDY = ComputerPlayer(_greedy_discard, _greedy_play)
