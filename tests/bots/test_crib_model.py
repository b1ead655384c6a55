"""The role-aware crib: uniform tables give the exact uniform model back, the shipped tables are
what their script makes, and they carry the known bias of each role."""
import json
import random

import pytest

from service.bots.crib_model import DATA, CribTables, crib_fillers
from service.bots.discard import analyse_discard, deal_shape
from service.cards import DECK
from service.simulation.crib_tables import LAYOUTS, batch_counts, tables_before

SEATS = [(players, teams, dealer, own_crib) for players, teams in LAYOUTS
         for dealer in (False, True) for own_crib in (False, True)
         if (own_crib or not (dealer and players >= 5))
         and (not own_crib or dealer or teams or players <= 4)]


@pytest.mark.parametrize("players, teams, dealer, own_crib", SEATS)
def test_uniform_tables_give_the_exact_uniform_crib(players, teams, dealer, own_crib):
    tables = CribTables.uniform(LAYOUTS)
    rng = random.Random(f"{players}{teams}{dealer}{own_crib}")
    for _ in range(3):
        hand = rng.sample(DECK, deal_shape(players, dealer).dealt)
        for option in analyse_discard(hand, players=players, own_crib=own_crib, teams=teams,
                                      tables=tables):
            assert abs(option.crib - float(option.uniform_crib)) < 1e-9


@pytest.mark.parametrize("players, teams, own_crib, discards, fillers", [
    (2, None, True, 2, (("other",), 0)),
    (2, None, False, 2, (("own",), 0)),
    (3, None, False, 1, (("own", "other"), 1)),
    (4, "2x2", True, 1, (("other", "own", "other"), 0)),
    (4, "2x2", False, 1, (("own", "own", "other"), 0)),
    (5, None, True, 0, (("other",) * 4, 0)),
    (6, "3x2", True, 1, (("other",) * 4, 0)),
    (6, "2x3", True, 0, (("other", "own", "other", "own", "other"), 0)),
    (6, "2x3", False, 1, (("own", "other", "own", "other"), 0)),
])
def test_who_else_fills_the_crib(players, teams, own_crib, discards, fillers):
    assert crib_fillers(players, teams, own_crib, discards) == fillers


@pytest.mark.parametrize("layout, role, players, teams", [
    ("2", "other", 2, None), ("3", "own", 3, None), ("6-3x2", "own", 6, "3x2")])
def test_the_shipped_tables_are_what_their_script_makes(layout, role, players, teams):
    data = json.loads(DATA.read_text())
    last = data["history"][layout][role][-1]
    assert data["tables"][layout][role] == last["counts"]
    tables = tables_before(data, last["iteration"])
    assert batch_counts(tables, players, teams, role, data["seed"], last["iteration"], 0) \
        == last["first_batch"]


def test_each_table_moves_less_in_the_last_iteration_than_in_the_first():
    data = json.loads(DATA.read_text())
    for layout, by_role in data["history"].items():
        for role, steps in by_role.items():
            assert steps[-1]["change"] < steps[0]["change"], (layout, role)


def _mean_cribs(players, dealer, own_crib, hands=40):
    rng = random.Random(17)
    weighted = uniform = 0.0
    for _ in range(hands):
        hand = rng.sample(DECK, deal_shape(players, dealer).dealt)
        best = analyse_discard(hand, players=players, own_crib=own_crib)[0]
        weighted += best.crib
        uniform += float(best.uniform_crib)
    return weighted / hands, uniform / hands


def test_a_pone_throws_the_dealer_worse_cards_than_chance_and_a_dealer_better():
    weighted, uniform = _mean_cribs(2, dealer=True, own_crib=True)
    assert 0.2 < uniform - weighted < 1.0
    weighted, uniform = _mean_cribs(2, dealer=False, own_crib=False)
    assert 0.2 < weighted - uniform < 1.0
