"""The play search: exact where the other hands are forced, the goes' proofs, the endgame with
every side's score."""
import random
from dataclasses import replace
from itertools import combinations

import pytest

from service.bots import side_race, win_probability
from service.bots.endgame import chance_after_play
from service.bots.kept_hands import kept_hand_weight
from service.bots.kept_hands_table import LIKELIHOOD_RATIOS
from service.bots.pegging import PlayPosition, PlayPositionError, analyse_play, check_position
from service.cards import DECK, parse_cards


def _cards(text):
    return parse_cards(text.split()) if text else ()


def _all_but(text):
    """Every card of the deck but those of `text`: a position where nothing else is unseen."""
    kept = set(_cards(text))
    return tuple(card for card in DECK if card not in kept)


def _option(analysis, text):
    return next(option for option in analysis.options if option.card.text == text)


def test_with_the_other_hand_forced_the_expectations_are_exact():
    # You (pone) hold 5H 9S; the dealer can only hold KC 4D, the 50 other cards are seen.
    position = PlayPosition(_cards("5H 9S"), seen=_all_but("5H 9S KC 4D"), hand_sizes=(2,))
    analysis = analyse_play(position)
    # 9S: every policy answers KC (19: no points, and a 4D would offer a fifteen), then 5H
    # (24), 4D (28) and the last card for the dealer: 1.
    nine = _option(analysis, "9S")
    assert (nine.points, nine.expected_for, nine.expected_against) == (0, 0.0, 1.0)
    # 5H: the dealer takes the fifteen with KC (2), you play 9S (24), the dealer 4D (28) and
    # the last card (1).
    five = _option(analysis, "5H")
    assert (five.points, five.expected_for, five.expected_against) == (0, 0.0, 3.0)
    assert five.expected == -3.0 and nine.expected == -1.0
    assert str(analysis.recommendation) == "9S"


def test_takes_a_pair_royal_when_the_reply_is_forced():
    # On 7H 7D you hold 7S: pair royal for 6; the dealer's only card is a KC.
    position = PlayPosition(_cards("7S 2C"), _cards("7H 7D"),
                            seen=_all_but("7S 2C 7H 7D KC"), hand_sizes=(1,))
    analysis = analyse_play(position)
    royal = _option(analysis, "7S")
    assert royal.points == 6 and str(analysis.recommendation) == "7S"
    # 7S (21), KC (31: 2 for the dealer), 2C last card: 1 for you.
    assert (royal.expected_for, royal.expected_against) == (7.0, 2.0)


def test_last_card_scores_one():
    analysis = analyse_play(PlayPosition(_cards("AH"), _cards("10C 10D"), hand_sizes=(0,)))
    option = analysis.options[0]
    assert (option.points, option.expected_for, option.expected_against) == (1, 1.0, 0.0)


def test_no_card_fits_is_a_go():
    analysis = analyse_play(PlayPosition(_cards("KH"), _cards("10C 10D 5S")))
    assert analysis.options == () and analysis.recommendation is None
    assert analysis.sampled_deals == 0


def test_a_card_that_reaches_the_target_comes_first():
    analysis = analyse_play(PlayPosition(_cards("2H 7S"), _cards("7H"), own_score=119,
                                         opponent_score=100, show_points=25))
    assert [(str(option.card), option.wins) for option in analysis.options] == [
        ("7S", True), ("2H", False)]


def test_with_exact_finish_points_past_the_target_are_worth_nothing():
    position = dict(hand=_cards("5H 2S"), pile=_cards("10C"), own_score=120, opponent_score=100)
    assert str(analyse_play(PlayPosition(**position)).recommendation) == "5H"
    exact = analyse_play(PlayPosition(**position, exact_finish=True))
    assert [(str(o.card), o.points) for o in exact.options if o.card.rank == 5] == [("5H", 0)]
    assert not any(option.wins for option in exact.options)


def test_near_the_end_the_other_side_pegging_out_loses_the_game():
    # The dealer needs 1 and can only hold 6C; you (pone) need 3 and hold 9S 5D. Leading 9S
    # lets the 6C make 15: the dealer pegs out. Leading 5D: 6C (11, nothing), 9S (20) and the
    # last card (1) for you; then you count first, needing 2.
    position = PlayPosition(_cards("9S 5D"), seen=_all_but("9S 5D 6C"), hand_sizes=(1,),
                            own_score=118, opponent_score=120, dealer_seat=1)
    analysis = analyse_play(position)
    five, nine = _option(analysis, "5D"), _option(analysis, "9S")
    assert nine.win_chance == 0.0 and str(analysis.recommendation) == "5D"
    assert five.win_chance == pytest.approx(win_probability.chance_after_play(2, 1, False, None))
    assert round(five.win_chance, 4) == 0.995  # your show scores 2 or more (the dealer needs 1)
    assert (nine.expected_against, five.expected_against) == (2.0, 0.0)
    ruled = analyse_play(replace(position, exact_finish=True))  # a rule the model does not know
    assert _option(ruled, "5D").win_chance == pytest.approx(
        chance_after_play(2, 1, False, None, two_player_model=False))


def test_a_go_said_proves_the_cards_left_are_high():
    # Seat 1 said go at count 25: it holds nothing counting 6 or less.
    position = PlayPosition(_cards("AS 2S"), seen=_cards("3H"), hand_sizes=(2,), goes=((1, 25),))
    belief = check_position(position)
    rng = random.Random(3)
    for _ in range(200):
        (held,) = belief.sample(rng)
        assert all(DECK[card].value > 6 for card in held)


def test_sampled_hands_follow_how_often_strong_players_keep_them():
    # A pone's four unknown cards, nothing played: every hand of 4 of the 46 unseen cards is
    # drawn with a chance proportional to its kept-hand weight (rejection sampling), so each
    # weight bucket's share is its share of all hands times its weight, renormalised.
    seen = _cards("AS 2S 3H 4C 5D 6H")
    position = PlayPosition(_cards("7C 8C 9C 10C"), seen=seen, hand_sizes=(4,), dealer_seat=1)
    belief = check_position(position)
    by_weight: dict[float, int] = {}
    for hand in combinations(belief.pool, 4):
        weight = kept_hand_weight(2, True, (), list(hand))
        by_weight[weight] = by_weight.get(weight, 0) + 1
    total = sum(weight * count for weight, count in by_weight.items())
    expected = {weight: weight * count / total for weight, count in by_weight.items()}
    rng, draws = random.Random(5), 20000
    drawn: dict[float, int] = {}
    for _ in range(draws):
        (held,) = belief.sample(rng)
        weight = kept_hand_weight(2, True, (), held)
        drawn[weight] = drawn.get(weight, 0) + 1
    for weight, share in expected.items():
        # 5 standard errors of a share estimated from `draws` draws
        assert abs(drawn.get(weight, 0) / draws - share) < 5 * (share / draws) ** 0.5 + 1e-3
    # The tilt is real: the hands strong players rarely keep (the lowest weight) are drawn
    # far less often than among all hands.
    lowest = min(expected)
    assert drawn[lowest] / draws < 0.5 * by_weight[lowest] / sum(by_weight.values())


def test_hands_that_cannot_make_the_goes_are_impossible():
    # Every card counting more than 6 is seen: nobody can have said go at 25 holding cards.
    high = " ".join(card.text for card in DECK if card.value > 6)
    position = PlayPosition(_cards("AS"), seen=_cards(high), hand_sizes=(2,), goes=((1, 25),))
    with pytest.raises(PlayPositionError) as error:
        analyse_play(position)
    assert (error.value.code, error.value.field) == ("impossible_hands", "goes")


def test_the_same_position_always_gets_the_same_analysis():
    position = PlayPosition(_cards("5H 4S KD QC"), seen=_cards("2C 7H 6D"), players=3,
                            hand_sizes=(4, 4))
    assert analyse_play(position) == analyse_play(position)
    assert analyse_play(position, random.Random(9)) == analyse_play(position, random.Random(9))


def test_teams_share_their_points():
    # 4 players as 2x2; the three others hold one king each (KC KD KH are all that is unseen).
    # You lead 10S, seat 1 a king (20), your partner a king (30): a pair for your side; the
    # third king does not fit, and your partner's go is your side's point. The third king leads
    # again and takes the last card for the other side.
    position = PlayPosition(_cards("10S"), seen=_all_but("10S KC KD KH"), players=4,
                            teams="2x2", hand_sizes=(1, 1, 1), dealer_seat=3)
    option = analyse_play(position).options[0]
    assert (option.expected_for, option.expected_against) == (3.0, 1.0)


@pytest.mark.parametrize("position, code, field", [
    (PlayPosition(_cards("5H"), _cards("KC QC JC 2C")), "count_exceeds_31", "pile"),
    (PlayPosition(_cards("5H"), _cards("KC QC JC AC")), "count_is_31", "pile"),
    (PlayPosition(_cards("5H 6H"), _cards("KC"), _cards("6H")), "card_seen_twice", "seen"),
    (PlayPosition(_cards("5H 6H 7H 8H 9H 10H")), "too_many_cards", "hand"),
    (PlayPosition(_cards("5H"), hand_sizes=(7,)), "invalid_next_cards", "hand_sizes"),
    (PlayPosition(_cards("5H"), hand_sizes=(1, 1)), "wrong_hand_sizes", "hand_sizes"),
    (PlayPosition(_cards("5H"), players=7), "invalid_players", "players"),
    (PlayPosition(_cards("5H"), players=3, teams="2x2"), "invalid_teams", "teams"),
    (PlayPosition(_cards("5H"), goes=((2, 20),)), "seat_out_of_range", "goes"),
    (PlayPosition(_cards("5H"), dealer_seat=2), "seat_out_of_range", "dealer_seat"),
    (PlayPosition(_cards("5H"), _cards("KC"), played_by=((1, _cards("QC")[0]),)),
     "played_card_unseen", "played_by"),
    (PlayPosition(_cards("5H"), own_score=121), "game_already_won", "target"),
])
def test_impossible_positions_raise_with_a_code(position, code, field):
    with pytest.raises(PlayPositionError) as error:
        analyse_play(position)
    assert error.value.code == code and error.value.field == field


def test_hands_strong_players_keep_weigh_more():
    table = LIKELIHOOD_RATIOS[(2, False)]
    # 5-5-J with a king played: fifteens 8 and a pair, 10 points; A-3-7-Q: nothing.
    good = kept_hand_weight(2, False, (13,), [card.index for card in _cards("5H 5S JD")])
    poor = kept_hand_weight(2, False, (12,), [card.index for card in _cards("AH 3S 7D")])
    assert (good, poor) == (table[10], table[0])
    assert good > 10 * poor
    # Cards played by nobody known: the kept hand is not known whole, so no weight.
    assert kept_hand_weight(2, False, (), [card.index for card in _cards("5H 5S JD")]) == 1.0


@pytest.mark.parametrize("two_player_model", [True, False])
def test_after_the_play_the_side_that_counts_first_wins_with_enough_show(two_player_model):
    def chance(own_need, opponent_need, own_crib, own_show):
        return chance_after_play(own_need, opponent_need, own_crib, own_show, two_player_model)

    # The pone counts first: 12 in hand when 5 are needed wins whatever the dealer holds.
    assert chance(5, 1, own_crib=False, own_show=12) == 1.0
    # The dealer needing 30 with 29 in hand, the pone needing 2: the pone almost always counts
    # out first.
    assert chance(30, 2, own_crib=True, own_show=29) < 0.1
    # Each point still needed costs chances.
    chances = [chance(need, 20, own_crib=True, own_show=None) for need in range(1, 30)]
    assert chances == sorted(chances, reverse=True) and chances[0] > chances[-1]


def _three_at_the_end(own, leader, trailing):
    """Three players, seat 1 dealt; you lead again holding 5H 7S. Seat 1 said go at 24, so it
    holds the 8C and seat 2 the 2D (nothing else is unseen). Leading 7S, the 8C makes 15 for
    seat 1; leading 5H, the 2D makes 15 for seat 2; either way you take the last card."""
    return PlayPosition(_cards("5H 7S"), seen=_all_but("5H 7S 8C 2D"), players=3,
                        hand_sizes=(1, 1), dealer_seat=1, goes=((1, 24),), own_score=own,
                        opponent_score=max(leader, trailing), other_scores=(leader, trailing))


def test_a_trailing_side_close_to_the_target_changes_the_card():
    """At 110, the dealer (seat 1) leads with 116. With seat 2 far behind, the 15 goes to it
    (lead 5H). With seat 2 at 115, two more would leave it needing 4 with its hand, counted
    first: the 15 goes to the dealer instead (lead 7S), who counts last. The rule that knows
    only the leader plays 7S either way."""
    far, close = _three_at_the_end(110, 116, 80), _three_at_the_end(110, 116, 115)
    assert str(analyse_play(far).recommendation) == "5H"
    assert str(analyse_play(close).recommendation) == "7S"
    for position in (far, close):
        lead_only = replace(position, other_scores=None)
        assert str(analyse_play(lead_only).recommendation) == "7S"
    # The hands are forced: each card's chance is the one after the play, from every need.
    options = {str(option.card): option.win_chance for option in analyse_play(close).options}
    assert options == {"7S": pytest.approx(side_race.chance_after_play(
                           "3", 121, (10, 3, 6), 1, None)[0], abs=1e-12),
                       "5H": pytest.approx(side_race.chance_after_play(
                           "3", 121, (10, 5, 4), 1, None)[0], abs=1e-12)}


@pytest.mark.parametrize("other_scores, code", [((116,), "wrong_score_count"),
                                                ((110, 113), "scores_disagree")])
def test_other_scores_must_be_one_per_other_side_led_by_opponent_score(other_scores, code):
    position = replace(_three_at_the_end(110, 116, 80), other_scores=other_scores)
    with pytest.raises(PlayPositionError) as error:
        analyse_play(position)
    assert (error.value.code, error.value.field) == (code, "other_scores")
