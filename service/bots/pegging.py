"""Play analysis: each legal card with its expected points for and against, and the best card.

The model (the OpenAPI description repeats it): the next player to act holds `next_cards`
cards drawn uniformly from the cards you have not seen, and replies with the card that scores
them the most at once (a greedy reply). For each card you may play:
- points: what the card scores now (fifteen, 31, pairs, runs, and the last card when it is);
- expected_for: points + the chance the next player cannot reply times the go point you then
  take (1, when the count is not 31);
- expected_against: the expected points of the next player's best reply (exact hypergeometric
  expectation over their possible hands);
- value: expected_for - defence * expected_against, where `defence` follows the board:
  1 normally; 3 when you will count out in the show before the dealer and only the dealer's
  pegging can stop you (defend); 1/4 when you are the dealer and the pone, who counts first,
  needs no more than a typical hand (then pegging out is your only chance, so attack).
A card that reaches the target at once is always recommended (with exact_finish, points that
would pass the target count as none). Ties go to the higher count value (keeping low cards for
the end of the count), then to the card's index (suits S H D C).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Sequence

from service.cards import DECK, Card
from service.errors import InvalidInputError
from service.scoring import score_pegging

DEFEND = Fraction(3)
ATTACK = Fraction(1, 4)
# A pone needing at most this many points is likely to count out in the show (an average hand
# with its starter is worth about 8): the dealer must try to peg out first.
PONE_THREAT = 8


class PlayPositionError(InvalidInputError):
    """A pegging position that cannot happen."""

    def __init__(self, code: str, message: str, **params):
        super().__init__(message, code=code, **params)


@dataclass(frozen=True, slots=True)
class PlayPosition:
    hand: tuple[Card, ...]                # the cards you still hold
    pile: tuple[Card, ...] = ()           # the cards played since the count was last reset
    seen: tuple[Card, ...] = ()           # every other card you have seen (starter, earlier
                                          # cards of this hand, your discards)
    next_cards: int | None = None         # cards the next player holds (default: as many as you)
    own_score: int = 0
    opponent_score: int = 0               # the leading other side's score
    target: int = 121
    dealer: bool = False                  # you dealt this hand (you count last in the show)
    show_points: int | None = None        # your hand's show points, when you know them
    exact_finish: bool = False            # points that would pass the target are not scored

    @property
    def count(self) -> int:
        return sum(card.value for card in self.pile)


@dataclass(frozen=True, slots=True)
class PlayOption:
    card: Card
    points: int
    expected_for: Fraction
    expected_against: Fraction
    value: Fraction
    wins: bool                            # reaches the target at once


@dataclass(frozen=True, slots=True)
class PlayAnalysis:
    options: tuple[PlayOption, ...]       # best first
    defence: Fraction

    @property
    def recommendation(self) -> Card | None:
        """The card to play, or None when no card fits (a go)."""
        return self.options[0].card if self.options else None


def check_position(position: PlayPosition) -> None:
    """Raise PlayPositionError if the position cannot happen."""
    groups = {"hand": position.hand, "pile": position.pile, "seen": position.seen}
    where: dict[Card, str] = {}
    for name, cards in groups.items():
        for card in cards:
            if card in where:
                raise PlayPositionError("card_seen_twice",
                                        f"{card} is both in {where[card]} and in {name}",
                                        index=cards.index(card), field=name, card=str(card),
                                        first=where[card])
            where[card] = name
    count = 0
    for index, card in enumerate(position.pile):
        count += card.value
        if count > 31:
            raise PlayPositionError("count_exceeds_31", f"the pile's count reaches {count}",
                                    index=index, field="pile", count=count)
    if count == 31:
        raise PlayPositionError("count_is_31", "at 31 the count starts again: send an empty pile",
                                field="pile")
    if len(position.hand) > 5:
        raise PlayPositionError("too_many_cards", "a player holds at most 5 cards in the play",
                                field="hand", max=5, got=len(position.hand))
    unseen = 52 - len(where)
    if position.next_cards is not None and not 0 <= position.next_cards <= min(5, unseen):
        raise PlayPositionError("invalid_next_cards",
                                f"the next player holds 0..{min(5, unseen)} cards",
                                field="next_cards", got=position.next_cards)
    if position.target <= max(position.own_score, position.opponent_score):
        raise PlayPositionError("game_already_won", "a score has already reached the target",
                                field="target", target=position.target)


def analyse_play(position: PlayPosition) -> PlayAnalysis:
    """Every card of `position.hand` that fits under 31, best first. Raises PlayPositionError."""
    check_position(position)
    known = set(position.hand) | set(position.pile) | set(position.seen)
    unseen = [card for card in DECK if card not in known]
    next_cards = len(position.hand) if position.next_cards is None else position.next_cards
    next_cards = min(next_cards, len(unseen))
    defence = _defence(position)
    need = position.target - position.own_score
    options = []
    for card in position.hand:
        if position.count + card.value > 31:
            continue
        pile = (*position.pile, card)
        scored = score_pegging(pile)
        points = scored.points
        last_card = len(position.hand) == 1 and next_cards == 0
        if last_card and scored.count < 31:
            points += 1
        if position.exact_finish and points > need:
            points = 0
        no_reply, against = _reply(pile, scored.count, unseen, next_cards)
        go = 0 if last_card or scored.count == 31 else no_reply
        expected_for = points + go
        wins = points == need if position.exact_finish else points >= need
        options.append(PlayOption(card, points, expected_for, against,
                                  expected_for - defence * against, wins))
    options.sort(key=lambda o: (not o.wins, -o.value, -o.card.value, o.card.index))
    return PlayAnalysis(tuple(options), defence)


def _reply(pile: tuple[Card, ...], count: int, unseen: Sequence[Card],
           held: int) -> tuple[Fraction, Fraction]:
    """(chance the next player cannot play, expected points of their best reply)."""
    if held == 0:
        return Fraction(1), Fraction(0)
    if count == 31:
        return Fraction(0), Fraction(0)  # the count starts again: a lead scores nothing
    by_points: dict[int, int] = {}
    for card in unseen:
        if count + card.value <= 31:
            points = score_pegging((*pile, card)).points
            by_points[points] = by_points.get(points, 0) + 1
    hands = comb(len(unseen), held)
    rest = len(unseen)            # cards not scoring at least the current points value
    expected = Fraction(0)
    previous_none = Fraction(1)  # chance that no held card scores more than the current value
    for points in sorted(by_points, reverse=True):
        rest -= by_points[points]
        none_at_least = Fraction(comb(rest, held), hands)
        expected += points * (previous_none - none_at_least)
        previous_none = none_at_least
    return previous_none, expected


def _defence(position: PlayPosition) -> Fraction:
    own_need = position.target - position.own_score
    opponent_need = position.target - position.opponent_score
    if (not position.dealer and position.show_points is not None
            and position.show_points >= own_need):
        return DEFEND
    if position.dealer and opponent_need <= PONE_THREAT:
        return ATTACK
    return Fraction(1)
