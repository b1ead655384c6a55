"""The rule tables: phases, deal sizes, discards, cuts, claims and skunk lines (RULES.md)."""
from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

from service.cards import Card

PHASES = ("cut_for_deal", "discard", "cut_starter", "play", "show", "game_over", "match_over")
TEAM_LAYOUTS = {"2x2": 4, "3x2": 6, "2x3": 6}  # layout -> players
MIN_PACKET = 4  # a cut leaves at least four cards in each packet
# The most points a manual count may claim, by the cards shown with the starter: no hand or crib
# of four is worth more than 29, none of five (six players keep five) more than 46 (4-4-5-5-6
# with a 6 starter).
# A larger claim is refused, not corrected: with muggins its excess would go to the opponent (999
# on a hand of 12 would give away 987 points for a typing slip).
MOST_A_SHOW_IS_WORTH = {5: 29, 6: 46}
MAX_CLAIM = max(MOST_A_SHOW_IS_WORTH.values())  # the schema's bound, whatever the layout


class Handoff(Enum):
    """What a step of the rules leaves to the engine's entry point: the next phase to begin."""

    SHOW = "show"            # every card is played: count the hands
    NEXT_HAND = "next_hand"  # the show is over: the next dealer deals


def hand_size(players: int, seat_is_dealer: bool) -> int:
    """Cards dealt to a seat."""
    dealt = {2: 6, 3: 5, 4: 5, 5: 5, 6: 6}[players]
    return dealt - 1 if seat_is_dealer and players >= 5 else dealt


def discard_count(players: int, seat_is_dealer: bool) -> int:
    """Cards a seat puts in the crib."""
    if players == 2:
        return 2
    return 0 if seat_is_dealer and players >= 5 else 1


def playable(hand: Sequence[Card], count: int) -> list[Card]:
    """The cards of `hand` that fit under 31."""
    return [card for card in hand if count + card.value <= 31]


def skunk_level(skunk: str, target: int, loser_score: int) -> int:
    """0 for a plain loss; 1 lurched/skunked; with ACC lines 2 double and 3 triple skunk.

    The lines scale with the target, rounded down: standard 1 + (target - 1) // 2 (61 of 121,
    31 of 61); ACC 1 + 3(target - 1) // 4, 1 + (target - 1) // 2 and 1 + (target - 1) // 4
    (91, 61 and 31 of 121). A loser below a line is skunked at its level.
    """
    span = target - 1
    quarters = (2,) if skunk == "standard" else (3, 2, 1)
    return sum(1 for q in quarters if loser_score < 1 + span * q // 4)
