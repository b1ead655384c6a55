"""Near the end of a game: the chance to win once the play is over, when nobody pegged out.

`after_play` chooses, once per decision, the function the play search applies to each sampled
deal that ends with nobody out, from every side's need then:
- two players (without exact_finish, within the model's in-game reach): the exact model,
  service.bots.win_probability.chance_after_play;
- more players or teams, every side's score known (without exact_finish, a target within the
  in-game reach): the shows in counting order and the deals after, by the sides' races
  (service.bots.side_race.chance_after_play): the seats clockwise from the dealer's left, then
  the dealer's hand and the crib, the first side whose show reaches its need winning;
- otherwise the local rule below, on your side and the leading other side alone.

The local rule: after the play the show decides, in order: the side without the crib counts
first, the crib's side last with its hand and then its crib. A side counts out when its show
reaches what it still needs:
- your own hand's points are known (`own_show`, when given); the rest is estimated;
- another hand is worth about HAND_MEAN points, a crib about CRIB_MEAN, each give or take
  SPREAD (a logistic curve around the mean);
- when nobody counts out, the game goes on: an even chance, moved by the lead in points still
  needed (1% per point).
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import partial

from service.bots import side_race, win_probability

HAND_MEAN = 8.0
CRIB_MEAN = 4.5
SPREAD = 2.5
# Below this many points still needed by some side, the play maximises the chance to win.
ENDGAME_NEED = 31

# Every side's need after the play, yours first, then clockwise -> your chance to win.
AfterPlay = Callable[[tuple[int, ...]], float]


def in_endgame(own_need: int, opponent_need: int) -> bool:
    return min(own_need, opponent_need) <= ENDGAME_NEED


def after_play(players: int, teams: str | None, dealer: int, scores: Sequence[int],
               target: int, own_show: int | None, exact_finish: bool,
               every_side: bool) -> AfterPlay:
    """How the search values the end of the play for the side of seat 0 in a hand dealt by
    seat `dealer` (seats clockwise from you), `scores` before it (yours first); `every_side`:
    the other sides' scores are known, not only the leader's (see the module docstring)."""
    sides = len(scores)
    own_crib = dealer % sides == 0
    if players == 2:
        exact = not exact_finish and win_probability.within_reach(2, scores, target)
        return partial(_leading_side, own_crib, own_show, exact)
    if every_side and not exact_finish and win_probability.within_reach(players, scores, target):
        return partial(_every_side, side_race.layout_name(players, teams), target, dealer,
                       own_show)
    return partial(_leading_side, own_crib, own_show, False)


def _every_side(layout: str, target: int, dealer: int, own_show: int | None,
                needs: tuple[int, ...]) -> float:
    return side_race.chance_after_play(layout, target, needs, dealer, own_show)[0]


def _leading_side(own_crib: bool, own_show: int | None, two_player_model: bool,
                  needs: tuple[int, ...]) -> float:
    return chance_after_play(needs[0], min(needs[1:]), own_crib, own_show, two_player_model)


def chance_after_play(own_need: int, opponent_need: int, own_crib: bool,
                      own_show: int | None, two_player_model: bool) -> float:
    """The chance the searching side wins when, after the play, it still needs `own_need`
    points and the leading other side `opponent_need` (both > 0)."""
    if two_player_model:
        return win_probability.chance_after_play(own_need, opponent_need, own_crib, own_show)
    own_out = _reaches(own_need, own_show, own_crib)
    opponent_out = _reaches(opponent_need, None, not own_crib)
    later = min(1.0, max(0.0, 0.5 + (opponent_need - own_need) / 100))
    if own_crib:
        return (1 - opponent_out) * (own_out + (1 - own_out) * later)
    return own_out + (1 - own_out) * (1 - opponent_out) * later


def _reaches(need: int, show: int | None, with_crib: bool) -> float:
    """The chance a side's show gives it `need` points."""
    crib = CRIB_MEAN if with_crib else 0.0
    if show is not None:
        if show >= need:
            return 1.0
        if not with_crib:
            return 0.0
        return _logistic(show + crib - need + 0.5)
    return _logistic(HAND_MEAN + crib - need + 0.5)


def _logistic(margin: float) -> float:
    return 1 / (1 + math.exp(-margin / SPREAD))
