"""Every ending (won, resigned, aborted, timed out, abandoned) gives exactly one final
`game_over` event, right after `game_seed_revealed`; abort only before the first card; turn
timers start again for each decision."""
import pytest

from service.engine import (Abort, CutStarter, Discard, EndMatch, GameOptions, NextGame, Play,
                            Resign, abandon, apply, new_game, start_game, time_out, to_act)
from service.engine.shuffle import commitment
from service.errors import DomainError
from service.simulation.stacked import deal_from
from tests.engine.helpers import cards, of_type, run, stacked_deck
from tests.engine.test_match import won_on_heels

SEED = b"endings"


def dealt(now: float = 0.0, **options):
    """A two-player game just dealt by seat 0, at `now`."""
    state, _ = start_game(GameOptions(**options), SEED, first_dealer=0, now=now)
    return state


def discarded(state, now: float = 0.0):
    """Both seats put their first two cards in the crib."""
    return run(state, [Discard(seat, state.hands[seat][:2]) for seat in (0, 1)], now)


def the_game_over(events) -> dict:
    over = of_type(events, "game_over")
    assert len(over) == 1
    types = [event.type for event in events]
    assert types[-2:] == ["game_seed_revealed", "game_over"]
    return over[0].public


def test_a_game_won_ends_with_one_game_over_saying_won():
    deck = stacked_deck(2, 0, {0: "5S 4S 2S 8D 6H 8C", 1: "10S 6D JH 4H KC 7C"},
                        starter="JD", depth=7)
    state = deal_from(new_game(GameOptions(), SEED), deck, dealer=0, scores=(119, 70))
    state, events = run(state, [Discard(0, cards("8D 8C")), Discard(1, cards("10S KC")),
                                CutStarter(1, 7)])
    assert the_game_over(events) == {
        "reason": "won", "winner": 0, "seats": [0], "scores": [121, 70], "game_points": 1,
        "match_points": [1, 0], "games": 1}


def test_resigning_ends_with_game_over_saying_resigned():
    state, events = run(dealt(), [Resign(1)])
    over = the_game_over(events)
    assert (over["reason"], over["winner"], over["seats"]) == ("resigned", 0, [0])
    assert over["game_points"] == 2  # the loser, below 61, is skunked
    assert state.ending == "resigned"


def test_any_seat_may_abort_before_the_first_card_of_the_first_hand():
    state = dealt()
    state, events = apply(state, Abort(1), 0.0)
    assert [event.type for event in events] == ["aborted", "game_seed_revealed", "game_over"]
    assert events[0].public == {"seat": 1}
    assert events[1].public["commitment"] == commitment(SEED)
    assert the_game_over(events) == {
        "reason": "aborted", "winner": None, "seats": [], "scores": [0, 0], "game_points": 0,
        "match_points": [0, 0], "games": 0}
    assert state.phase == "game_over" and state.winner is None and to_act(state) == []


def test_abort_is_open_through_the_discard_and_cut_but_not_after_a_card_is_played():
    state, _ = discarded(dealt())
    state, _ = apply(state, CutStarter(to_act(state)[0], 10), 0.0)
    assert state.phase == "play"
    assert apply(state, Abort(0), 0.0)[0].ending == "aborted"
    first = state.turn
    state, _ = apply(state, Play(first, state.hands[first][0]), 0.0)
    with pytest.raises(DomainError) as refused:
        apply(state, Abort(0), 0.0)
    assert refused.value.code == "too_late_to_abort"


def test_an_aborted_match_is_over_for_good():
    state = dealt(match=True)
    state, events = apply(state, Abort(0), 0.0)
    assert state.phase == "match_over" and state.over
    assert the_game_over(events)["reason"] == "aborted"


def test_a_match_ended_by_a_seat_gives_one_game_over_after_match_over():
    state, events = won_on_heels(2, (119, 70))
    assert of_type(events, "game_over") == []  # the match goes on
    state, events = apply(state, EndMatch(1), 0.0)
    assert [event.type for event in events] == ["match_over", "game_seed_revealed", "game_over"]
    assert the_game_over(events) == {
        "reason": "won", "winner": 0, "seats": [0], "scores": [121, 70], "game_points": 1,
        "match_points": [1, 0], "games": 1}


def test_abandoning_ends_the_game_with_no_winner():
    state, events = abandon(dealt(), 5.0)
    assert [event.type for event in events] == ["abandoned", "game_seed_revealed", "game_over"]
    assert the_game_over(events)["reason"] == "abandoned"
    assert state.over and state.winner is None


def test_the_turn_clock_starts_at_each_decision_and_runs_on_through_a_shared_one():
    state = dealt(now=100.0, turn_time_limit=30)
    assert state.turn_deadline == 130.0  # both seats discard: one decision
    state, _ = apply(state, Discard(0, state.hands[0][:2]), 110.0)
    assert state.turn_deadline == 130.0  # seat 1's decision has not changed
    state, _ = apply(state, Discard(1, state.hands[1][:2]), 120.0)
    assert state.phase == "cut_starter" and state.turn_deadline == 150.0
    assert dealt(now=100.0).turn_deadline is None  # no timer unless asked for


def test_a_seat_that_runs_out_of_time_forfeits():
    state = dealt(now=0.0, turn_time_limit=10, on_timeout="forfeit")
    with pytest.raises(DomainError):
        time_out(state, 1, 10.0)  # not yet: the deadline itself is still in time
    state, events = time_out(state, 1, 10.5)
    assert events[0].type == "turn_timeout"
    assert events[0].public == {"seat": 1, "on_timeout": "forfeit", "level": None}
    over = the_game_over(events)
    assert (over["reason"], over["winner"]) == ("timed_out", 0)
    assert state.turn_deadline is None


def test_a_computer_move_for_a_timed_out_seat_follows_its_turn_timeout_event():
    state = dealt(now=0.0, turn_time_limit=10)
    state, events = time_out(state, 1, 11.0, Discard(1, state.hands[1][:2]))
    assert [event.type for event in events] == ["turn_timeout", "discarded"]
    assert events[0].public == {"seat": 1, "on_timeout": "computer", "level": "hard"}
    assert state.turn_deadline == 10.0 and to_act(state) == [0]  # seat 0 is late too
    state, events = time_out(state, 0, 11.0, Discard(0, state.hands[0][:2]))
    assert state.phase == "cut_starter" and state.turn_deadline == 21.0


def test_timing_out_between_the_games_of_a_match_ends_the_match_as_it_stands():
    state, _ = won_on_heels(2, (119, 70), turn_time_limit=10, on_timeout="forfeit")
    assert state.phase == "game_over" and state.match_points == (1, 0)
    state, events = time_out(state, 0, 1000.0)  # the leader forfeits nothing
    assert [event.type for event in events] == [
        "turn_timeout", "match_over", "game_seed_revealed", "game_over"]
    assert events[0].public == {"seat": 0, "on_timeout": "forfeit", "level": None}
    assert events[1].public == {"match_points": [1, 0], "games": 1, "seat": 0}
    over = the_game_over(events)
    assert (over["reason"], over["winner"]) == ("won", 0)  # the game as it was won
    assert (state.phase, state.match_points) == ("match_over", (1, 0))
    with pytest.raises(DomainError):
        apply(state, NextGame(1), 1000.0)


def test_the_first_cut_for_deal_is_timed_too():
    assert new_game(GameOptions(turn_time_limit=10), SEED).turn_deadline == 10.0


@pytest.mark.parametrize("options", [{"turn_time_limit": 9}, {"turn_time_limit": 14 * 86400 + 1},
                                     {"on_timeout": "pass"}, {"timeout_level": ""}])
def test_turn_timer_options_are_checked(options):
    with pytest.raises(DomainError) as refused:
        GameOptions(**options)
    assert refused.value.code == "invalid_options"
