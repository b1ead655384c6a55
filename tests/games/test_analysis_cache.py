"""The cache of analysed hands: least recently used first out, and safe to share between the
threads of a gthread worker."""
from __future__ import annotations

import sys
import threading

from service.bots.game_analysis import HandEvents
from service.engine import GameOptions
from service.games.analysis import HandCache

OPTIONS = GameOptions()


def hand(number: int) -> HandEvents:
    return HandEvents(number, f"commitment {number}", (), 1, (0, 0), True)


class CountingAnalysis:
    """Stands in for the (slow) analysis: each hand's 'decisions' name it; counts the calls."""

    def __init__(self):
        self.analysed: list[int] = []

    def __call__(self, options: GameOptions, hand: HandEvents) -> tuple:
        self.analysed.append(hand.hand_number)
        return (f"decisions of hand {hand.hand_number}",)


def test_a_hand_is_analysed_once_and_the_least_recently_used_goes_first():
    analysis = CountingAnalysis()
    cache = HandCache(size=2, analyse=analysis)
    assert cache.decisions("g", OPTIONS, hand(1)) == ("decisions of hand 1",)
    cache.decisions("g", OPTIONS, hand(2))
    assert cache.decisions("g", OPTIONS, hand(1)) == ("decisions of hand 1",)  # 1 used last
    cache.decisions("g", OPTIONS, hand(3))                                   # 2 goes
    cache.decisions("g", OPTIONS, hand(1))
    cache.decisions("g", OPTIONS, hand(2))                                   # again: 3 goes
    cache.decisions("other game", OPTIONS, hand(1))                          # 1 goes
    assert analysis.analysed == [1, 2, 3, 2, 1]
    assert cache.decisions("g", OPTIONS, hand(2)) == ("decisions of hand 2",)
    assert analysis.analysed == [1, 2, 3, 2, 1]


def test_threads_reading_and_evicting_at_once_each_get_their_hand():
    """A tiny cache read by many threads at once, the interpreter switching threads as often
    as it can. Without the lock, a hand evicted by one thread between another's lookup and its
    move to the end raised KeyError (a 500) now and then: this test caught it in one run of
    three on a busy machine, so it may pass without the lock; with the lock no read fails."""
    previous = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    failures: list[BaseException] = []
    try:
        for _ in range(ROUNDS):
            read_at_once(HandCache(size=2, analyse=CountingAnalysis()), failures)
    finally:
        sys.setswitchinterval(previous)
    assert failures == []


ROUNDS, THREADS, READS = 3, 8, 20000


def read_at_once(cache: HandCache, failures: list[BaseException]) -> None:
    def read(offset: int) -> None:
        try:
            for step in range(READS):
                number = (step + offset) % 3
                assert cache.decisions("g", OPTIONS, hand(number)) == (
                    f"decisions of hand {number}",)
        except BaseException as error:  # noqa: BLE001 - a thread's failure fails the test
            failures.append(error)

    threads = [threading.Thread(target=read, args=(offset,)) for offset in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
