"""The deadline index and presence leases of the GameStore contract, on every backend: memory,
standalone Redis, Redis Cluster (where the index, and the processes holding seats, live in
slots of their own)."""

from __future__ import annotations

import math
import secrets

import pytest

from service.store import GameNotFound

# Times far before any other test's entries (epoch seconds of today), so only ours are due.
EARLY = 100.0


def new_id() -> str:
    return secrets.token_urlsafe(12)


def mine(claimed, games) -> list[tuple[str, float]]:
    return sorted(entry for entry in claimed if entry[0] in games)


def test_create_and_save_set_the_index_only_when_asked(store):
    quiet, timed = new_id(), new_id()
    store.create(quiet, "{}")
    store.create(timed, "{}", due=EARLY - 50)
    store.save(quiet, 1, "{}")  # no reschedule: no entry
    assert mine(store.claim_due(EARLY, 100, 10.0), {quiet, timed}) == [(timed, EARLY + 10)]
    store.save(timed, 1, "{}", reschedule=True, due=EARLY - 40)  # the save wins over a claim
    assert mine(store.claim_due(EARLY, 100, 10.0), {timed}) == [(timed, EARLY + 10)]
    store.save(timed, 2, "{}", reschedule=True, due=None)
    assert mine(store.claim_due(EARLY + 1000, 100, 10.0), {timed}) == []


def test_a_claimed_entry_waits_out_its_lease_and_a_release_sets_its_next_time(store):
    game = new_id()
    store.create(game, "{}", due=EARLY - 1)
    [(_, until)] = mine(store.claim_due(EARLY, 100, 30.0), {game})
    assert mine(store.claim_due(EARLY + 29, 100, 30.0), {game}) == []
    store.release_due(game, until, EARLY + 5)
    assert mine(store.claim_due(EARLY + 5, 100, 30.0), {game}) == [(game, EARLY + 35)]
    store.release_due(game, EARLY + 999, None)  # not the claim's time: nothing happens
    assert mine(store.claim_due(EARLY + 35, 100, 30.0), {game}) == [(game, EARLY + 65)]


def test_presence_leases_load_with_the_game_and_schedule_an_earlier_check(store):
    game = new_id()
    store.create(game, "{}", due=EARLY + 500)
    store.hold_presence(game, "stream-a", 1, EARLY + 90, check_at=EARLY + 120)
    store.hold_presence(game, "wait-b", 0, EARLY + 20)
    assert sorted(store.load(game).presence) == [(0, EARLY + 20), (1, EARLY + 90)]
    store.hold_presence(game, "stream-a", 1, EARLY + 40, check_at=EARLY + 70)  # closed
    assert sorted(store.load(game).presence) == [(0, EARLY + 20), (1, EARLY + 40)]
    store.hold_presence(game, "stream-c", 1, EARLY + 900, check_at=EARLY + 930)  # later: kept
    assert mine(store.claim_due(EARLY + 70, 100, 1.0), {game}) == [(game, EARLY + 71)]
    store.hold_presence(game, "late", 2, EARLY + 1400)  # drops leases ended 600 s before
    assert sorted(store.load(game).presence) == [(1, EARLY + 900), (2, EARLY + 1400)]
    with pytest.raises(GameNotFound):
        store.hold_presence(new_id(), "lease", 0, EARLY)


def test_a_seat_held_by_a_process_that_stops_beating_ends_at_its_last_beat(make_store, backend):
    if backend == "memory":
        pytest.skip("the embedded store's one process never lapses")
    game, holder, other = new_id(), make_store(), make_store()  # two server processes
    holder.create(game, "{}", due=EARLY + 500)
    holder.hold_seat(game, 1, EARLY)  # a stream opens: held from now on, beaten at EARLY
    assert other.load(game).presence == ((1, math.inf),)
    holder.release_seat(game, 1, EARLY + 2, EARLY + 32)  # not written before LINGER is over
    holder.hold_seat(game, 1, EARLY + 3)  # the client is back: nothing to write
    assert other.load(game).presence == ((1, math.inf),)
    other.keep_presence(EARLY + 19, grace=30)  # the holder beat 19 s ago: alive
    assert other.load(game).presence == ((1, math.inf),)
    other.keep_presence(EARLY + 25, grace=30)  # 25 s: taken for dead, its seat gone at EARLY
    assert other.load(game).presence == ((1, EARLY),)
    assert mine(other.claim_due(EARLY + 30, 100, 1.0), {game}) == [(game, EARLY + 31)]
