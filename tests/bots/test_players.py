import random

import pytest

from bench.match import play_deal
from service.bots.pegging import analyse_play
from service.bots import LEVELS
from service.bots.hints import hint as view_hint
from service.bots.players import play_position
from service.simulation.selfplay import play_game
from service.simulation.stacked import deal_from
from service.engine import (CallMuggins, ClaimCount, CutForDeal, CutStarter, Discard,
                            GameOptions, Play, apply, new_game, to_act, view)
from tests.engine.helpers import cards, run, stacked_deck

LAYOUTS = [(2, None), (3, None), (4, None), (4, "2x2"), (5, None), (6, None), (6, "3x2"),
           (6, "2x3")]


@pytest.mark.parametrize("players, teams", LAYOUTS)
@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_every_level_finishes_a_game_in_every_layout(level, players, teams):
    options = GameOptions(players=players, teams=teams, target=61)
    result = play_game(options, f"{level}{players}{teams}".encode(), (level,) * players,
                       random.Random(players))
    assert result.scores[result.winner] >= 61
    assert sum(score >= 61 for score in result.scores) == 1


def _play_watching(options, seed, levels, rng):
    """Play a game; return every claim and muggins event."""
    state = new_game(options, seed)
    seen = []
    while state.phase != "game_over":
        seat = to_act(state)[0]
        action = LEVELS[levels[seat]].choose(view(state, seat), rng)
        state, events = apply(state, action, 0.0)
        seen += [event for event in events if event.type in ("claim", "muggins")]
    return seen


@pytest.mark.parametrize("muggins", ["off", "auto", "call"])
@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_every_level_counts_its_own_hand_correctly(level, muggins):
    options = GameOptions(players=3, counting="manual", muggins=muggins, target=61)
    events = _play_watching(options, f"count-{level}-{muggins}".encode(), (level,) * 3,
                            random.Random(7))
    claims = [event.public for event in events if event.type == "claim"]
    assert claims and all(claim["claimed"] == claim["true_count"] for claim in claims)
    assert not [event for event in events if event.type == "muggins"]


def test_muggins_is_called_when_an_opponent_misses_points():
    options = GameOptions(players=2, counting="manual", muggins="call")
    state = new_game(options, b"muggins")
    rng = random.Random(1)
    while state.phase != "show":
        seat = to_act(state)[0]
        state, _ = apply(state, LEVELS["easy"].choose(view(state, seat), rng), 0.0)
    claimer = state.claimer()[0]
    state, _ = apply(state, ClaimCount(claimer, 0), 0.0)
    missed = state.pending_muggins[0]["points"]
    assert missed == 2
    caller = 1 - claimer
    action = LEVELS["medium"].choose(view(state, caller), rng)
    assert action == CallMuggins(caller)
    before = state.scores[caller]
    state, _ = apply(state, action, 0.0)
    assert state.scores[caller] == before + missed


def test_hard_plays_what_the_play_analysis_recommends():
    state = new_game(GameOptions(), b"same-function")
    rng = random.Random(2)
    checked = 0
    while state.phase != "game_over" and checked < 40:
        seat = to_act(state)[0]
        seat_view = view(state, seat)
        action = LEVELS["hard"].choose(seat_view, rng)
        if isinstance(action, Play):
            expected = analyse_play(play_position(seat_view)).recommendation
            assert action.card == expected
            checked += 1
        state, _ = apply(state, action, 0.0)
    assert checked == 40


def test_hard_counts_its_own_discards_as_seen():
    deck = stacked_deck(2, 0, {0: "AS 2S 3S 4S 6S 7S", 1: "10S KH QD JC 5D 5C"}, starter="2H")
    state = deal_from(new_game(GameOptions(), b"own discards"), deck, dealer=0)
    state, _ = run(state, [Discard(0, cards("AS 2S")), Discard(1, cards("5D 5C")),
                           CutStarter(1, 4)])
    position = play_position(view(state, 1))
    assert position.seen == cards("2H 5D 5C")  # the starter and its own discards, not AS 2S
    assert (position.hand_sizes, position.dealer_seat, position.goes, position.played_by) == \
        ((4,), 1, (), ())
    assert LEVELS["hard"].choose(view(state, 1), random.Random(0)) == Play(
        1, analyse_play(position).recommendation)


def test_hard_knows_who_played_what_and_who_said_go():
    deck = stacked_deck(2, 0, {0: "KS QS JS 10S 2C 3C", 1: "9H 9D 2D 8S 5D 5C"},
                        starter="AH")
    state = deal_from(new_game(GameOptions(), b"goes"), deck, dealer=0)
    state, _ = run(state, [Discard(0, cards("2C 3C")), Discard(1, cards("5D 5C")),
                           CutStarter(1, 4), Play(1, cards("9H")[0]), Play(0, cards("KS")[0]),
                           Play(1, cards("9D")[0])])
    # Count 28: the dealer (seat 0) holds only ten-cards and says go; the pone plays on.
    position = play_position(view(state, 1))
    assert position.goes == ((1, 28),)
    assert position.played_by == ((1, cards("KS")[0]),)
    assert position.pile == cards("9H KS 9D") and position.hand == cards("2D 8S")


def test_an_unknown_level_is_not_in_the_registry():
    assert "grandmaster" not in LEVELS
    with pytest.raises(KeyError):
        LEVELS["grandmaster"]


def test_hard_beats_easy_on_duplicate_deals():
    games = [game for index in range(12) for game in play_deal(("hard", "easy", index, 121,
                                                                 "smoke"))]
    assert len(games) == 24
    hard_wins = sum(winner == side for side, winner, *_ in games)
    assert hard_wins > 12


def test_levels_registry_for_the_games_service():
    state = new_game(GameOptions(), b"registry")
    seat = to_act(state)[0]
    assert sorted(LEVELS) == ["easy", "first", "hard", "medium"]
    action = LEVELS["hard"].choose(view(state, seat), random.Random(0))
    assert action == CutForDeal(seat, None)


def test_near_the_end_of_a_team_game_hard_and_its_hint_take_the_best_chance_to_win():
    """2x2 at 108-108, seat 0's partner deals: the best net throws the five (tests/bots/
    test_side_race.py), the best chance to win keeps 5 6 7 7; hard and the hint agree."""
    options = GameOptions(players=4, teams="2x2")
    deck = stacked_deck(4, 2, {0: "7S 7H 5S 6H 7C", 1: "AC 2C 3C 4C 6C", 2: "AD 2D 3D 4D 6D",
                               3: "AH 2H 3H 4H 8H"}, starter="KS")
    state = deal_from(new_game(options, b"team endgame"), deck, dealer=2, scores=(108, 108))
    thrown = LEVELS["hard"].choose(view(state, 0), random.Random(0)).cards
    assert len(thrown) == 1 and thrown[0].rank == 7
    hint = view_hint(view(state, 0))
    assert hint.options[0].cards == thrown and round(hint.options[0].win_chance, 4) == 0.5952
