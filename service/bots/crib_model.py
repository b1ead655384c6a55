"""The role-aware crib: what the other crib cards are when players discard as a good player does.

The uniform model (service.bots.discard) takes every other player's discard as equally likely.
Real players keep their best cards: a dealer throws good cards into their own crib and a pone
throws cards that score little. This module weights the other crib cards by discard tables,
one per layout (player count and teams) and role:
- `own`: a seat that discards into its own side's crib (the dealer; with teams, a partner);
- `other`: a seat that discards into another side's crib.
A table gives the chance that a seat of that role, dealt from a full deck, discards each rank
multiset (two ranks with 2 players, one rank otherwise). service/simulation/crib_tables.py
makes the tables by iterating from `hard`'s own discards until they settle (its docstring has
the method); the shipped data are in service/bots/data/crib_tables.json.

Model of one analysed hand: the other crib cards (other seats' discards, with 3 players also
the card from the deck) form a rank multiset t. Its chance is the uniform chance given the cards
you have not seen, prod_r C(unseen_r, t_r) / C(unseen, k), times the table's lift: the chance
the tables give t (the seats' tables convolved, the deck card uniform) over the chance uniform
play gives it. With uniform tables every lift is 1 and the model is exactly the uniform one
(tests/bots/test_crib_model.py checks it). The starter is uniform over the unseen cards not in
t. Only fifteens, pairs and runs are weighted: flushes and nobs keep their uniform expectation.
"""
from __future__ import annotations

import json
from functools import cache
from itertools import combinations_with_replacement
from math import comb
from pathlib import Path

import numpy as np

from service.scoring.fast import rank_points_table, rank_weights

ROLES = ("own", "other")
DATA = Path(__file__).with_name("data") / "crib_tables.json"
_COMB = np.array([[comb(n, k) for k in range(7)] for n in range(5)], dtype=np.float64)


def layout_key(players: int, teams: str | None) -> str:
    return f"{players}" if teams is None else f"{players}-{teams}"


def cards_per_seat(players: int) -> int:
    return 2 if players == 2 else 1


@cache
def multiset_counts(size: int) -> np.ndarray:
    """Every multiset of `size` ranks (combinations_with_replacement order) as counts per rank:
    an array multisets x 13."""
    multisets = list(combinations_with_replacement(range(1, 14), size))
    counts = np.zeros((len(multisets), 13), dtype=np.int64)
    for row, multiset in enumerate(multisets):
        for rank in multiset:
            counts[row, rank - 1] += 1
    return counts


def uniform_discard_chances(size: int) -> np.ndarray:
    """The chance of each rank multiset of `size` cards from a full deck."""
    counts = multiset_counts(size)
    return _COMB[np.full_like(counts, 4), counts].prod(axis=1) / comb(52, size)


class CribTables:
    """Discard chances per layout and role: {layout_key: {role: array over multisets}}."""

    def __init__(self, chances: dict[str, dict[str, np.ndarray]]):
        self.chances = chances

    @classmethod
    def uniform(cls, layouts) -> CribTables:
        return cls({layout_key(players, teams): {
            role: uniform_discard_chances(cards_per_seat(players)) for role in ROLES}
            for players, teams in layouts})

    @classmethod
    def from_counts(cls, counts: dict[str, dict[str, list[int]]]) -> CribTables:
        """Tables from discard counts; each multiset also gets one uniform pseudo-hand, so
        that a discard never seen in the simulation stays possible."""
        chances: dict[str, dict[str, np.ndarray]] = {}
        for key, by_role in counts.items():
            chances[key] = {}
            for role, role_counts in by_role.items():
                observed = np.asarray(role_counts, dtype=np.float64)
                size = 2 if len(observed) > 13 else 1
                chances[key][role] = ((observed + uniform_discard_chances(size))
                                      / (observed.sum() + 1))
        return cls(chances)

    @classmethod
    def shipped(cls) -> CribTables:
        return cls.from_counts(json.loads(DATA.read_text())["tables"])

    def chance(self, players: int, teams: str | None, role: str) -> np.ndarray:
        by_role = self.chances[layout_key(players, teams)]
        # A layout whose own side never discards (5 or 6 players, no teams) has no `own` table.
        return by_role.get(role, by_role["other"])


@cache
def shipped_tables() -> CribTables:
    return CribTables.shipped()


def crib_fillers(players: int, teams: str | None, own_crib: bool,
                 discards: int) -> tuple[tuple[str, ...], int]:
    """Who else fills the analysed seat's crib: the roles of the other discarding seats and the
    number of cards from the deck. Seat 0 deals; sides alternate around the table."""
    sides = {None: players, "2x2": 2, "3x2": 3, "2x3": 2}[teams]
    dealer_discards = players <= 4
    discarding = [seat for seat in range(players) if seat or dealer_discards]
    if not own_crib:
        seat = 1
    elif discards == 0 or dealer_discards:
        seat = 0
    elif sides < players:  # a partner of the dealer, who keeps all their cards
        seat = sides
    else:  # without teams only the dealer owns the crib: read the hand as a non-dealer's
        seat = 1
    roles = tuple("own" if other % sides == 0 else "other"
                  for other in discarding if other != seat)
    return roles, 1 if players == 3 else 0


@cache
def _filler_lifts(tables: CribTables, players: int, teams: str | None,
                  roles: tuple[str, ...], deck_cards: int) -> tuple[np.ndarray, np.ndarray]:
    """The lift of each multiset of the other crib cards: (counts: multisets x 13, lift)."""
    per_seat = cards_per_seat(players)
    policy = {(0,) * 13: 1.0}
    uniform = {(0,) * 13: 1.0}
    seats = [(tables.chance(players, teams, role), per_seat) for role in roles]
    seats += [(uniform_discard_chances(1), 1)] * deck_cards
    for chances, size in seats:
        policy = _convolve(policy, chances, size)
    for _, size in seats:
        uniform = _convolve(uniform, uniform_discard_chances(size), size)
    keys = sorted(policy)
    counts = np.array(keys, dtype=np.int64).reshape(len(keys), 13)
    lift = np.array([policy[key] / uniform[key] for key in keys])
    return counts, lift


def _convolve(distribution: dict, chances: np.ndarray, size: int) -> dict:
    result: dict = {}
    rows = multiset_counts(size)
    for counts, chance in distribution.items():
        base = np.asarray(counts)
        for row, row_chance in zip(rows, chances):
            key = tuple(base + row)
            result[key] = result.get(key, 0.0) + chance * row_chance
    return result


class WeightedCrib:
    """The expected rank points (fifteens, pairs, runs) of a crib for one analysed hand."""

    def __init__(self, tables: CribTables, players: int, teams: str | None, own_crib: bool,
                 discards: int, per_rank_unseen: list[int], show_size: int):
        roles, deck_cards = crib_fillers(players, teams, own_crib, discards)
        counts, lift = _filler_lifts(tables, players, teams, roles, deck_cards)
        unseen = np.asarray(per_rank_unseen[1:], dtype=np.int64)
        possible = (counts <= unseen).all(axis=1)
        counts, lift = counts[possible], lift[possible]
        chance = lift * _COMB[np.broadcast_to(unseen, counts.shape), counts].prod(axis=1)
        chance /= chance.sum()
        # The starter: each rank as often as its cards left unseen once the fillers are out.
        left = unseen - counts
        starter_chance = chance[:, None] * left / left.sum(axis=1, keepdims=True)
        weights = rank_weights(show_size)[1:].astype(np.int64)
        keys = (counts @ weights)[:, None] + weights[None, :]
        used = starter_chance > 0
        self.keys, self.chances = keys[used], starter_chance[used]
        self.table = rank_points_table(show_size)
        self.weights = rank_weights(show_size)

    def rank_points(self, discard_ranks) -> float:
        key = sum(int(self.weights[rank]) for rank in discard_ranks)
        # A multiply and sum, not `@`: a float matrix product goes to BLAS, whose threads
        # spin for milliseconds on a busy machine.
        return float((self.table.take(key + self.keys) * self.chances).sum())
