"""Matches: game points with skunks, the loser deals the next game, ending the match."""
import pytest

from service.simulation.stacked import deal_from
from service.errors import DomainError
from service.engine import (CutStarter, Discard, EndMatch, GameOptions, LegalMatchDecision,
                            NextGame, Play, Resign, apply, legal_actions, new_game, to_act)
from tests.engine.helpers import all_cards, cards, of_type, run, stacked_deck


def won_on_heels(players, scores, dealer=0, **options):
    """A game the dealer wins on heels in its first hand."""
    hands = {0: "AS 2S 3S 4S 5S 6S", 1: "AH 2H 3H 4H 5H 6H", 2: "AD 2D 3D 4D 5D 6D"}
    hands = {seat: " ".join(hands[seat].split()[:6 if players == 2 else 5])
             for seat in range(players)}
    deck = stacked_deck(players, dealer, hands, starter="JC", depth=4,
                        crib_card="KS" if players == 3 else "")
    state = deal_from(new_game(GameOptions(players=players, match=True, **options), b"match"),
                      deck, dealer=dealer, scores=scores)
    count = 2 if players == 2 else 1
    state, _ = run(state, [Discard(seat, state.hands[seat][:count]) for seat in to_act(state)])
    state, events = run(state, [CutStarter(to_act(state)[0], 4)])
    assert state.phase == "game_over"
    return state, events


def test_the_loser_deals_the_next_game():
    state, events = won_on_heels(2, (119, 70))
    assert to_act(state) == [0, 1]
    assert legal_actions(state, 1) == [LegalMatchDecision("next_game"),
                                       LegalMatchDecision("end_match")]
    assert state.match_points == (1, 0)
    hand_number = state.hand_number
    state, events = apply(state, NextGame(0), 0.0)
    assert state.phase == "discard" and state.game_number == 2 and state.scores == (0, 0)
    assert state.dealer == state.first_dealer == 1 and state.winner is None
    assert state.hand_number == hand_number + 1  # hands are numbered across the match
    assert [e.type for e in events][:2] == ["game_started", "dealt"]


@pytest.mark.parametrize("scores, first_dealer", [((121 - 2, 50, 50), 1), ((119, 50, 40), 2),
                                                  ((119, 40, 50), 1)])
def test_with_more_than_two_sides_the_lowest_score_deals(scores, first_dealer):
    state, _ = won_on_heels(3, scores)
    state, _ = apply(state, NextGame(2), 0.0)
    assert state.first_dealer == first_dealer


def test_game_points_count_skunks_for_every_losing_side():
    state, events = won_on_heels(3, (119, 60, 20), skunk="acc")
    won = of_type(events, "game_won")[0].public
    assert won["skunks"] == [0, 2, 3] and won["game_points"] == 3 + 4
    assert state.match_points == (7, 0, 0)


def test_an_ended_match_takes_no_next_game():
    state, _ = won_on_heels(2, (119, 70))
    state, events = apply(state, EndMatch(1), 0.0)
    assert state.phase == "match_over" and to_act(state) == []
    assert of_type(events, "match_over")[0].public["match_points"] == [1, 0]
    with pytest.raises(DomainError) as refused:
        apply(state, NextGame(0), 0.0)
    assert refused.value.code == "game_over"


def test_without_a_match_the_game_over_is_final():
    hands = {0: "AS 2S 3S 4S 5S 6S", 1: "AH 2H 3H 4H 5H 6H"}
    deck = stacked_deck(2, 0, hands, starter="JC", depth=4)
    state = deal_from(new_game(GameOptions(), b"single"), deck, dealer=0, scores=(119, 0))
    state, _ = run(state, [Discard(0, cards("AS 2S")), Discard(1, cards("AH 2H")),
                           CutStarter(1, 4)])
    assert state.phase == "game_over" and to_act(state) == []
    with pytest.raises(DomainError) as refused:
        apply(state, NextGame(0), 0.0)
    assert refused.value.code == "game_over"
    with pytest.raises(DomainError):
        apply(state, Play(1, cards("3H")[0]), 0.0)


def test_a_match_game_resigned_before_the_first_deal_goes_on():
    state = new_game(GameOptions(players=3, match=True), b"early")
    state, _ = run(state, [Resign(1)])
    assert state.phase == "game_over" and state.winner == 2
    state, _ = apply(state, NextGame(0), 0.0)
    assert state.phase == "discard" and state.first_dealer == 0  # lowest: sides 0 and 1 tied
    assert state.cut_deck == () and len(set(all_cards(state))) == 52
