"""Options and actions: validation, request forms, round trips."""
import json

import pytest

from service.simulation.stacked import deal_from
from service.errors import DomainError
from service.engine import (ACTION_TYPES, CallMuggins, ClaimCount, ClaimItem, CutForDeal,
                            CutStarter, Discard, EndMatch, Event, GameOptions, NextGame, Play,
                            Resign, apply, new_game, start_game)
from service.games.requests import ActionRequest, ClaimedItem, to_action
from service.games.state_json import state_from_dict, state_to_dict
from service.cards import DECK
from tests.engine.helpers import cards, run, stacked_deck


@pytest.mark.parametrize("options", [
    {}, {"players": 4, "teams": "2x2"}, {"players": 6, "teams": "3x2"},
    {"players": 6, "teams": "2x3"}, {"players": 5}, {"target": 31}, {"target": 1000},
    {"counting": "manual", "muggins": "call", "count_time_limit": 15},
    {"counting": "manual", "muggins": "auto", "count_time_limit": 120},
    {"skunk": "acc", "exact_finish": True, "match": True},
    {"hints": True, "start_scores": [100, 90], "first_dealer": 1},
    {"players": 6, "teams": "3x2", "start_scores": [0, 5, 120], "first_dealer": 5},
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
    ({"hints": 1}, "hints"), ({"start_scores": [1, 2, 3]}, "start_scores"),
    ({"start_scores": [121, 0]}, "start_scores"), ({"start_scores": [-1, 0]}, "start_scores"),
    ({"start_scores": "0 0"}, "start_scores"), ({"start_scores": [1.0, 0]}, "start_scores"),
    ({"players": 4, "teams": "2x2", "start_scores": [0, 0, 0, 0]}, "start_scores"),
    ({"first_dealer": 2}, "first_dealer"), ({"first_dealer": True}, "first_dealer"),
])
def test_an_invalid_option_is_refused_naming_its_field(options, field):
    with pytest.raises(DomainError) as refused:
        GameOptions.from_dict(options)
    assert refused.value.code == "invalid_options" and refused.value.field == field


def test_partners_sit_alternately_and_without_teams_each_seat_is_a_side():
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


def request_of(action) -> ActionRequest:
    """The request a player sends for `action`, its cards in the canonical form."""
    card = getattr(action, "card", None)
    cards_ = getattr(action, "cards", None)
    items = getattr(action, "items", None)
    return ActionRequest(
        action.type, action.seat, card=None if card is None else card.text,
        cards=None if cards_ is None else tuple(c.text for c in cards_),
        depth=getattr(action, "depth", None), points=getattr(action, "points", None),
        items=None if items is None else tuple(
            ClaimedItem(item.kind, tuple(c.text for c in item.cards)) for item in items))


def holding(seat, hand):
    """A 2-player state in the discard phase where `seat` holds `hand` (six cards)."""
    other = " ".join(c.text for c in [c for c in DECK if c not in cards(hand)][:6])
    deck = stacked_deck(2, 0, {seat: hand, 1 - seat: other}, starter="KH")
    return deal_from(new_game(GameOptions(), b"requests"), deck, dealer=0)


@pytest.mark.parametrize("action", ACTIONS, ids=lambda a: a.type)
def test_an_action_round_trips_through_its_request(action):
    assert ACTION_TYPES[action.type] is type(action)
    request = request_of(action)
    assert request.type in ACTION_TYPES and request.seat == action.seat
    assert to_action(request, action.seat, new_game(GameOptions(), b"requests")) == action


def test_requests_name_cards_in_any_notation():
    state = holding(1, "KS 5H 10D 2C 3C 4C")
    assert to_action(ActionRequest("discard", 1, cards=("5H", "10D")), 1, state) == Discard(
        1, cards("5H 10D"))
    assert to_action(ActionRequest("play", 1, card="king of spades"), 1, state) == Play(
        1, cards("KS")[0])
    claim = ActionRequest("claim", 0, items=(ClaimedItem("nobs", ("js",)),))
    assert to_action(claim, 0, state) == ClaimCount(0, None, (ClaimItem("nobs", cards("JS")),))


@pytest.mark.parametrize("request_, code", [
    (ActionRequest("fly", 0), "invalid_action"),
    (ActionRequest("play", 0, card="5X"), "unknown_card"),
    (ActionRequest("play", 0), "invalid_action"),  # no card
    (ActionRequest("discard", 0, cards=("5H", "5h")), "duplicate_card"),
])
def test_a_malformed_action_request_is_refused_with_its_code(request_, code):
    state = holding(0, "5H 6H 7H 8H 9H 10H")
    with pytest.raises(DomainError) as refused:
        apply(state, to_action(request_, 0, state), 0.0)
    assert refused.value.code == code


@pytest.mark.parametrize("seat", ["0", True, None, 2])
def test_a_seat_that_is_not_a_seat_number_is_refused(seat):
    state = holding(0, "5H 6H 7H 8H 9H 10H")
    with pytest.raises(DomainError) as refused:
        apply(state, Discard(seat, cards("5H 6H")), 0.0)
    assert refused.value.code == "unknown_seat"


def test_an_event_round_trips_through_its_dict():
    event = Event("dealt", {"counts": [6, 6]}, {0: {"cards": ["5H"]}, 1: {"cards": ["6H"]}})
    assert Event.from_dict(event.to_dict()) == event


def test_a_new_state_round_trips():
    state = new_game(GameOptions(players=3, counting="manual", muggins="call"), b"round trip")
    assert state_from_dict(state_to_dict(state)) == state
    with pytest.raises(DomainError) as refused:
        state_from_dict({"phase": "play"})
    assert refused.value.code == "invalid_state"


def test_a_state_with_discards_round_trips_through_json():
    deck = stacked_deck(3, 0, {1: "5H 5D 10S JC KD", 2: "4C 6C 7D 8S QH", 0: "2H 3H 9C 9D AS"},
                        crib_card="7C", starter="5C")
    state = deal_from(new_game(GameOptions(players=3), b"three"), deck, dealer=0)
    state, _ = run(state, [Discard(1, cards("KD")), Discard(2, cards("QH"))])
    data = json.loads(json.dumps(state_to_dict(state)))
    assert data["discards"] == [[], ["KD"], ["QH"]]
    assert state_from_dict(data) == state



def test_a_preset_position_starts_at_its_scores_with_its_dealer_and_no_cut_for_deal():
    options = GameOptions(players=3, target=61, start_scores=(50, 0, 60), first_dealer=2)
    state, events = start_game(options, b"preset")
    assert (state.phase, state.scores, state.dealer, state.first_dealer) == (
        "discard", (50, 0, 60), 2, 2)
    assert [event.type for event in events] == ["game_started", "dealt"]
    assert start_game(GameOptions(first_dealer=1), b"preset", first_dealer=0)[0].dealer == 0
