"""One pairing round of a pool at a time in a process: a call while it runs has it go once
more and waits for it; other pools are not held up; a round that fails hands the lead on."""
from __future__ import annotations

import threading
import time

import pytest

from service.games.rounds import Rounds


def test_a_call_while_the_pools_round_runs_has_it_go_again_and_waits_for_it():
    rounds, started, finish, runs = Rounds(), threading.Event(), threading.Event(), []

    def round_() -> int:
        runs.append(time.monotonic())
        if len(runs) == 1:
            started.set()
            finish.wait(5)
        return 1

    answers: list[int] = []
    leader = threading.Thread(target=lambda: answers.append(rounds.run("pool", round_, 5)))
    leader.start()
    assert started.wait(5)
    follower = threading.Thread(target=lambda: answers.append(rounds.run("pool", round_, 5)))
    follower.start()
    time.sleep(0.2)
    assert rounds.run("other pool", lambda: 7, 5) == 7     # not held up
    finish.set()
    leader.join(5)
    follower.join(5)
    assert len(runs) == 2
    assert sorted(answers) == [0, 2]   # the follower's seek was paired by the leader's rerun


def test_a_round_that_fails_lets_the_next_call_lead():
    rounds = Rounds()

    def failing() -> int:
        raise RuntimeError("the store is down")

    with pytest.raises(RuntimeError):
        rounds.run("pool", failing, 5)
    assert rounds.run("pool", lambda: 1, 5) == 1
