"""Win probability: the dynamic programme against a literal recursion on a small made-up deal,
and the known shape of cribbage with the shipped deal data."""
from functools import cache

import numpy as np
import pytest

from service.bots import win_probability
from service.bots.discard import analyse_discard
from service.bots.discard_choice import rank_discards
from service.bots.win_probability import (DealModel, PositionError, deal_model, deal_win_chance,
                                          discard_win_chances, position_value, shifted, solve,
                                          win_table)
from service.cards import parse_cards
from service.engine import GameOptions

# A made-up deal: the play gives (dealer, pone) points; then the pone's show, the dealer's.
PLAY = {(1, 0): 2, (0, 1): 1, (2, 1): 1}          # counts, over 4 deals
PONE_SHOW = {0: 1, 1: 2, 3: 1}
DEALER_SHOW = {0: 1, 2: 2, 4: 1}
# Who pegs first: a dealer's (2, 1) play is pegged dealer 1, pone 1, dealer 1.
SEQUENCES = {(1, 0): [("d", 1)], (0, 1): [("p", 1)], (2, 1): [("d", 1), ("p", 1), ("d", 1)]}


def _model() -> DealModel:
    play = np.zeros((3, 2), dtype=int)
    for (d, p), count in PLAY.items():
        play[d, p] = count
    race_dealer, race_pone = np.zeros((4, 3), dtype=int), np.zeros((4, 3), dtype=int)
    for a in range(1, 4):
        for b in range(1, 3):
            for totals, count in PLAY.items():
                first = _first_to_reach(SEQUENCES[totals], a, b)
                if first == "d":
                    race_dealer[a, b] += count
                elif first == "p":
                    race_pone[a, b] += count
    return DealModel({"deals": 4, "play": play.tolist(), "race_dealer": race_dealer.tolist(),
                      "race_pone": race_pone.tolist(),
                      "pone_show": [PONE_SHOW.get(h, 0) for h in range(4)],
                      "dealer_show": [DEALER_SHOW.get(h, 0) for h in range(5)],
                      "dealer_hand": [DEALER_SHOW.get(h, 0) for h in range(5)],
                      "dealer_crib": [4]})


def _first_to_reach(sequence, a, b):
    pegged = {"d": 0, "p": 0}
    for who, points in sequence:
        pegged[who] += points
        if pegged[who] >= (a if who == "d" else b):
            return who
    return None


@cache
def _literal(a: int, b: int) -> float:
    """The dealer's chance to win needing a, the pone needing b: the rules read literally."""
    chance = 0.0
    for totals, count in PLAY.items():
        weight = count / 4
        first = _first_to_reach(SEQUENCES[totals], a, b)
        if first:
            chance += weight * (first == "d")
            continue
        d, p = totals
        for pone_show, pone_count in PONE_SHOW.items():
            for dealer_show, dealer_count in DEALER_SHOW.items():
                w = weight * pone_count / 4 * dealer_count / 4
                if p + pone_show >= b:
                    continue
                if d + dealer_show >= a:
                    chance += w
                    continue
                chance += w * (1 - _literal(b - p - pone_show, a - d - dealer_show))
    return chance


def test_the_programme_equals_the_rules_read_literally():
    signed = solve(_model(), np.ones(13), -1)
    for a in range(1, 13):
        for b in range(1, 13):
            assert (1 + signed[a, b]) / 2 == pytest.approx(_literal(a, b), abs=1e-12)


def test_game_points_count_every_game_once_without_skunks():
    model = _model()
    total = solve(model, np.ones(13), +1)
    assert np.allclose(total[1:, 1:], 1.0, atol=1e-12)


def test_the_first_dealer_wins_about_56_percent():
    value = position_value((0, 0), dealer=0)
    assert 0.54 < value.win[0] < 0.58
    assert value.win[0] + value.win[1] == pytest.approx(1, abs=1e-12)


def test_the_pone_is_favoured_at_115_all_and_the_dealer_at_120_all():
    assert position_value((115, 115), dealer=0).win[1] > 0.5
    assert position_value((120, 120), dealer=0).win[0] > 0.5


def test_skunks_add_game_points():
    standard = position_value((30, 80), dealer=0, skunk="standard")
    acc = position_value((30, 80), dealer=0, skunk="acc")
    assert standard.game_points[1] > standard.win[1]
    assert acc.game_points[1] > standard.game_points[1]
    assert acc.win == standard.win


def test_a_finished_game_is_refused():
    with pytest.raises(PositionError) as error:
        position_value((121, 3), dealer=1)
    assert error.value.code == "game_already_won"


@pytest.mark.parametrize("a, b", [(1, 1), (6, 6), (30, 20), (40, 5), (121, 121)])
def test_one_deal_with_the_models_own_shows_is_the_table(a, b):
    model = deal_model()
    table = win_table(121)
    assert deal_win_chance(a, b, model.pone_show, model.dealer_show, 121) == \
        pytest.approx((1 + table[a, b]) / 2, abs=1e-12)


def test_a_shifted_distribution_has_the_mean_asked_for():
    chances = np.array([0.25, 0.5, 0.25])
    moved = shifted(chances, 2.3)
    assert (np.arange(len(moved)) * moved).sum() == pytest.approx(2.3, abs=1e-12)
    assert moved.sum() == pytest.approx(1, abs=1e-12)


def test_near_the_end_the_pone_keeps_the_cards_likeliest_to_count_out():
    # The pone needs 12 and the dealer 4: the flush draw scores more on average, the run of
    # three with its fifteens reaches 12 more often.
    hand = parse_cards("10C 2C 7C 6S 10S 8C".split())
    options = analyse_discard(hand, own_crib=False)
    assert options[0].keep == parse_cards("10C 2C 7C 8C".split())
    chances = discard_win_chances(options, hand, 109, 117, dealer=False, target=121)
    chosen = rank_discards(hand, GameOptions(), seat=0, dealer=1, scores=(109, 117)).best
    assert chosen.keep == parse_cards("2C 7C 6S 8C".split())
    assert (round(chances[0], 4), round(max(chances), 4)) == (0.1655, 0.2364)


@pytest.mark.parametrize("own_need, opponent_need, own_crib, own_show", [
    (5, 20, False, None), (5, 20, False, 3), (5, 20, True, None), (5, 20, True, 2),
    (20, 5, False, None), (20, 5, True, 12), (30, 30, True, None), (10, 10, False, 4)])
def test_the_chance_after_the_play_counts_the_shows_in_order(own_need, opponent_need, own_crib,
                                                             own_show):
    """Against a literal sum over both shows: the pone counts first, then the dealer (hand
    and crib); a side that reaches its need wins; else the next deal, dealt by this pone."""
    model = deal_model()
    table = win_table(121)
    if own_crib:
        dealer_points = {points: chance for points, chance in enumerate(model.dealer_show)}
        if own_show is not None:
            dealer_points = {own_show + points: chance
                             for points, chance in enumerate(model.dealer_crib)}
        pone_points = dict(enumerate(model.pone_show))
    else:
        pone_points = dict(enumerate(model.pone_show)) if own_show is None else {own_show: 1.0}
        dealer_points = dict(enumerate(model.dealer_show))
    pone_need, dealer_need = (opponent_need, own_need) if own_crib else (own_need, opponent_need)
    pone_wins = 0.0
    for pone, pone_chance in pone_points.items():
        if pone >= pone_need:
            pone_wins += pone_chance
            continue
        for dealer, dealer_chance in dealer_points.items():
            if dealer < dealer_need:  # the pone deals next
                later = (1 + table[pone_need - pone, dealer_need - dealer]) / 2
                pone_wins += pone_chance * dealer_chance * later
    expected = 1 - pone_wins if own_crib else pone_wins
    chance = win_probability.chance_after_play(own_need, opponent_need, own_crib, own_show)
    assert chance == pytest.approx(expected, abs=1e-12)


def test_near_the_end_of_a_far_target_the_table_is_built_for_the_needs(monkeypatch):
    """A game to 1000 at 990-770: the discard's chances need the table for needs up to 230,
    which is built for the in-game reach (241), not for the target's 1000 (seconds to build)."""
    sizes = []
    real_solve = win_probability.solve

    def solve(model, term, flip):
        sizes.append(len(term) - 1)
        return real_solve(model, term, flip)

    monkeypatch.setattr(win_probability, "_win_table", [])
    monkeypatch.setattr(win_probability, "solve", solve)
    hand = parse_cards("10C 2C 7C 6S 10S 8C".split())
    ranked = rank_discards(hand, GameOptions(target=1000), seat=0, dealer=1, scores=(990, 770))
    assert ranked.chances is not None and sizes == [241]
