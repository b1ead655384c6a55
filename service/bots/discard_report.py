"""The discard analysis as `POST /v1/analysis/discard` answers it and `cribbage discard --json`
prints it: one body, built once, from the analysis and (near the end) the chances to win."""
from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import comb

from service.bots.discard import (DealShape, DiscardOption, analyse_discard, crib_weight,
                                  shape_for)
from service.bots.discard_choice import RankedDiscards, rank_discards
from service.bots.side_race import check_score_count
from service.bots.win_probability import PositionError, check_position
from service.cards import Card
from service.engine import GameOptions

DECIMALS = 4  # expectations are rounded; the exact uniform fractions come alongside


def rounded(value: Fraction | float) -> float:
    return round(float(value), DECIMALS)


def discard_report(hand: Sequence[Card], players: int = 2, own_crib: bool = False,
                   teams: str | None = None, scores: tuple[int, int] = (0, 0),
                   target: int = 121, skunk: str = "standard",
                   side_scores: Sequence[int] | None = None, dealer_seat: int | None = None
                   ) -> tuple[dict, tuple[DiscardOption, ...]]:
    """The analysis body of `hand`, and its options best first (by the weighted net).

    `scores` are yours and the leading other side's; `side_scores`, when given, every side's
    (yours first, then the other sides clockwise from your left) in their place. `dealer_seat`
    is the dealer counted clockwise from you (0: you). Near the end the discards are valued by
    the chance to win, as `hard` values them (service.bots.discard_choice): with two players
    from the scores, with more only when every side's score and the dealer are known."""
    shape = shape_for(hand, players, own_crib, teams)  # the hand's errors come first
    game = GameOptions(players=players, teams=teams, target=target, skunk=skunk)
    dealer = _dealer(game, own_crib, dealer_seat, shape)
    if side_scores is None:
        check_position(scores, target, ("own_score", "opponent_score"))
    else:
        check_score_count(side_scores, game.sides)
        check_position(side_scores, target, ("scores",) * game.sides)
    if dealer is not None and (players == 2 or side_scores is not None):
        ranked = rank_discards(hand, game, 0, dealer, side_scores or scores)
    else:
        ranked = RankedDiscards(tuple(analyse_discard(hand, players=players, own_crib=own_crib,
                                                      teams=teams)), None)
    options, best = ranked.options, ranked.best
    chances = ranked.chances or (None,) * len(options)
    starters = 52 - len(hand)
    others = (5 if players == 6 else 4) - len(best.discard)
    body = {
        "hand": _texts(hand), "players": players, "own_crib": own_crib, "teams": teams,
        "crib_weight": rounded(crib_weight(own_crib, players, teams)),
        "starters": starters, "crib_cases": comb(starters, others) * (starters - others),
        "discards": [{
            "discard": _texts(option.discard), "keep": _texts(option.keep),
            "expected_hand": rounded(option.hand), "expected_crib": rounded(option.crib),
            "net": rounded(option.net), "uniform_crib": rounded(option.uniform_crib),
            "uniform_net": rounded(option.uniform_net), "hand_min": option.hand_min,
            "hand_max": option.hand_max,
            "win": None if chance is None else rounded(chance),
            "exact": {"hand": str(option.hand), "crib": str(option.uniform_crib),
                      "net": str(option.uniform_net)},
        } for option, chance in zip(options, chances)],
        "recommendation": {"discard": _texts(best.discard), "keep": _texts(best.keep)},
    }
    return body, options


def _texts(cards: Sequence[Card]) -> list[str]:
    return [card.text for card in cards]


def _dealer(game: GameOptions, own_crib: bool, dealer_seat: int | None,
            shape: DealShape) -> int | None:
    """The dealer's seat, you at 0: dealer_seat, checked against own_crib and (5-6 players,
    where the dealer is dealt fewer cards) the hand's size; else with two players what
    own_crib says; else unknown."""
    if dealer_seat is None:
        return (0 if own_crib else 1) if game.players == 2 else None
    if dealer_seat >= game.players:
        raise PositionError("dealer_out_of_range", f"with {game.players} players the dealer "
                            f"is a seat from 0 to {game.players - 1}, not {dealer_seat}",
                            field="dealer_seat", players=game.players,
                            last=game.players - 1, got=dealer_seat)
    if (game.side_of(dealer_seat) == 0) != own_crib:
        raise PositionError("crib_owner_mismatch", f"own_crib is {str(own_crib).lower()}, but "
                            f"seat {dealer_seat} deals", field="dealer_seat",
                            own_crib=str(own_crib).lower(), seat=dealer_seat)
    if game.players >= 5 and (shape.discards == 0) != (dealer_seat == 0):
        raise PositionError("dealer_hand_mismatch", f"with {game.players} players a hand of "
                            f"{shape.dealt} cards says whether you deal, and dealer_seat "
                            f"{dealer_seat} disagrees", field="dealer_seat",
                            players=game.players, cards=shape.dealt, seat=dealer_seat)
    return dealer_seat
