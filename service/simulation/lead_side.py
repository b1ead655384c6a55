"""A yardstick for benchmarks: `hard` whose play search knows only the leading other side's
score, as it did before it took every side's (every other side counted as the leader in the
play-outs, the local rule of service.bots.endgame after the play). Not a public level:
bench/table_match.py and bench/match.py know it as hard-lead."""
from __future__ import annotations

from dataclasses import replace

from service.bots.pegging import analyse_play
from service.bots.players import LEVELS, ComputerPlayer, play_position


def _play(view, playable, rng):
    if len(playable) == 1:
        return playable[0]
    return analyse_play(replace(play_position(view), other_scores=None)).recommendation


HARD_LEAD = ComputerPlayer(LEVELS["hard"].discard, _play)
