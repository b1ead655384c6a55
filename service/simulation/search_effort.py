"""A yardstick for benchmarks: `hard` with the play search of a given effort
(service.bots.pegging.analyse_play), to match a change of the search's size against the size
`hard` had before it. Not public levels: bench/match.py knows them as hard-x1, hard-x2, ..."""
from __future__ import annotations

from functools import partial

from service.bots.pegging import analyse_play
from service.bots.players import LEVELS, ComputerPlayer, play_position

EFFORTS = (1, 2, 4, 8)


def _play(effort, view, playable, rng):
    if len(playable) == 1:
        return playable[0]
    return analyse_play(play_position(view), effort=effort).recommendation


HARD_BY_EFFORT = {f"hard-x{effort}": ComputerPlayer(LEVELS["hard"].discard,
                                                    partial(_play, effort))
                  for effort in EFFORTS}
