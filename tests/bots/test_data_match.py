"""bench/data_match.py: `hard` on another win-model file, in the same game as `hard`."""
from __future__ import annotations

import json

from bench.data_match import NEW, hard_on, modules_on
from bench.match import play_deal
from service.bots import win_probability
from service.simulation.selfplay import PLAYERS


def test_hard_on_the_shipped_file_plays_every_game_exactly_as_hard(monkeypatch):
    monkeypatch.setitem(PLAYERS, NEW, hard_on(win_probability.DATA))
    for deal in range(2):
        assert play_deal((NEW, "hard", deal, 61, "data-match")) == \
            play_deal(("hard", "hard", deal, 61, "data-match"))


def test_the_copies_read_the_file_they_are_given_and_the_shipped_modules_do_not(tmp_path):
    data = json.loads(win_probability.DATA.read_text())
    data["pone_show"] = [0] + data["pone_show"]  # every pone's show one point more
    shifted = tmp_path / "deal_scores_2.json"
    shifted.write_text(json.dumps(data))
    shipped = win_probability.position_value((115, 115), 0).win
    copies = modules_on(shifted)
    assert copies.discard_choice.win_probability is copies.win_probability
    assert copies.win_probability.position_value((115, 115), 0).win[1] > shipped[1]
    assert win_probability.position_value((115, 115), 0).win == shipped
