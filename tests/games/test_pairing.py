"""The pairing core as a pure function: seeks with ratings and ages in, tables out."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from service.games.pairing import WIDEN_PER_MINUTE, Table, Ticket, accepts, pair


def ticket(seek_id, player_id=None, rating=1500, within=None, waited=0.0, computers_after=None):
    return Ticket(seek_id, player_id or "p-" + seek_id, rating, within, waited, computers_after)


tickets = st.lists(st.builds(
    Ticket, seek_id=st.uuids().map(str), player_id=st.sampled_from("abcdefgh"),
    rating=st.integers(800, 2200), within=st.one_of(st.none(), st.integers(0, 400)),
    waited=st.floats(0, 600), computers_after=st.one_of(st.none(), st.floats(0, 300))),
    max_size=60, unique_by=lambda t: t.seek_id)


@settings(max_examples=300, deadline=None)
@given(tickets, st.integers(2, 6))
def test_no_seek_twice_no_self_pairing_everyone_within_range(found, seats):
    tables = pair(found, seats)
    by_id = {t.seek_id: t for t in found}
    seated = [seek_id for table in tables for seek_id in table.seek_ids]
    assert len(seated) == len(set(seated))
    for table in tables:
        members = [by_id[seek_id] for seek_id in table.seek_ids]
        assert len(members) + table.computers == seats
        assert len({m.player_id for m in members}) == len(members)
        assert all(accepts(a, b) for a in members for b in members if a is not b)
        if table.computers:
            assert all(m.computers_ready for m in members)


@settings(max_examples=200, deadline=None)
@given(tickets)
def test_a_round_leaves_no_two_compatible_seeks_waiting(found):
    tables = pair(found, 2)
    seated = {seek_id for table in tables for seek_id in table.seek_ids}
    left = [t for t in found if t.seek_id not in seated]
    assert not any(accepts(a, b) for a in left for b in left if a is not b)


def test_the_longest_waiting_seeks_sit_first():
    found = [ticket("new", waited=1), ticket("old", waited=50), ticket("mid", waited=20)]
    assert pair(found, 2) == [Table(("old", "mid"))]


def test_a_player_is_never_paired_with_themself():
    assert pair([ticket("a", "ann"), ticket("b", "ann")], 2) == []


def test_each_rating_must_be_within_the_others_range():
    near = ticket("a", rating=1500, within=100)
    far = ticket("b", rating=1650, within=None)
    assert pair([near, far], 2) == []
    assert pair([near, ticket("c", rating=1600, within=100)], 2) == [Table(("a", "c"))]


def test_the_range_widens_with_waiting_time():
    """A gap of 150 with ranges of 100: apart at 59 seconds, paired at a minute (100 + 50)."""
    def seeks(waited):
        return [ticket("a", rating=1500, within=100, waited=waited),
                ticket("b", rating=1650, within=100, waited=waited)]
    assert WIDEN_PER_MINUTE == 50
    assert pair(seeks(59.0), 2) == []
    assert pair(seeks(60.0), 2) == [Table(("a", "b"))]


def test_computers_fill_a_table_once_its_seeks_waited_their_wait():
    alone = ticket("a", computers_after=30, waited=10)
    assert pair([alone], 3) == []
    ready = ticket("a", computers_after=30, waited=31)
    assert pair([ready], 3) == [Table(("a",), computers=2)]
    not_ready = ticket("b", computers_after=300, waited=31)
    assert pair([ready, not_ready], 3) == [Table(("a",), computers=2)]
    assert pair([ready, ticket("c")], 2) == [Table(("a", "c"))]
