"""The discard analysis as `POST /v1/analysis/discard` answers it and `cribbage discard --json`
prints it: one body, built once, from the analysis and (near the end) the chances to win."""
from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import comb

from service.bots.discard import DiscardOption, analyse_discard, crib_weight
from service.bots.win_probability import check_position, discard_win_chances, is_endgame
from service.cards import Card

DECIMALS = 4  # expectations are rounded; the exact uniform fractions come alongside


def rounded(value: Fraction | float) -> float:
    return round(float(value), DECIMALS)


def discard_report(hand: Sequence[Card], players: int = 2, own_crib: bool = False,
                   teams: str | None = None, scores: tuple[int, int] = (0, 0),
                   target: int = 121, skunk: str = "standard"
                   ) -> tuple[dict, list[DiscardOption]]:
    """The analysis body of `hand`, and its options best first (by the weighted net)."""
    options = analyse_discard(hand, players=players, own_crib=own_crib, teams=teams)
    check_position(scores, target, ("own_score", "opponent_score"))
    chances: list[float | None] = [None] * len(options)
    best = options[0]
    if players == 2 and is_endgame(scores, target):
        won = discard_win_chances(options, hand, *scores, own_crib, target, skunk)
        chances = list(won)
        best = options[max(range(len(options)), key=won.__getitem__)]
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
