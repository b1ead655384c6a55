"""The rest of a hand's play, simulated fast, and the pegging policies the simulated players use.

Cards are deck indices (0..51, `service.cards.DECK`); seats are offsets clockwise from the
player whose decision is searched (0), so a simulation never needs the table's real seat
numbers. The turn rules are the engine's (`service.engine.play`): play goes clockwise, a player
who holds no card that fits is skipped, when nobody can play the last player scores the go (1,
or nothing extra at 31) and the next player after them who still holds cards leads; the very
last card scores 1 (not at 31).

The opponent model: how strong players peg, in general rather than one opponent's habits. Each
simulated player follows one of three policies, drawn per sampled deal with fixed weights:
- greedy (1 in 4): the most points now;
- wary (1 in 2): points now minus the expected points of the next player's best reply;
- bold (1 in 4): points now minus half of that reply.
Ties go to the card of higher count value (low cards are worth keeping for the end of a count),
then to the lower deck index. The reply estimate treats the next player's hand as a random
draw: each rank is held with the chance that `held` cards from 40 unseen cards include one of
its 4 (3 once a card of that rank is in the pile's tail), ranks taken best reply first. The mix
spans the players the issue measured (a greedy program, the classic program's defensive
leads); no weight was fitted to an opponent. The searching player's own later cards are played
by the wary policy.

Speed: a simulated card costs one cached look-up (`policy_values`, by policy, pile and the next
player's hand size) and one comparison per card held, instead of scoring every reply again.
"""
from __future__ import annotations

import random
from functools import lru_cache

from service.cards import DECK

RANK = tuple(card.rank for card in DECK)
VALUE = tuple(card.value for card in DECK)
_RANK_VALUE = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)  # by rank
_SAME_RANK_POINTS = (0, 0, 2, 6, 12)
_UNSEEN = 40  # a typical number of cards a player has not seen during the play

GREEDY, WARY, BOLD = 0.0, 1.0, 0.5  # how much of the next player's expected reply counts
POLICY_MIX = (GREEDY, WARY, WARY, BOLD)  # drawn uniformly: the weights of the module docstring
OWN_POLICY = WARY


def peg_points(ranks: tuple[int, ...], count: int) -> int:
    """Points for the last of `ranks` (the pile since the reset), the count being `count`."""
    points = 2 if count == 15 or count == 31 else 0
    size = len(ranks)
    last = ranks[-1]
    same = 1
    while same < size and ranks[size - 1 - same] == last:
        same += 1
    if same > 1:
        return points + _SAME_RANK_POINTS[same]
    seen_ranks, low, high, run = 1 << last, last, last, 0
    for position in range(size - 2, -1, -1):
        rank = ranks[position]
        bit = 1 << rank
        if seen_ranks & bit:
            break
        seen_ranks |= bit
        low, high = min(low, rank), max(high, rank)
        length = size - position
        if length >= 3 and high - low == length - 1:
            run = length
    return points + run


@lru_cache(maxsize=1 << 17)
def laid_points(ranks: tuple[int, ...]) -> tuple[int, ...]:
    """What a card of each rank (index 1..13) scores laid on the pile `ranks`; -1 where it
    does not fit (past 31, or no copy of the rank left). One pass over the pile's tail finds
    every rank that would complete a run, instead of scoring 13 piles."""
    count = sum(map(_RANK_VALUE.__getitem__, ranks))
    points = [-1] * 14
    for rank in range(1, min(13, 31 - count) + 1 if count > 21 else 14):
        after = count + _RANK_VALUE[rank]
        points[rank] = 2 if after == 15 or after == 31 else 0
    if len(ranks) >= 4:
        for rank in set(ranks):
            if ranks.count(rank) == 4:
                points[rank] = -1
    if not ranks:
        return tuple(points)
    last = ranks[-1]
    same = 1
    while same < len(ranks) and ranks[-1 - same] == last:
        same += 1
    if points[last] >= 0:
        points[last] += _SAME_RANK_POINTS[same + 1]
    runs = [0] * 15
    seen_ranks, low, high = 0, 14, 0
    for length, rank in enumerate(reversed(ranks), 1):
        if seen_ranks & 1 << rank:
            break
        seen_ranks |= 1 << rank
        low, high = min(low, rank), max(high, rank)
        if length < 2:
            continue
        if high - low == length - 1:        # consecutive: one more at either end
            runs[low - 1] = runs[high + 1] = length + 1
        elif high - low == length:          # one rank missing inside
            missing = next(r for r in range(low + 1, high) if not seen_ranks & 1 << r)
            runs[missing] = length + 1
    for rank in range(1, 14):
        if runs[rank] and points[rank] >= 0:
            points[rank] += runs[rank]
    return tuple(points)


@lru_cache(maxsize=None)
def _holds_rank(held: int, copies: int) -> float:
    """Chance that `held` cards drawn from _UNSEEN include one of `copies` cards."""
    miss = 1.0
    for drawn in range(held):
        miss *= (_UNSEEN - copies - drawn) / (_UNSEEN - drawn)
    return 1.0 - miss


@lru_cache(maxsize=1 << 16)
def expected_reply(ranks: tuple[int, ...], held: int) -> float:
    """The next player's expected best reply on `ranks`, when they hold `held` unknown cards."""
    if not held or sum(map(_RANK_VALUE.__getitem__, ranks)) == 31:
        return 0.0
    replies = sorted([(points, rank) for rank, points in enumerate(laid_points(ranks))
                      if points > 0], reverse=True)
    expected, none_better = 0.0, 1.0
    tail = ranks[-4:]
    for points, rank in replies:
        holds = _holds_rank(held, 4 - tail.count(rank))
        expected += points * holds * none_better
        none_better *= 1.0 - holds
    return expected


@lru_cache(maxsize=1 << 17)
def policy_values(caution: float, ranks: tuple[int, ...],
                  next_held: int) -> tuple[float | None, ...]:
    """How a policy of `caution` values laying each rank (index 1..13) on `ranks`: points now
    less `caution` times the expected reply. None where the rank does not fit."""
    values: list[float | None] = [None] * 14
    for rank, points in enumerate(laid_points(ranks)):
        if points >= 0:
            values[rank] = points - caution * expected_reply((*ranks, rank), next_held) \
                if caution else float(points)
    return tuple(values)


def choose_card(caution: float, hand: list[int], ranks: tuple[int, ...], next_held: int) -> int:
    """The card a policy of `caution` plays from `hand` (some card fits) on the pile `ranks`."""
    values = policy_values(caution, ranks, next_held)
    best, best_key = -1, None
    for card in hand:
        value = values[RANK[card]]
        if value is None:
            continue
        key = (value, VALUE[card], -card)
        if best_key is None or key > best_key:
            best, best_key = card, key
    return best


def draw_policies(rng: random.Random, seats: int,
                  mix: tuple[float, ...] = POLICY_MIX) -> list[float]:
    """The caution of each seat for one sampled deal: the searching seat (0) plays wary, the
    others a policy of `mix` each."""
    return [OWN_POLICY] + [rng.choice(mix) for _ in range(seats - 1)]


def play_out(hands: list[list[int]], ranks: tuple[int, ...], count: int, card: int,
             cautions: list[float], side_of: tuple[int, ...], needs: list[int],
             exact_finish: bool) -> tuple[list[int], int]:
    """Seat 0 plays `card` on the pile `ranks` (counting `count`); everyone plays on to the end
    of the hand. `hands` is consumed. Returns the points each side pegged from
    here and the first side to reach its `needs` (points still needed to win), or -1."""
    clockwise = _CLOCKWISE[len(hands)]
    points = [0] * len(needs)
    first_out = -1
    cards_left = sum(map(len, hands))
    seat = 0
    while True:
        hands[seat].remove(card)
        cards_left -= 1
        scored = laid_points(ranks)[RANK[card]]
        count += VALUE[card]
        ranks = (*ranks, RANK[card])
        last = seat
        if not cards_left:
            scored += count != 31
            if scored:
                first_out = _award(points, needs, side_of[last], scored, exact_finish, first_out)
            return points, first_out
        if scored:
            first_out = _award(points, needs, side_of[last], scored, exact_finish, first_out)
        seat = -1
        room = 31 - count
        for candidate in clockwise[last]:
            hand = hands[candidate]
            if hand and min(map(VALUE.__getitem__, hand)) <= room:
                seat = candidate
                break
        if seat < 0:
            if room:
                first_out = _award(points, needs, side_of[last], 1, exact_finish, first_out)
            count, ranks = 0, ()
            seat = next(candidate for candidate in clockwise[last] if hands[candidate])
        following = next((candidate for candidate in clockwise[seat][:-1] if hands[candidate]),
                         seat)
        next_held = len(hands[following]) if following != seat else 0
        card = choose_card(cautions[seat], hands[seat], ranks, next_held)


# _CLOCKWISE[seats][seat]: every seat in turn after `seat`, ending with `seat` itself.
_CLOCKWISE = {seats: tuple(tuple((seat + step) % seats for step in range(1, seats + 1))
                           for seat in range(seats)) for seats in range(2, 7)}


def _award(points: list[int], needs: list[int], side: int, scored: int, exact_finish: bool,
           first_out: int) -> int:
    if exact_finish and points[side] + scored > needs[side]:
        return first_out
    points[side] += scored
    if first_out < 0 and points[side] >= needs[side]:
        return side
    return first_out
