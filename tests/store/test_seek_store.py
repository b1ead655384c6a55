"""The seeks' part of the store on every backend: a pool's seeks taken all at once or not at
all, a pool's pairing lead held by one process at a time, the pairings under way."""
from __future__ import annotations

import secrets
import threading

import pytest


@pytest.fixture
def pool():
    return secrets.token_hex(6)


def test_seeks_are_taken_all_or_none_and_each_once(store, pool):
    for number in range(4):
        store.add_seek(pool, f"{pool}s{number}", f"open {number}", 60)
    assert sorted(store.open_seeks(pool)) == ["open 0", "open 1", "open 2", "open 3"]
    assert store.take_seeks(pool, {f"{pool}s0": "paired 0", f"{pool}s1": "paired 1"}, 60,
                            ("game-a", "plan a"))
    assert not store.take_seeks(pool, {f"{pool}s1": "again", f"{pool}s2": "paired 2"}, 60,
                                ("game-b", "plan b"))
    assert sorted(store.open_seeks(pool)) == ["open 2", "open 3"]
    assert [store.load_seek(pool, f"{pool}s{n}") for n in range(4)] == [
        "paired 0", "paired 1", "open 2", "open 3"]
    assert store.pairings(pool) == {"game-a": "plan a"}
    store.end_pairing(pool, "game-a")
    assert store.pairings(pool) == {}
    assert pool in store.seek_pools()


def test_of_many_takers_of_overlapping_tables_no_seek_goes_to_two(store, pool):
    seats = 40
    for number in range(seats):
        store.add_seek(pool, f"{pool}s{number}", "open", 60)
    won: list[tuple[int, int]] = []

    def take(first: int) -> None:
        table = {f"{pool}s{first % seats}": "x", f"{pool}s{(first + 1) % seats}": "x"}
        if store.take_seeks(pool, table, 60):
            won.append((first % seats, (first + 1) % seats))

    threads = [threading.Thread(target=take, args=(n,)) for n in range(seats)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    taken = [seek for table in won for seek in table]
    assert len(taken) == len(set(taken))
    assert len(store.open_seeks(pool)) == seats - len(taken)


def test_one_process_leads_a_pools_pairing_and_a_seek_meanwhile_keeps_it_leading(store, pool):
    version = store.lead_pairing(pool, "one", 10)
    assert version == 0
    assert store.lead_pairing(pool, "two", 10) is None
    store.add_seek(pool, f"{pool}s0", "open", 60)
    assert store.end_pairing_lead(pool, "one", version) == 1   # pair again: a seek came
    assert store.lead_pairing(pool, "two", 10) is None
    assert store.end_pairing_lead(pool, "one", 1) is None
    assert store.lead_pairing(pool, "two", 10) == 1
