"""Options and actions: validation, JSON forms, round trips."""
import json

import pytest

from service.simulation.stacked import deal_from
from service.errors import DomainError
from service.engine import (ACTION_TYPES, CallMuggins, ClaimCount, ClaimItem, CutForDeal,
                            CutStarter, Discard, EndMatch, Event, GameOptions, GameState,
                            NextGame, Play, Resign, action_from_dict, new_game)
from tests.engine.helpers import cards, run, stacked_deck


@pytest.mark.parametrize("options", [
    {}, {"players": 4, "teams": "2x2"}, {"players": 6, "teams": "3x2"},
    {"players": 6, "teams": "2x3"}, {"players": 5}, {"target": 31}, {"target": 1000},
    {"counting": "manual", "muggins": "call", "count_time_limit": 15},
    {"counting": "manual", "muggins": "auto", "count_time_limit": 120},
    {"skunk": "acc", "exact_finish": True, "match": True},
])
def test_valid_options_round_trip(options):
    parsed = GameOptions.from_dict(options)
    assert GameOptions.from_dict(parsed.to_dict()) == parsed
    assert parsed.to_dict() == {**GameOptions().to_dict(), **options}


@pytest.mark.parametrize("options, field", [
    ({"players": 1}, "players"), ({"players": 7}, "players"), ({"players": True}, "players"),
    ({"players": "2"}, "players"), ({"teams": "2x2"}, "teams"),
    ({"players": 6, "teams": "2x2"}, "teams"), ({"players": 4, "teams": "3x2"}, "teams"),
    ({"target": 30}, "target"), ({"target": 1001}, "target"), ({"target": 121.0}, "target"),
    ({"counting": "robot"}, "counting"), ({"muggins": "auto"}, "muggins"),
    ({"counting": "manual", "muggins": "yes"}, "muggins"),
    ({"counting": "manual", "count_time_limit": 14}, "count_time_limit"),
    ({"counting": "manual", "count_time_limit": 121}, "count_time_limit"),
    ({"count_time_limit": 30}, "count_time_limit"), ({"skunk": "double"}, "skunk"),
    ({"exact_finish": 1}, "exact_finish"), ({"match": "yes"}, "match"), ({"colour": 1}, "colour"),
])
def test_invalid_options(options, field):
    with pytest.raises(DomainError) as refused:
        GameOptions.from_dict(options)
    assert refused.value.code == "invalid_options" and refused.value.params["field"] == field


def test_sides_and_seating():
    assert GameOptions(players=4, teams="2x2").seats_of(0) == (0, 2)
    assert GameOptions(players=6, teams="3x2").seats_of(1) == (1, 4)
    assert GameOptions(players=6, teams="2x3").seats_of(1) == (1, 3, 5)
    assert [GameOptions(players=5).side_of(seat) for seat in range(5)] == [0, 1, 2, 3, 4]


def test_new_game_refuses_a_bad_seed():
    for seed in (b"", "text", None):
        with pytest.raises(DomainError) as refused:
            new_game(GameOptions(), seed)
        assert refused.value.code == "invalid_options"


ACTIONS = [CutForDeal(0, None), CutForDeal(1, 12), Discard(0, cards("5H 10D")),
           CutStarter(1, 4), Play(0, cards("JS")[0]), ClaimCount(1, 12, None),
           ClaimCount(1, None, (ClaimItem("fifteen", cards("5H 10D")),)), CallMuggins(0),
           NextGame(1), EndMatch(0), Resign(1)]


@pytest.mark.parametrize("action", ACTIONS, ids=lambda a: a.type)
def test_actions_round_trip(action):
    data = action.to_dict()
    assert data["type"] in ACTION_TYPES and data["seat"] == action.seat
    assert action_from_dict(data) == action


def test_action_json_forms():
    assert Discard(0, cards("5H 10D")).to_dict() == {"type": "discard", "seat": 0,
                                                     "cards": ["5H", "10D"]}
    assert action_from_dict({"type": "play", "seat": 1, "card": "king of spades"}) == Play(
        1, cards("KS")[0])
    claim = {"type": "claim", "seat": 0, "items": [{"kind": "nobs", "cards": ["js"]}]}
    assert action_from_dict(claim) == ClaimCount(0, None, (ClaimItem("nobs", cards("JS")),))


@pytest.mark.parametrize("data, code", [
    ({"type": "fly", "seat": 0}, "invalid_action"), ({"seat": 0}, "invalid_action"),
    ([], "invalid_action"), ({"type": "play", "seat": "0", "card": "5H"}, "invalid_action"),
    ({"type": "play", "seat": True, "card": "5H"}, "invalid_action"),
    ({"type": "play", "seat": 0, "card": "5X"}, "unknown_card"),
    ({"type": "play", "seat": 0}, "unknown_card"),
    ({"type": "discard", "seat": 0, "cards": "5H"}, "invalid_action"),
    ({"type": "discard", "seat": 0, "cards": ["5H", "5h"]}, "duplicate_card"),
    ({"type": "cut_starter", "seat": 0, "depth": "4"}, "invalid_action"),
    ({"type": "claim", "seat": 0, "points": 2.5}, "invalid_action"),
    ({"type": "claim", "seat": 0, "items": [{"cards": []}]}, "invalid_action"),
])
def test_malformed_actions(data, code):
    with pytest.raises(DomainError) as refused:
        action_from_dict(data)
    assert refused.value.code == code


def test_event_round_trip():
    event = Event("dealt", {"counts": [6, 6]}, {0: {"cards": ["5H"]}, 1: {"cards": ["6H"]}})
    assert Event.from_dict(event.to_dict()) == event


def test_a_new_state_round_trips():
    state = new_game(GameOptions(players=3, counting="manual", muggins="call"), b"round trip")
    assert GameState.from_dict(state.to_dict()) == state
    with pytest.raises(DomainError) as refused:
        GameState.from_dict({"phase": "play"})
    assert refused.value.code == "invalid_state"


def test_a_state_with_discards_round_trips_through_json():
    deck = stacked_deck(3, 0, {1: "5H 5D 10S JC KD", 2: "4C 6C 7D 8S QH", 0: "2H 3H 9C 9D AS"},
                        crib_card="7C", starter="5C")
    state = deal_from(new_game(GameOptions(players=3), b"three"), deck, dealer=0)
    state, _ = run(state, [Discard(1, cards("KD")), Discard(2, cards("QH"))])
    data = json.loads(json.dumps(state.to_dict()))
    assert data["discards"] == [[], ["KD"], ["QH"]]
    assert GameState.from_dict(data) == state

