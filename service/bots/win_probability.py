"""Win probability and expected game points of a two-player position at the start of a deal.

Model: every deal is drawn from `hard`'s own self-play (service/simulation/deal_scores.py makes
the data, service/bots/data/deal_scores_2.json): the joint points of the dealer and the pone in
the play (heels included), who reaches a given number of points first in the play, the pone's
show and the dealer's show (hand and crib). The play, the pone's show and the dealer's show are
taken as independent of one another. Counting order decides the race: the play first (the
race table says who gets there first), then the pone's show, then the dealer's; a skunk is
judged on the loser's score at the start of the deal less what the loser pegged in it (in the
play race, at the start of the deal).

Dynamic programming over the deal cycle, by the points each side still needs (a for the
dealer, b for the pone): with V the value for the dealer of this deal,
    V(a, b) = R(a, b) + sum_{d<a, p<b} play(d, p) G2(b - p, a - d)
    G2(x, y) = sum_h pone_show(h) G1(x - h, y);  G1(x <= 0, y) = flip * term(y)
    G1(x, y) = sum_h dealer_show(h) U(x, y - h);  U(x, y <= 0) = term(x)
    U(x, y) = flip * V(x, y)      (the next deal: the pone deals, needing x; the dealer y)
where R is the play race, term(L) the game points a win is worth when the loser still needs L
(1 for a win probability), and flip = -1 values the dealer's wins less the pone's, +1 counts
all game points. Every deal scores at least the last-card point, so V(a, b) needs only
diagonals a + b below its own: one diagonal at a time, vectorised over it. Win chances depend
only on the needs: one table, built for the in-game reach or for the largest target, serves
every target. Game points need two tables per target and skunk rule (8 targets cached). Tables
are built on first use; bench/position_speed.py times a build and a query, which is then a
lookup. A build grows with the square of the target: about a second for 121, minutes for 1000
on a loaded machine. Where a deployment keeps a shelf (service.bots.shelf), each table is built
once for all its processes.
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

import numpy as np

from service.cards import DECK, Card
from service.engine.rules import skunk_level
from service.scoring import show_points
from service.errors import InvalidInputError

from .shelf import shelved

DATA = Path(__file__).with_name("data") / "deal_scores_2.json"


class PositionError(InvalidInputError):
    """A position that cannot be valued."""

    def __init__(self, code: str, message: str, **params):
        super().__init__(message, code=code, **params)


@dataclass(frozen=True, slots=True)
class PositionValue:
    win: tuple[float, ...]              # each side's chance to win the game
    game_points: tuple[float, ...]      # each side's expected game points (1 a win, more a skunk)


class DealModel:
    """Per-deal score distributions, as chances (see the module docstring)."""

    def __init__(self, data: dict):
        deals = data["deals"]
        self.play = np.array(data["play"], dtype=np.float64) / deals  # [dealer, pone] points
        self.pone_show = np.array(data["pone_show"], dtype=np.float64) / deals
        self.dealer_show = np.array(data["dealer_show"], dtype=np.float64) / deals
        self.dealer_hand = np.array(data["dealer_hand"], dtype=np.float64) / deals
        self.dealer_crib = np.array(data["dealer_crib"], dtype=np.float64) / deals
        # race_*[a, b]: the dealer (pone) is the first to peg a (b) points in the play; the last
        # index stands for every need beyond the most either pegged.
        self.race_dealer = np.array(data["race_dealer"], dtype=np.float64) / deals
        self.race_pone = np.array(data["race_pone"], dtype=np.float64) / deals

    def race(self, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        rows, cols = self.race_dealer.shape
        a, b = np.minimum(a, rows - 1), np.minimum(b, cols - 1)
        return self.race_dealer[a, b], self.race_pone[a, b]


@cache
def deal_model() -> DealModel:
    return DealModel(json.loads(DATA.read_text()))


def solve(model: DealModel, term: np.ndarray, flip: int) -> np.ndarray:
    """V[a, b] for needs 1..len(term) - 1 (see the module docstring); term[L] for L >= 1."""
    size = len(term) - 1
    play_d, play_p = np.nonzero(model.play)
    play_w = model.play[play_d, play_p]
    dealer_h = np.nonzero(model.dealer_show)[0]
    dealer_w = model.dealer_show[dealer_h]
    pone_h = np.nonzero(model.pone_show)[0]
    pone_w = model.pone_show[pone_h]
    pad_x, pad_y = int(pone_h.max()) + 1, int(dealer_h.max()) + 1
    pad_d, pad_p = int(play_d.max()) + 1, int(play_p.max()) + 1
    value = np.zeros((size + 1, size + 1))
    # U[x, y + pad_y]; G1[x + pad_x, y]; G2[x + pad_p, y + pad_d] (zero where a side is out).
    u = np.zeros((size + 1, size + 1 + pad_y))
    u[:, :pad_y + 1] = term[:, None]
    g1 = np.zeros((size + 1 + pad_x, size + 1))
    g1[:pad_x + 1, :] = flip * term[None, :]
    g2 = np.zeros((size + 1 + pad_p, size + 1 + pad_d))
    for diagonal in range(2, 2 * size + 1):
        a = np.arange(max(1, diagonal - size), min(size, diagonal - 1) + 1)
        b = diagonal - a
        won_d, won_p = model.race(a, b)
        v = won_d * term[b] + flip * won_p * term[a]
        v += _weigh(play_w, g2[b - play_p[:, None] + pad_p, a - play_d[:, None] + pad_d])
        value[a, b] = v
        u[a, b + pad_y] = flip * v
        g1[a + pad_x, b] = _weigh(dealer_w, u[a, b - dealer_h[:, None] + pad_y])
        g2[a + pad_p, b + pad_d] = _weigh(pone_w, g1[a - pone_h[:, None] + pad_x, b])
    return value


def _weigh(weights: np.ndarray, rows: np.ndarray) -> np.ndarray:
    # Not `weights @ rows`: a float matrix product goes to BLAS, whose threads spin for
    # milliseconds on a busy machine.
    return (weights[:, None] * rows).sum(axis=0)


_win_table: list[np.ndarray] = []


def win_table(size: int) -> np.ndarray:
    """The dealer's chance to win less the pone's, for needs up to at least `size`. Only the
    needs matter, so one table serves every target: it is built for the in-game reach, or for
    the largest target when a need is past it (a smaller table is the corner of a larger one),
    once per process, and once per deployment where a shelf is in place (service.bots.shelf)."""
    if not _win_table or len(_win_table[0]) <= size:
        built = IN_GAME_REACH if size <= IN_GAME_REACH else max(size, MOST_TARGET)
        _win_table[:] = shelved(f"win-2-{built}",
                                lambda: (solve(deal_model(), np.ones(built + 1), -1),))
    return _win_table[0]


@lru_cache(maxsize=8)
def game_point_tables(target: int, skunk: str) -> tuple[np.ndarray, np.ndarray]:
    """For needs up to `target`: the dealer's game points less the pone's, and both added."""

    def build() -> tuple[np.ndarray, np.ndarray]:
        term = np.array([1 + skunk_level(skunk, target, target - need)
                         for need in range(target + 1)], dtype=np.float64)
        model = deal_model()
        return solve(model, term, -1), solve(model, term, +1)

    signed, total = shelved(f"points-2-{target}-{skunk}", build)
    return signed, total


def position_value(scores: tuple[int, int], dealer: int, target: int = 121,
                   skunk: str = "standard") -> PositionValue:
    """Each side's chance to win and expected game points when side `dealer` deals next."""
    check_position(scores, target)
    pone = 1 - dealer
    a, b = target - scores[dealer], target - scores[pone]
    signed_win = win_table(target)[a, b]
    signed, total = (table[a, b] for table in game_point_tables(target, skunk))
    win, points = [0.0, 0.0], [0.0, 0.0]
    win[dealer], win[pone] = (1 + signed_win) / 2, (1 - signed_win) / 2
    points[dealer], points[pone] = (total + signed) / 2, (total - signed) / 2
    return PositionValue(tuple(win), tuple(points))


def check_position(scores, target: int, fields: tuple[str, ...] = ("scores", "scores")) -> None:
    """Raise PositionError for a finished game, naming the field of the score (the schema
    bounds the target and the dealer; a caller in process must keep to them)."""
    for side, score in enumerate(scores):
        if score >= target:
            raise PositionError("game_already_won", "a score has already reached the target",
                                field=fields[side], side=side, target=target)


# Near the end: the discard that gives the best chance to win ----------------------------------
# Either side needing at most this many points: a few deals from the end, where points are
# worth their chance to win rather than their number (elsewhere the two rank discards alike).
ENDGAME_NEED = 40


# In a game, the win models are asked only within this reach: the two-player table for needs up
# to it is built once per process in about a second, another layout's tables for a target up to
# it in under half a second (for 1000: minutes and seconds, too long for a move).
IN_GAME_REACH = 241
MOST_TARGET = 1000  # service.engine.options: a game's target is 31..1000


def is_endgame(scores: Sequence[int], target: int) -> bool:
    return target - max(scores) <= ENDGAME_NEED


def within_reach(players: int, scores: Sequence[int], target: int) -> bool:
    """Whether a game's position is within IN_GAME_REACH: two players, by the points each side
    needs; more, by the target (their tables are built per target)."""
    if players == 2:
        return target - min(scores) <= IN_GAME_REACH
    return target <= IN_GAME_REACH


def discard_win_chances(options: Sequence, hand: Sequence[Card], own_score: int,
                        opponent_score: int, dealer: bool, target: int,
                        skunk: str = "standard") -> list[float]:
    """The chance to win after each of two-player discard `options` (service.bots.discard's).
    Your show is the kept cards' exact points over every starter; the crib is the model's,
    moved to the option's expected (role-weighted) crib; the rest of the deal is the model's."""
    check_position((own_score, opponent_score), target)
    model = deal_model()
    unseen = [card for card in DECK if card not in hand]

    def chance(option) -> float:
        kept = kept_show_chances(option.keep, unseen)
        crib = shifted(model.dealer_crib, option.crib)
        if dealer:
            return deal_win_chance(target - own_score, target - opponent_score,
                                   model.pone_show, np.convolve(kept, crib), target, skunk)
        return 1 - deal_win_chance(target - opponent_score, target - own_score, kept,
                                   np.convolve(model.dealer_hand, crib), target, skunk)

    return [chance(option) for option in options]


def kept_show_chances(keep: Sequence[Card], unseen: Sequence[Card]) -> np.ndarray:
    """The chances of the kept cards' show points, by points, over every starter in `unseen`."""
    return np.bincount([show_points(keep, starter) for starter in unseen],
                       minlength=30) / len(unseen)


def deal_win_chance(a: int, b: int, pone_show: np.ndarray, dealer_show: np.ndarray,
                    target: int, skunk: str = "standard") -> float:
    """The dealer's chance to win from needs (a, b) when this deal's shows follow the given
    distributions (chances by points) and the play and every later deal follow the model."""
    model = deal_model()
    later = win_table(max(a, b))  # the needs, not the target: a far target stays unbuilt
    held, shown = len(pone_show), len(dealer_show)
    # U(x, y): the next deal's dealer (this pone) needs x = 1..b, its pone y = 1 - shown..a.
    xs, ys = np.arange(1, b + 1)[:, None], np.arange(1 - shown, a + 1)[None, :]
    u = np.where(ys <= 0, 1.0, -later[xs, np.maximum(ys, 0)])
    # G1(x, y) for x = 1 - held..b and y = 0..a; where x <= 0 the pone has counted out.
    g1 = np.full((held + b, a + 1), -1.0)
    g1[held:, :] = 0.0
    for points in np.nonzero(dealer_show)[0]:
        g1[held:, :] += dealer_show[points] * u[:, shown - 1 - points:shown + a - points]
    # G2(x, y) for x = 0..b and y = 0..a.
    g2 = np.zeros((b + 1, a + 1))
    for points in np.nonzero(pone_show)[0]:
        g2 += pone_show[points] * g1[held - 1 - points:held + b - points, :]
    won_d, won_p = model.race(np.array([a]), np.array([b]))
    d, p = np.nonzero(model.play[:a, :b])
    value = float(won_d[0] - won_p[0]) + float((model.play[d, p] * g2[b - p, a - d]).sum())
    return (1 + value) / 2


@lru_cache(maxsize=1 << 14)
def chance_after_play(own_need: int, opponent_need: int, own_crib: bool,
                      own_show: int | None) -> float:
    """Two players, the play over and nobody out: the chance to win when you still need
    `own_need` points and the other side `opponent_need` (both > 0). The shows in counting
    order, the pone's first (your hand's points are `own_show` when known, every other show
    the model's), then the deals to come (win_table), the pone of this deal dealing next."""
    model = deal_model()
    if own_crib:
        own = model.dealer_show if own_show is None else \
            np.concatenate([np.zeros(own_show), model.dealer_crib])
        return 1 - _first_counter_wins(model.pone_show, opponent_need, own, own_need)
    own = model.pone_show if own_show is None else np.eye(1, own_show + 1, own_show)[0]
    return _first_counter_wins(own, own_need, model.dealer_show, opponent_need)


def _first_counter_wins(first: np.ndarray, first_need: int, second: np.ndarray,
                        second_need: int) -> float:
    """The chance the side that counts first (the pone) wins, each side's show drawn from its
    chances by points: it counts out, or neither does and it deals the next deal."""
    table = win_table(max(first_need, second_need))
    x = np.arange(min(first_need, len(first)))
    y = np.arange(min(second_need, len(second)))
    later = (1 + table[first_need - x[:, None], second_need - y[None, :]]) / 2
    return float(first[first_need:].sum()
                 + (first[x][:, None] * later * second[y][None, :]).sum())


def shifted(chances: np.ndarray, mean: float) -> np.ndarray:
    """`chances` (by points) moved to have the given mean, split between the two whole shifts
    around it (points below 0 count as 0)."""
    delta = mean - float((np.arange(len(chances)) * chances).sum())
    whole = int(np.floor(delta))
    part = delta - whole
    result = np.zeros(len(chances) + max(whole, 0) + 1)
    for shift, weight in ((whole, 1 - part), (whole + 1, part)):
        for points, chance in enumerate(chances):
            result[max(points + shift, 0)] += weight * chance
    return result
