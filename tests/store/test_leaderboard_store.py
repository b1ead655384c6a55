"""Leaderboards in the store: sorted by score, highest first, names kept once for all boards;
a member unranked shows on no board; and a player deleted is gone. On every backend."""

from __future__ import annotations

import secrets


def test_a_board_reads_highest_first_and_places_each_member(store):
    board = secrets.token_hex(4)   # boards of their own: the session's Redis is shared
    store.rank([board], "ana", 1200, "Ana")
    store.rank([board], "bea", 1350, "Bea")
    store.rank([board], "cy", 1200, "Cy")
    assert store.board_page(board, 0, 10) == [("bea", 1350, "Bea"), ("cy", 1200, "Cy"),
                                              ("ana", 1200, "Ana")]
    assert store.board_page(board, 1, 1) == [("cy", 1200, "Cy")]
    assert [store.board_place(board, member) for member in ("bea", "cy", "ana", "dee")] == [
        0, 1, 2, None]
    store.rank([board], "ana", 1400, "Ana B")   # a new score and name replace the old
    assert store.board_page(board, 0, 1) == [("ana", 1400, "Ana B")]


def test_an_unranked_member_shows_on_no_board_even_one_that_still_holds_it(store):
    season, all_time = secrets.token_hex(4), secrets.token_hex(4)
    member = secrets.token_hex(4)
    store.rank([season, all_time], member, 1100, "Ana")
    store.unrank([all_time], member)
    assert store.board_page(all_time, 0, 10) == []
    assert store.board_page(season, 0, 10) == []   # its name is gone
    assert store.board_place(season, member) == 0


def test_a_deleted_player_is_gone_with_its_games(store):
    key = secrets.token_hex(8)
    store.create_player(key, "{}", 60)
    assert store.link_player_game(key, "g" * 16, 0, 60)
    store.delete_player(key)
    assert store.load_player(key, 60) is None
    store.delete_player(key)   # again: nothing to delete
