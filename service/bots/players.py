"""Computer players: `choose_action(level, view, seat, rng)` for the levels easy, medium and hard.

A computer player sees exactly what a human in its seat sees: `view` is
`service.engine.view(state, seat)`. Every level counts its own hand correctly when counting is
manual, calls muggins whenever the engine offers it, cuts at a random depth and, between the
games of a match, asks for the next game (ending a match is left to the humans).
- easy: a random legal discard and card.
- medium: greedy: keeps the cards that score most on their own, plays the card that scores most
  at once (ties at random).
- hard: the discard with the best exact net expectation (service.bots.discard) and the card the
  play analysis recommends (service.bots.pegging): the same functions the analysis endpoints
  call, so their recommendations are what `hard` plays.
"""
from __future__ import annotations

import random
from itertools import combinations
from typing import Callable

from service.bots.discard import analyse_discard
from service.bots.pegging import PlayPosition, analyse_play
from service.cards import Card
from service.scoring import rank_points, score_pegging, show_points

LEVELS = ("easy", "medium", "hard")


class UnknownLevelError(ValueError):
    code = "unknown_level"


def choose_action(level: str, view: dict, seat: int, rng: random.Random) -> dict | None:
    """The action dict (engine.action_from_dict form) the `level` player in `seat` takes, or
    None when the seat has nothing to do."""
    if level not in _LEVELS:
        raise UnknownLevelError(f"unknown level {level!r}; one of {', '.join(LEVELS)}")
    legal = {action["type"]: action for action in view["legal_actions"]}
    if "muggins" in legal:
        return {"type": "muggins", "seat": seat}
    if "claim" in legal:
        claim = legal["claim"]
        points = show_points(_cards(claim["cards"]), Card.parse(claim["starter"]),
                             crib=claim["hand"] == "crib")
        return {"type": "claim", "seat": seat, "points": points}
    for cut in ("cut_for_deal", "cut_starter"):
        if cut in legal:
            return {"type": cut, "seat": seat, "depth": None}
    if "next_game" in legal:
        return {"type": "next_game", "seat": seat}
    discard, play = _LEVELS[level]
    if "discard" in legal:
        cards = discard(view, seat, _cards(legal["discard"]["cards"]), legal["discard"]["count"],
                        rng)
        return {"type": "discard", "seat": seat, "cards": [str(card) for card in cards]}
    if "play" in legal:
        card = play(view, seat, _cards(legal["play"]["cards"]), rng)
        return {"type": "play", "seat": seat, "card": str(card)}
    return None


def _cards(texts) -> tuple[Card, ...]:
    return tuple(Card.parse(text) for text in texts)


# easy ------------------------------------------------------------------------------------------
def _random_discard(view, seat, hand, count, rng):
    return rng.sample(hand, count)


def _random_play(view, seat, playable, rng):
    return rng.choice(playable)


# medium ----------------------------------------------------------------------------------------
def _greedy_discard(view, seat, hand, count, rng):
    def kept_points(discard):
        keep = [card for card in hand if card not in discard]
        flush = len(keep) if len({card.suit for card in keep}) == 1 else 0
        return rank_points(tuple(sorted(card.rank for card in keep))) + flush

    options = list(combinations(hand, count))
    best = max(map(kept_points, options))
    return rng.choice([option for option in options if kept_points(option) == best])


def _greedy_play(view, seat, playable, rng):
    pile = _cards(view["pile"])
    points = {card: score_pegging((*pile, card)).points for card in playable}
    best = max(points.values())
    return rng.choice([card for card in playable if points[card] == best])


# hard ------------------------------------------------------------------------------------------
def _best_discard(view, seat, hand, count, rng):
    options = view["options"]
    own_crib = view["side_of_seat"][view["crib_owner"]] == view["side_of_seat"][seat]
    return analyse_discard(hand, players=options["players"], own_crib=own_crib,
                           teams=options["teams"])[0].discard


def _best_play(view, seat, playable, rng):
    return analyse_play(play_position(view, seat)).recommendation


def play_position(view: dict, seat: int) -> PlayPosition:
    """The pegging position `seat` sees in `view` (a view in the play phase): the seat's own
    discards are seen cards, like the starter and the cards played this hand."""
    pile = _cards(view["pile"])
    starter = Card.parse(view["starter"])
    seen = tuple(card for card in _cards(entry["card"] for entry in view["table"])
                 if card not in pile) + (starter,) + _cards(view["discards"])
    side_of = view["side_of_seat"]
    scores = view["scores"]
    players = view["options"]["players"]
    next_seat = next(((seat + k) % players for k in range(1, players)
                      if view["hand_sizes"][(seat + k) % players]), None)
    kept = _cards(view["kept"])
    return PlayPosition(
        hand=_cards(view["hand"]), pile=pile, seen=seen,
        next_cards=0 if next_seat is None else view["hand_sizes"][next_seat],
        own_score=scores[side_of[seat]],
        opponent_score=max(score for side, score in enumerate(scores) if side != side_of[seat]),
        target=view["options"]["target"], dealer=view["dealer"] == seat,
        exact_finish=view["options"]["exact_finish"],
        show_points=show_points(kept, starter) if len(kept) in (4, 5) else None)


_LEVELS: dict[str, tuple[Callable, Callable]] = {
    "easy": (_random_discard, _random_play),
    "medium": (_greedy_discard, _greedy_play),
    "hard": (_best_discard, _best_play),
}
