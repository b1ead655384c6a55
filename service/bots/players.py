"""Computer players: one registry of levels, each choosing a seat's action from its view.

A computer player sees exactly what a human in its seat sees: a `SeatView` from
`service.engine.view`. Every level counts its own hand correctly when counting is manual, calls
muggins whenever the rules offer it and cuts at a random depth; decisions between the games of
a match (next game, end match) are left to the people at the table.
- first: the first legal action, made concrete (first cards listed): a fixed baseline for tests
  and benchmarks.
- easy: a random legal discard and card.
- medium: greedy: keeps the cards that score most on their own, plays the card that scores most
  at once. Ties are broken as a sensible player does, never at random: a discard that scores
  itself (a pair, a fifteen, a five) goes to its own side's crib and stays out of the others';
  a card that leaves the count at 5 or 21 (a ten-card makes 15 or 31) is played last.
- hard: the discard with the best net expectation, the crib valued by how players of each role
  really discard (service.bots.discard, service.bots.crib_model), near the end the discard with
  the best chance to win (service.bots.discard_choice); and the card the
  play search recommends (service.bots.pegging: expected points over the rest of the play, or
  the chance to win near the end): the same functions the analysis endpoints call, so their
  recommendations are what `hard` plays.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from itertools import combinations

from service.bots.discard_choice import rank_discards
from service.bots.pegging import PlayPosition, analyse_play
from service.cards import Card
from service.engine import (Action, CallMuggins, ClaimCount, CutForDeal, CutStarter, Discard,
                            LegalClaim, LegalCut, LegalDiscard, LegalPlay, Play, SeatView)
from service.scoring import rank_points, score_pegging, show_points

# Chooses the cards: (view, the cards dealt, how many to discard, rng) -> the discard.
ChooseDiscard = Callable[[SeatView, tuple[Card, ...], int, random.Random], tuple[Card, ...]]
# (view, the cards that fit the count, rng) -> the card to play.
ChoosePlay = Callable[[SeatView, tuple[Card, ...], random.Random], Card]


class ComputerPlayer:
    """A level: its own ways to discard and to play; everything else every level does alike."""

    def __init__(self, discard: ChooseDiscard, play: ChoosePlay):
        self.discard = discard
        self.play = play

    def choose(self, view: SeatView, rng: random.Random) -> Action | None:
        """The action the seat of `view` takes now, or None when it leaves the decision to the
        people at the table (or has nothing to do)."""
        seat = view.seat
        if seat is None:  # a spectator has nothing to do
            return None
        for option in view.legal_actions:
            if option.type == "muggins":
                return CallMuggins(seat)
        for option in view.legal_actions:
            if isinstance(option, LegalClaim):
                points = show_points(option.cards, option.starter, crib=option.hand == "crib")
                return ClaimCount(seat, points)
            if isinstance(option, LegalCut):
                cut = CutForDeal if option.type == "cut_for_deal" else CutStarter
                return cut(seat, None)
            if isinstance(option, LegalDiscard):
                return Discard(seat, tuple(self.discard(view, option.cards, option.count, rng)))
            if isinstance(option, LegalPlay):
                return Play(seat, self.play(view, option.cards, rng))
        return None


# first -----------------------------------------------------------------------------------------
def _first_discard(view, hand, count, rng):
    return hand[:count]


def _first_play(view, playable, rng):
    return playable[0]


# easy ------------------------------------------------------------------------------------------
def _random_discard(view, hand, count, rng):
    return tuple(rng.sample(hand, count))


def _random_play(view, playable, rng):
    return rng.choice(playable)


# medium ----------------------------------------------------------------------------------------
def _greedy_discard(view, hand, count, rng):
    own_crib = view.side_of_seat[view.crib_owner] == view.side_of_seat[view.seat]

    def value(discard):
        keep = [card for card in hand if card not in discard]
        flush = len(keep) if len({card.suit for card in keep}) == 1 else 0
        kept = rank_points(tuple(sorted(card.rank for card in keep))) + flush
        thrown = rank_points(tuple(sorted(card.rank for card in discard)))
        thrown += 2 * sum(card.rank == 5 for card in discard)
        return kept, thrown if own_crib else -thrown

    # max() keeps the first of equal values: the order of the hand.
    return max(combinations(hand, count), key=value)


def _greedy_play(view, playable, rng):
    def value(card):
        pile = (*view.pile, card)
        count = sum(played.value for played in pile)
        return score_pegging(pile).points, count not in (5, 21), card.value

    return max(playable, key=value)


# hard ------------------------------------------------------------------------------------------
def _best_discard(view, hand, count, rng):
    return rank_discards(hand, view.options, view.seat, view.dealer, view.scores).best.discard


def _best_play(view, playable, rng):
    if len(playable) == 1:
        return playable[0]
    return analyse_play(play_position(view)).recommendation


def play_position(view: SeatView) -> PlayPosition:
    """The pegging position the seat of `view` (a view in the play phase) sees, seats counted
    clockwise from it: its own discards are seen cards, like the starter and the cards played
    this hand; it knows who played each card, who said go and every side's score."""
    seat, dealer, starter = view.seat, view.dealer, view.starter
    hand, kept, discards = view.hand, view.kept, view.discards
    if seat is None or dealer is None or starter is None or hand is None or kept is None \
            or discards is None:
        raise ValueError("a pegging position needs a seat's view in the play phase")
    players = view.options.players

    def offset(other: int) -> int:
        return (other - seat) % players

    seen = tuple(played.card for played in view.table if played.card not in view.pile)
    seen += (starter, *discards)
    side_of = view.side_of_seat
    # side k, counted from this seat's, is the side of the k-th seat on its left
    other_scores = tuple(view.scores[side_of[(seat + k) % players]]
                         for k in range(1, len(view.scores)))
    return PlayPosition(
        hand=hand, pile=view.pile, seen=seen, players=players, teams=view.options.teams,
        hand_sizes=tuple(view.hand_sizes[(seat + k) % players] for k in range(1, players)),
        dealer_seat=offset(dealer),
        goes=tuple((offset(event["seat"]), event["count"]) for event in view.history
                   if event["type"] == "go" and event["seat"] != seat),
        played_by=tuple((offset(played.seat), played.card) for played in view.table
                        if played.seat != seat),
        own_score=view.scores[side_of[seat]], opponent_score=max(other_scores),
        other_scores=other_scores,
        target=view.options.target, exact_finish=view.options.exact_finish,
        show_points=show_points(kept, starter) if len(kept) in (4, 5) else None)


LEVELS: dict[str, ComputerPlayer] = {
    "first": ComputerPlayer(_first_discard, _first_play),
    "easy": ComputerPlayer(_random_discard, _random_play),
    "medium": ComputerPlayer(_greedy_discard, _greedy_play),
    "hard": ComputerPlayer(_best_discard, _best_play),
}
DEFAULT_LEVEL = "medium"
