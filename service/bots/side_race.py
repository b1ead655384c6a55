"""Win probability and expected game points for any layout: each side's race to the target,
the races taken as independent of one another.

Data: for each layout (2-6 players; teams 2x2, 3x2, 2x3), deals of `hard` playing itself
(service/simulation/deal_scores.py --layouts; service/bots/data/deal_roles_<layout>.json). A
side's role in a deal is the offset from the dealer of its seat nearest the dealer's left
(0: the side deals); its other seats sit `sides`, 2 `sides`... seats further on. The role falls
by one each deal as the deal passes to the left. For each role: the side's points in the play
(heels included) and, for each need, the card of the play at which the side first reaches it;
for each seat offset its show (the dealer's hand and the crib apart).

Model. A game's time is (deal, stage), the stages of a deal in counting order: the play card by
card (heels at card 0, a go or the last card with the card before it), each seat's show
clockwise from the dealer's left, the dealer's hand, the crib. For each side alone, dynamic
programming over the deal cycle on the points it has scored gives the chance that it first
reaches the target at each time, and the chance that it has not: within the play the reach
table decides the card (by the side's need at the start of the deal), the play's points and
each of its shows are independent. The sides are taken as independent of one another, so
    P(side i wins) = sum_t P(i reaches the target at t) * E[1 / (1 + M_t)]
where M_t counts the other sides that reach it at the same t, and none has reached it before t:
sides that reach it on the same card of the play share the win evenly (in a real game a card
scores for one seat only; such ties exist only because the sides are independent). A show
belongs to one seat, so no two sides reach the target in the same show.

Game points: the winner gains from each losing side 1 + the side's skunk level
(service.engine.rules.skunk_level: standard or ACC lines) at the winner's time; a losing side's
score is the model's at that time, but while the play is on it is its score at the start of
the deal (what it has pegged so far in the play is not modelled). A loser that reached the
target on the same card owes 1.

The error of the independence: applied to two players, where the exact joint model exists
(service.bots.win_probability: the play's joint points and race), it differs from the exact
dynamic programme on the same 2,000 deals by 0.0038 on average in the chance to win over every
pair of needs to 121, by at most 0.040 (needs 1 and 6: in the play one side's point is the
other's loss), at most 0.014 when both need more than 31 (tests/bots/test_side_race.py holds it
to 0.045 and 0.005). Against `hard`'s self-play from 0-0 (bench/position_agreement.py, played
with the data before they were remade with today's `hard`): 3 players, 1,200 games, won 39.4%,
30.2%, 30.4% (model 39.9%, 30.9%, 29.2%); 2x2 teams, 1,566 games, the dealing team 57.8% (model
57.3%). Two players are valued by the exact model (position_value); this
one serves every other layout.

Tables: per layout, target and skunk rule (built on first use, kept: see cycle_tables), for
each side's first role and each need at the start of a cycle of deals (a deal in each role):
the chances to reach the target at each stage of the cycle and the game points owed, by the
programme above; and the points a side scores in a whole cycle. A query then runs all sides a cycle at a time, until
the chance that no side has reached the target is below HORIZON, and combines them: about a
millisecond for a game to 121 (bench/position_speed.py).
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

import numpy as np

from service.bots import win_probability
from service.bots.shelf import shelved
from service.bots.win_probability import PositionError, PositionValue
from service.cards import DECK, Card
from service.engine.options import GameOptions
from service.engine.rules import TEAM_LAYOUTS, skunk_level

DATA_DIR = Path(__file__).with_name("data")
HORIZON = 1e-12  # stop when the chance that no side has reached the target is below this


def role_data_path(layout: str) -> Path:
    return DATA_DIR / f"deal_roles_{layout}.json"


def layout_name(players: int, teams: str | None) -> str:
    return teams or str(players)


@dataclass(frozen=True)
class RoleModel:
    """One layout's per-deal distributions, as chances (see the module docstring)."""

    players: int
    sides: int
    cards: int                          # cards played in a deal's play
    play: tuple[np.ndarray, ...]        # per role: the side's play points
    reach: tuple[np.ndarray, ...]       # per role: [need - 1, card] first reaches need there
    unreached: tuple[np.ndarray, ...]   # per role: [need - 1, card] not reached by that card
    shows: tuple[np.ndarray, ...]       # per offset: its show (offset 0: the dealer's hand)
    crib: np.ndarray
    counted: tuple[tuple[tuple[int, np.ndarray], ...], ...]  # per role: see counts

    @classmethod
    def from_data(cls, data: dict) -> RoleModel:
        deals = data["deals"]
        players, sides, cards = data["players"], data["sides"], data["cards"]
        reach = tuple(np.array(role["reach"], dtype=np.float64) / deals
                      for role in data["roles"])
        shows = tuple(np.array(show, dtype=np.float64) / deals for show in data["shows"])
        crib = np.array(data["crib"], dtype=np.float64) / deals
        return cls(
            players=players, sides=sides, cards=cards,
            play=tuple(np.array(role["play"], dtype=np.float64) / deals
                       for role in data["roles"]),
            reach=reach, unreached=tuple(1 - np.cumsum(table, axis=1) for table in reach),
            shows=shows, crib=crib,
            counted=tuple(counts(players, sides, cards, role, shows, crib)
                          for role in range(sides)))

    @property
    def stages(self) -> int:
        """Stages of a deal: cards 0..cards of the play, each seat's show, the crib."""
        return self.cards + 1 + self.players + 1


def counts(players: int, sides: int, cards: int, role: int, shows: tuple[np.ndarray, ...],
           crib: np.ndarray) -> tuple[tuple[int, np.ndarray], ...]:
    """The stages where a side of `role` scores after the play, in order, with the chances of
    its points there: the show of each of its seats (stage cards + offset; the dealer's hand
    cards + players) and the crib (the last stage)."""
    stages = [(cards + (offset or players), shows[offset])
              for offset in range(role, players, sides)]
    if role == 0:
        stages.append((cards + players + 1, crib))
    return tuple(sorted(stages, key=lambda stage: stage[0]))


@cache
def role_model(layout: str) -> RoleModel:
    return RoleModel.from_data(json.loads(role_data_path(layout).read_text()))


def one_deal(model: RoleModel, role: int, need: int, owed_by_points: np.ndarray,
             counted: tuple[tuple[int, np.ndarray], ...] | None = None,
             play_over: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A side of `role` needing `need` at the start of a deal: by stage, the chance it first
    reaches the target there, and the chance it has not by then weighted by the game points it
    would owe (owed_by_points[x]: having scored x of its need); and the chances of the points
    it has scored by the end of the deal, short of its need. `counted` replaces the model's
    shows of the side (model.counted[role]) when some are known better. With `play_over`, the
    deal's play is over and `need` is what the side still needs after it: only the shows
    score."""
    stages = model.stages
    reached, owed = np.zeros(stages), np.empty(stages)
    play = model.cards + 1
    scored = np.zeros(need)  # the chances of the points scored, short of the need
    if play_over:
        owed[:play] = owed_by_points[0]
        scored[0] = 1.0
    else:
        if need <= len(model.reach[role]):
            reached[:play] = model.reach[role][need - 1]
            owed[:play] = owed_by_points[0] * model.unreached[role][need - 1]
        else:
            owed[:play] = owed_by_points[0]
        pegged = model.play[role][:need]
        scored[:len(pegged)] = pegged
    stage = play
    for at, show in model.counted[role] if counted is None else counted:
        owed[stage:at] = (scored * owed_by_points).sum()
        full = np.convolve(scored, show)
        reached[at] = full[need:].sum()
        scored = full[:need]
        stage = at
    owed[stage:] = (scored * owed_by_points).sum()
    return reached, owed, scored


@dataclass(frozen=True)
class CycleTables:
    """A layout's cycle of deals (each side in each role once) for a target and skunk rule."""

    # per first role: [need at the start of the cycle (0 unused), deal of the cycle, (the
    # chance to reach the target, the owed game points), stage], as [need, everything]
    by_need: tuple[np.ndarray, ...]
    points: np.ndarray  # the chances of the points a side scores in a whole cycle


def needs_after(chance: np.ndarray, points: np.ndarray) -> np.ndarray:
    """The chances of each need (by index; 0: reached, dropped) after scoring `points`."""
    after = np.convolve(chance[::-1], points)[:len(chance)][::-1]
    after[0] = 0.0
    return after


def cycle_tables(layout: str, target: int, skunk: str) -> CycleTables:
    """The tables of a layout, target and skunk rule, kept once built: 8 for targets within
    the in-game reach (every layout at one target; at most 5.3 MB each), 2 for larger targets
    (up to 22 MB each, 6 players to 1000), so that games never wait for a table that a query
    of a far target pushed out."""
    if target <= win_probability.IN_GAME_REACH:
        return _game_cycle_tables(layout, target, skunk)
    return _far_cycle_tables(layout, target, skunk)


def _shelved_cycle_tables(layout: str, target: int, skunk: str) -> CycleTables:
    """Built here, or read from the deployment's shelf (service.bots.shelf)."""
    *by_need, points = shelved(f"cycle-{layout}-{target}-{skunk}",
                               lambda: _cycle_arrays(_build_cycle_tables(layout, target, skunk)))
    return CycleTables(tuple(by_need), points)


def _cycle_arrays(tables: CycleTables) -> tuple[np.ndarray, ...]:
    return (*tables.by_need, tables.points)


def _build_cycle_tables(layout: str, target: int, skunk: str) -> CycleTables:
    model = role_model(layout)
    one_deals = [one_deal_table(model, role, target, skunk) for role in range(model.sides)]
    deal_points = [points_of_a_deal(model, role) for role in range(model.sides)]
    by_need = []
    for first in range(model.sides):
        table = np.zeros((target + 1, model.sides, 2 * model.stages))
        for need in range(1, target + 1):
            chance = np.zeros(need + 1)
            chance[need] = 1.0
            for deal in range(model.sides):
                role = (first - deal) % model.sides
                table[need, deal] = chance.dot(one_deals[role][:need + 1])
                chance = needs_after(chance, deal_points[role])
        by_need.append(table.reshape(target + 1, -1))
    cycle_points = deal_points[0]
    for points in deal_points[1:]:
        cycle_points = np.convolve(cycle_points, points)
    return CycleTables(tuple(by_need), cycle_points)


_game_cycle_tables = lru_cache(maxsize=8)(_shelved_cycle_tables)
_far_cycle_tables = lru_cache(maxsize=2)(_shelved_cycle_tables)


def one_deal_table(model: RoleModel, role: int, target: int, skunk: str) -> np.ndarray:
    """one_deal for every need 1..target (row 0 unused): [need, reached stages + owed stages]."""
    table = np.zeros((target + 1, 2 * model.stages))
    for need in range(1, target + 1):
        owed_by_points = game_points_owed(target - need, need, target, skunk)
        table[need] = np.concatenate(one_deal(model, role, need, owed_by_points)[:2])
    return table


def points_of_a_deal(model: RoleModel, role: int) -> np.ndarray:
    """The chances of the points a side of `role` scores in a whole deal."""
    points = model.play[role]
    for _, show in model.counted[role]:
        points = np.convolve(points, show)
    return points


@dataclass(frozen=True, slots=True)
class Races:
    """Every side's race, by time (deal * stages + stage): [side, time]."""

    reached: np.ndarray   # the chance it first reaches the target then
    short: np.ndarray     # the chance it has not reached it by then (that stage included)
    owed: np.ndarray      # short, each case weighted by the game points the side then owes


def races(tables: CycleTables, stages: int, needs: tuple[int, ...],
          roles: tuple[int, ...]) -> Races:
    """Every side's race from the given needs and first roles, a cycle of deals at a time, all
    sides together until the chance that none has reached the target is below HORIZON."""
    chances = [np.zeros(need + 1) for need in needs]  # each side's, by its need
    for chance, need in zip(chances, needs):
        chance[need] = 1.0
    return _races(tables, stages, chances, roles, [[] for _ in needs], np.ones(len(needs)))


def races_after_a_deal(model: RoleModel, tables: CycleTables, needs: tuple[int, ...],
                       roles: tuple[int, ...], known_shows: dict[int, tuple], target: int,
                       skunk: str, play_over: bool = False) -> Races:
    """As races, the first deal's shows of the sides in `known_shows` (side: its `counted`,
    see one_deal) replacing the model's; with `play_over`, from the end of its play."""
    first_deals, chances, still = [], [], np.ones(len(needs))
    for side, (need, role) in enumerate(zip(needs, roles)):
        owed_by_points = game_points_owed(target - need, need, target, skunk)
        reached, owed, scored = one_deal(model, role, need, owed_by_points,
                                         known_shows.get(side), play_over)
        first_deals.append([np.concatenate([reached, owed])])
        still[side] -= reached.sum()
        chance = np.zeros(need + 1)
        chance[need - np.arange(need)] = scored  # by the need left
        chances.append(chance)
    next_roles = tuple((role - 1) % model.sides for role in roles)
    return _races(tables, model.stages, chances, next_roles, first_deals, still)


def _races(tables: CycleTables, stages: int, chances: list[np.ndarray], roles: tuple[int, ...],
           cycles: list[list[np.ndarray]], still: np.ndarray) -> Races:
    """races from each side's chances by need (`cycles` holds what came before: each side's
    times so far; `still`, the chance it has not reached the target by then)."""
    sides = len(chances)
    for _ in range(4 * max(map(len, chances)) + 20):  # a guard only: every deal scores points
        for side, role in enumerate(roles):
            cycle = chances[side].dot(tables.by_need[role][:len(chances[side])])
            cycles[side].append(cycle)
            still[side] -= cycle.reshape(-1, 2, stages)[:, 0].sum()
        if np.prod(still) < HORIZON:
            break
        chances = [needs_after(chance, tables.points) for chance in chances]
    by_time = np.array([np.hstack(cycle) for cycle in cycles]).reshape(sides, -1, 2, stages)
    reached = by_time[:, :, 0].reshape(sides, -1)
    short = 1 - np.cumsum(reached, axis=1)
    done = np.flatnonzero(np.prod(short, axis=0) < HORIZON)
    end = int(done[0]) + 1 if len(done) else reached.shape[1]
    return Races(reached[:, :end], short[:, :end], by_time[:, :, 1].reshape(sides, -1)[:, :end])


# Gauss-Legendre nodes and weights on [0, 1], exact for the polynomials of degree 5 below
_NODES, _WEIGHTS = (np.polynomial.legendre.leggauss(3)[0] + 1) / 2, \
    np.polynomial.legendre.leggauss(3)[1] / 2


def outcome(side_races: Races) -> tuple[list[float], list[float]]:
    """Each side's chance to win and expected game points (see the module docstring).

    Side i reaching the target at t with M others on the same card takes 1 / (1 + M) of the
    win, and 1/(1 + M) is the integral of z^M over [0, 1]: with the others independent, the
    win's share is the integral of prod_{j != i} (short_j + reached_j z), a polynomial of degree
    sides - 1 that the Gauss-Legendre rule integrates exactly. The game points owed to i are
    the derivative in e, at 0, of prod_{j != i} (short_j + reached_j z + e (owed_j + reached_j
    z)): a loser on the same card owes 1."""
    reached, short, owed = side_races.reached, side_races.short, side_races.owed
    sides = len(reached)
    z = _NODES[:, None]
    factor = short[:, None, :] + reached[:, None, :] * z      # [side, node, time]
    owing = owed[:, None, :] + reached[:, None, :] * z
    # products over the sides before each side and after it, with their derivatives
    before: list[tuple[np.ndarray | float, np.ndarray | float]] = [(1.0, 0.0)]
    after: list[tuple[np.ndarray | float, np.ndarray | float]] = [(1.0, 0.0)]
    for k in range(sides - 1):
        product, derivative = before[-1]
        before.append((product * factor[k], derivative * factor[k] + product * owing[k]))
        product, derivative = after[-1]
        back = sides - 1 - k
        after.append((product * factor[back], derivative * factor[back] + product * owing[back]))
    wins, points = [], []
    for i in range(sides):
        (product_b, derivative_b), (product_a, derivative_a) = before[i], after[sides - 1 - i]
        others = product_b * product_a
        owed_to_i = derivative_b * product_a + product_b * derivative_a
        wins.append(float(_WEIGHTS.dot(np.dot(others, reached[i]))))
        points.append(float(_WEIGHTS.dot(np.dot(owed_to_i, reached[i]))))
    return wins, points


def game_points_owed(score: int, need: int, target: int, skunk: str) -> np.ndarray:
    """For each number of points a side scores from `score` without reaching the target: what
    it owes the winner."""
    return np.array([1 + skunk_level(skunk, target, score + points) for points in range(need)],
                    dtype=np.float64)


def check_score_count(scores, sides: int) -> None:
    if len(scores) != sides:
        raise PositionError("wrong_score_count", f"give {sides} scores, one per side, not "
                            f"{len(scores)}", field="scores", expected=sides, got=len(scores))


def check_layout(scores, dealer: int, players: int, teams: str | None, target: int) -> None:
    """Raise PositionError for a position no game of this layout has, naming the field."""
    if teams is not None and TEAM_LAYOUTS.get(teams) != players:
        raise PositionError("invalid_teams", f"teams {teams!r} do not fit {players} players",
                            field="teams", teams=teams, players=players)
    sides = GameOptions(players=players, teams=teams).sides
    check_score_count(scores, sides)
    if not 0 <= dealer < players:
        raise PositionError("dealer_out_of_range", f"with {players} players the dealer is a "
                            f"seat from 0 to {players - 1}, not {dealer}", field="dealer",
                            players=players, last=players - 1, got=dealer)
    win_probability.check_position(scores, target, ("scores",) * sides)


def layout_position_value(scores: tuple[int, ...], dealer: int, players: int = 2,
                          teams: str | None = None, target: int = 121,
                          skunk: str = "standard") -> PositionValue:
    """Each side's chance to win and expected game points when seat `dealer` deals next: the
    exact model for two players, the independent races for every other layout."""
    check_layout(scores, dealer, players, teams, target)
    if players == 2:
        own, other = scores  # two: check_layout counted them
        return win_probability.position_value((own, other), dealer, target, skunk)
    return race_position_value(layout_name(players, teams), scores, dealer, target, skunk)


def race_position_value(layout: str, scores, dealer: int, target: int,
                        skunk: str = "standard") -> PositionValue:
    model = role_model(layout)
    sides = model.sides
    side_races = races(cycle_tables(layout, target, skunk), model.stages,
                       tuple(target - score for score in scores),
                       tuple((side - dealer) % sides for side in range(sides)))
    wins, points = outcome(side_races)
    return PositionValue(tuple(wins), tuple(points))


def discard_win_chances(options: Sequence, hand: Sequence[Card], scores: Sequence[int],
                        seat: int, dealer: int, game: GameOptions) -> list[float]:
    """The chance to win of the side of `seat` after each of its discard `options`
    (service.bots.discard's) in a deal dealt by seat `dealer`, every side's score given, for
    any layout of more than two players: as win_probability.discard_win_chances does for two,
    the seat's show is its kept cards' exact points over every starter and the crib the
    model's moved to the option's expected crib; the rest is the model's."""
    layout = layout_name(game.players, game.teams)
    model = role_model(layout)
    tables = cycle_tables(layout, game.target, game.skunk)
    win_probability.check_position(scores, game.target)
    needs = tuple(game.target - score for score in scores)
    roles = tuple((side - dealer) % model.sides for side in range(model.sides))
    side, dealing = game.side_of(seat), game.side_of(dealer)
    show_stage = model.cards + ((seat - dealer) % game.players or game.players)
    crib_stage = model.cards + game.players + 1
    unseen = [card for card in DECK if card not in hand]

    def chance(option) -> float:
        kept = win_probability.kept_show_chances(option.keep, unseen)
        crib = win_probability.shifted(model.crib, option.crib)
        known = {side: _replaced(model.counted[roles[side]], show_stage, kept)}
        known[dealing] = _replaced(known.get(dealing, model.counted[0]), crib_stage, crib)
        wins, _ = outcome(races_after_a_deal(model, tables, needs, roles, known, game.target,
                                             game.skunk))
        return wins[side]

    return [chance(option) for option in options]


def _replaced(counted: tuple[tuple[int, np.ndarray], ...], stage: int,
              show: np.ndarray) -> tuple[tuple[int, np.ndarray], ...]:
    return tuple((at, show if at == stage else chances) for at, chances in counted)


@lru_cache(maxsize=1 << 14)
def chance_after_play(layout: str, target: int, needs: tuple[int, ...], dealer: int,
                      own_show: int | None) -> tuple[float, ...]:
    """Every side's chance to win when the play of a deal dealt by seat `dealer` is over and
    nobody has reached the target, each side still needing `needs` (all > 0). Seats and sides
    are counted clockwise from the seat that asks (seat 0, side 0). The shows decide in
    counting order, the seats clockwise from the dealer's left, then the dealer's hand and the
    crib: the first side whose show reaches its need wins; seat 0's hand scores `own_show`
    when known, every other show and the deals after follow the layout's model (races, the
    sides independent). Win chances do not depend on the skunk rule: the standard rule's
    tables serve."""
    model = role_model(layout)
    roles = tuple((side - dealer) % model.sides for side in range(model.sides))
    known = {}
    if own_show is not None:
        stage = model.cards + (-dealer % model.players or model.players)
        show = np.zeros(own_show + 1)
        show[own_show] = 1.0
        known[0] = _replaced(model.counted[roles[0]], stage, show)
    tables = cycle_tables(layout, target, "standard")
    wins, _ = outcome(races_after_a_deal(model, tables, needs, roles, known, target, "standard",
                                         play_over=True))
    return tuple(wins)
