"""Replay of a whole play (pegging) of one hand: who played what, the count, every point.

Pure domain: cards in, results out. The sequence is checked against RULES.md: play goes
clockwise from the dealer's left; a player who holds a card that fits must play it, one who
cannot says go and is skipped; when nobody can play, the last player scores the go (1, or
nothing more at 31, which already scored 2), the count resets and the next player clockwise
after the last one, among those still holding cards, leads; the very last card scores 1
(nothing more at 31).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from service.cards import Card
from service.errors import InvalidInputError
from service.scoring.items import ScoreItem
from service.scoring.pegging import score_pegging

# Cards each player keeps for the play, by number of players (RULES.md, deal sizes).
HAND_SIZES = {2: 4, 3: 4, 4: 4, 5: 4, 6: 5}

# Seat inference explores at most this many positions before giving up.
_SEARCH_BUDGET = 50_000


class ReplayError(InvalidInputError):
    """An impossible sequence of plays; `index` names the play (None: the sequence as a whole)."""

    def __init__(self, code: str, message: str, *, field: str = "plays", **params):
        super().__init__(message, code=code, field=field, **params)


@dataclass(frozen=True, slots=True)
class Play:
    index: int
    seat: int
    card: Card
    count: int
    points: int
    items: tuple[ScoreItem, ...]


@dataclass(frozen=True, slots=True)
class GoPoint:
    """A go or last-card point: `after_play` is the index of the play that earned it."""
    seat: int
    kind: str  # "go" or "last_card"
    points: int
    after_play: int
    count: int


@dataclass(frozen=True, slots=True)
class Reset:
    after_play: int
    count: int


@dataclass(frozen=True, slots=True)
class Pass:
    """A seat that said go (held cards, none fitting) before play `before_play`."""
    seat: int
    before_play: int
    count: int


@dataclass(frozen=True, slots=True)
class Replay:
    players: int
    dealer: int
    plays: tuple[Play, ...]
    go_points: tuple[GoPoint, ...]
    resets: tuple[Reset, ...]
    passes: tuple[Pass, ...]
    totals: tuple[int, ...]


def replay(players: int, dealer: int, cards: Sequence[Card],
           seats: Sequence[int] | None = None) -> Replay:
    """Replay a complete play. Without `seats`, each card's seat is inferred from the turn order
    and the forced goes (when several seatings fit, players are assumed to play whenever they
    can). Raises ReplayError naming the first impossible play."""
    size = _check_shape(players, dealer, cards, seats)
    if seats is None:
        seats = _infer_seats(players, dealer, cards)
    return _replay_with_seats(players, dealer, tuple(cards), tuple(seats), size)


def _check_shape(players, dealer, cards, seats) -> int:
    if players not in HAND_SIZES:
        raise ReplayError("seat_out_of_range", f"players: {players} is not 2-6", players=players,
                          seat=players, field="players")
    if not 0 <= dealer < players:
        raise ReplayError("seat_out_of_range", f"dealer: no seat {dealer} with {players} players",
                          seat=dealer, players=players, field="dealer")
    size = HAND_SIZES[players]
    seen: set[Card] = set()
    for index, card in enumerate(cards):
        if card in seen:
            raise ReplayError("duplicate_card", f"plays[{index}]: {card} is played twice",
                              index=index, card=str(card))
        seen.add(card)
    if seats is not None:
        played = [0] * players
        for index, seat in enumerate(seats):
            if not 0 <= seat < players:
                raise ReplayError("seat_out_of_range", f"plays[{index}]: no seat {seat}",
                                  index=index, seat=seat, players=players)
            played[seat] += 1
            if played[seat] > size:
                raise ReplayError("wrong_play_count",
                                  f"plays[{index}]: seat {seat} plays more than {size} cards",
                                  index=index, seat=seat, got=played[seat], expected=size)
    expected = players * size
    if len(cards) != expected:
        raise ReplayError("wrong_total_plays",
                          f"{players} players play {expected} cards, got {len(cards)}",
                          players=players, expected=expected, got=len(cards))
    return size


def _replay_with_seats(players, dealer, cards, seats, size) -> Replay:
    remaining = [{card for card, seat in zip(cards, seats) if seat == s} for s in range(players)]
    totals = [0] * players
    plays, go_points, resets, passes = [], [], [], []
    pile: list[Card] = []
    count, turn = 0, (dealer + 1) % players
    last: int | None = None
    said_go: set[int] = set()

    def next_to_play(index):
        for step in range(players):
            seat = (turn + step) % players
            if not remaining[seat]:
                continue
            if any(count + card.value <= 31 for card in remaining[seat]):
                return seat
            if seat not in said_go and seat != last:  # the last player takes the go instead
                said_go.add(seat)
                passes.append(Pass(seat, index, count))
        return None

    for index, (card, seat) in enumerate(zip(cards, seats)):
        expected = next_to_play(index)
        if expected is None:  # nobody can play: the go, then a new count
            assert last is not None  # somebody has played: the first card always fits
            go_points.append(GoPoint(last, "go", 1, index - 1, count))
            totals[last] += 1
            resets.append(Reset(index - 1, count))
            pile, count, turn = [], 0, (last + 1) % players
            said_go.clear()
            expected = next_to_play(index)
        if seat != expected:
            raise ReplayError("play_out_of_turn",
                              f"plays[{index}]: seat {seat} played {card}, but it was seat "
                              f"{expected}'s turn", index=index, seat=seat, card=str(card),
                              expected=expected)
        if count + card.value > 31:
            raise ReplayError("count_exceeds_31",
                              f"plays[{index}]: the count reaches {count + card.value}",
                              index=index, count=count + card.value)
        pile.append(card)
        scored = score_pegging(pile)
        count = scored.count
        remaining[seat].discard(card)
        totals[seat] += scored.points
        plays.append(Play(index, seat, card, count, scored.points, scored.items))
        last, turn = seat, (seat + 1) % players
        if count == 31 and index < len(cards) - 1:
            resets.append(Reset(index, count))
            pile, count = [], 0
            said_go.clear()
    if count < 31:  # at 31 the thirty-one already scored the 2
        assert last is not None  # a replay has cards
        go_points.append(GoPoint(last, "last_card", 1, len(cards) - 1, count))
        totals[last] += 1
    return Replay(players, dealer, tuple(plays), tuple(go_points), tuple(resets),
                  tuple(passes), tuple(totals))


def _infer_seats(players: int, dealer: int, cards: Sequence[Card]) -> list[int]:
    """The seat of each card, found by a depth-first search over who says go."""
    size = HAND_SIZES[players]
    values = [card.value for card in cards]
    total = len(cards)
    _check_resets(cards)
    # later_above[i][t]: how many of the cards from play i on have a value above t
    later_above = [[0] * 32 for _ in range(total + 1)]
    for index in range(total - 1, -1, -1):
        for threshold in range(32):
            later_above[index][threshold] = (later_above[index + 1][threshold]
                                             + (values[index] > threshold))
    seats = [0] * total
    left = [size] * players
    # floor[s]: every card seat s still holds is worth more than this (it said go at 31 - floor)
    floor = [0] * players
    budget = [_SEARCH_BUDGET]
    deepest = [0]

    def feasible(index):
        return all(left[s] <= later_above[index][floor[s]] for s in range(players) if left[s])

    def place(index, count, last, turn):
        budget[0] -= 1
        if budget[0] < 0:
            return False
        deepest[0] = max(deepest[0], index)
        if index == total:
            return True
        value = values[index]
        saved = floor[:]
        if count == 31 or count + value > 31:  # nobody could play: a new count
            for s in range(players):
                if left[s]:
                    floor[s] = max(floor[s], 31 - count)
            count, turn = 0, (last + 1) % players
        if feasible(index):
            for step in range(players):
                seat = (turn + step) % players
                if not left[seat]:
                    continue
                if value > floor[seat]:
                    seats[index] = seat
                    left[seat] -= 1
                    if feasible(index + 1) and place(index + 1, count + value, seat,
                                                     (seat + 1) % players):
                        return True
                    left[seat] += 1
                # Or this seat says go: from now on it holds nothing that fits this count.
                floor[seat] = max(floor[seat], 31 - count)
                if left[seat] > later_above[index][floor[seat]]:
                    break
        floor[:] = saved
        return False

    if not place(0, 0, None, (dealer + 1) % players):
        index = min(deepest[0], total - 1)
        raise ReplayError("seats_not_inferable",
                          f"plays[{index}]: no seating of the cards fits the rules of the play",
                          index=index)
    return seats


def _check_resets(cards: Sequence[Card]) -> None:
    """A card that does not fit the count means nobody could play; then no card played later
    may fit that count either (whoever held it would have had to play it)."""
    count = 0
    for index, card in enumerate(cards):
        if count == 31 or count + card.value > 31:
            for later in cards[index:]:
                if count + later.value <= 31:
                    raise ReplayError(
                        "play_skipped_playable",
                        f"plays[{index}]: {card} does not fit the count of {count}, but {later} "
                        f"(played later) did", index=index, card=str(card), count=count,
                        playable=str(later))
            count = 0
        count += card.value
