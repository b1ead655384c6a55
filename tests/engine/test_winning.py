"""The game ends the instant a side reaches the target; exact finish; skunk lines; resigning."""
import pytest

from service.simulation.stacked import deal_from
from service.errors import DomainError
from service.engine import (CutStarter, Discard, GameOptions, Play, Resign, apply, new_game,
                            to_act)
from service.engine.rules import skunk_level
from tests.engine.helpers import cards, of_type, run, stacked_deck
from tests.engine.test_golden_hands import (ALICE, BOB, SEED_003_BEFORE_PLAY, SEED_003_PLAY,
                                            seed_003_state)


def test_game_won_on_heels():
    deck = stacked_deck(2, ALICE, {ALICE: "5S 4S 2S 8D 6H 8C", BOB: "10S 6D JH 4H KC 7C"},
                        starter="JD", depth=7)
    state = deal_from(new_game(GameOptions(), b"heels"), deck, dealer=ALICE, scores=(119, 100))
    state, events = run(state, [Discard(ALICE, cards("8D 8C")), Discard(BOB, cards("10S KC")),
                                CutStarter(BOB, 7)])
    heels = [(e.public["seat"], e.public["points"]) for e in of_type(events, "heels")]
    assert heels == [(ALICE, 2)]
    assert state.phase == "game_over" and state.winner == ALICE and state.scores == (121, 100)
    assert [e.type for e in events][-5:] == ["heels", "game_won", "hand_revealed",
                                             "game_seed_revealed", "game_over"]
    assert to_act(state) == []
    with pytest.raises(DomainError) as refused:
        apply(state, Play(BOB, cards("JH")[0]), 0.0)
    assert refused.value.code == "game_over"


def test_game_won_by_the_pones_hand_before_the_dealer_counts():
    # Alice pegs 6 and Bob 3: 110 + 6 = 116 and 110 + 3 = 113; Bob's 9 takes him to 122 and
    # Alice's 12 (and her crib) are never counted.
    state, _ = run(seed_003_state(scores=(110, 110)), SEED_003_BEFORE_PLAY)
    state, events = run(state, SEED_003_PLAY)
    assert [(e.public["seat"], e.public["points"]) for e in of_type(events, "show_scored")] == [
        (BOB, 9)]
    assert state.winner == BOB and state.scores == (116, 122) and state.phase == "game_over"


def test_game_won_on_a_pegging_point_stops_the_play():
    state, _ = run(seed_003_state(scores=(119, 0)), SEED_003_BEFORE_PLAY)
    state, _ = run(state, SEED_003_PLAY[:2])  # Alice's 5S makes fifteen for 2
    assert state.winner == ALICE and state.scores == (121, 0)
    with pytest.raises(DomainError) as refused:
        apply(state, SEED_003_PLAY[2], 0.0)
    assert refused.value.code == "game_over"


def test_exact_finish_does_not_score_points_that_pass_the_target():
    options = GameOptions(exact_finish=True)
    deck = stacked_deck(2, ALICE, {ALICE: "5S 4S 2S 8D 6H 8C", BOB: "10S 6D JH 4H KC 7C"},
                        starter="5H", depth=20)
    state = deal_from(new_game(options, b"exact"), deck, dealer=ALICE, scores=(120, 0))
    state, _ = run(state, SEED_003_BEFORE_PLAY)
    state, events = run(state, SEED_003_PLAY[:2])
    assert of_type(events, "card_played")[1].public["points"] == 0  # 2 would pass 121
    assert state.scores == (120, 0) and state.winner is None
    state, events = run(state, SEED_003_PLAY[2:5])  # Alice's go point: exactly 121
    assert state.winner == ALICE and state.scores == (121, 0)


@pytest.mark.parametrize("skunk, target, score, level", [
    ("standard", 121, 61, 0), ("standard", 121, 60, 1), ("standard", 61, 31, 0),
    ("standard", 61, 30, 1), ("acc", 121, 91, 0), ("acc", 121, 90, 1), ("acc", 121, 61, 1),
    ("acc", 121, 60, 2), ("acc", 121, 31, 2), ("acc", 121, 30, 3), ("acc", 121, 0, 3),
])
def test_skunk_levels_follow_the_standard_and_acc_lines(skunk, target, score, level):
    assert skunk_level(skunk, target, score) == level


def test_a_skunked_loser_counts_double_game_points():
    state, events = run(seed_003_state(scores=(119, 40)), SEED_003_BEFORE_PLAY + SEED_003_PLAY[:2])
    won = of_type(events, "game_won")[0].public
    assert won["winner"] == ALICE and won["skunks"] == [0, 1] and won["game_points"] == 2
    assert state.match_points == (2, 0)


def test_resign_gives_the_game_to_the_other_side():
    state = seed_003_state(scores=(10, 20))
    state, events = run(state, [Resign(BOB)])
    assert state.phase == "game_over" and state.winner == ALICE
    assert of_type(events, "game_won")[0].public["resigned"] == BOB


def test_resign_with_three_sides_goes_to_the_leading_other_side():
    state = new_game(GameOptions(players=3), b"resign")
    state, _ = run(state, [Resign(1)])
    assert state.winner == 2  # all tied at 0: the first other side clockwise from seat 1
