"""How the cards named in an action are read against the seat's hand."""

from __future__ import annotations

import pytest

from service import engine
from service.api.problems import status_of
from service.cards import DECK, parse_cards
from service.errors import DomainError
from service.games import ActionRequest
from service.games.requests import to_action
from service.simulation.stacked import deal_from

HELD = parse_cards(["AH", "5C", "5D", "KS", "7C", "9D"])
SEAT = 1  # the pone, dealt first: the deck's cards 0, 2, 4, ...


def state_holding(held=HELD, seat=SEAT):
    """A two-player game in the discard phase where `seat` holds `held`."""
    rest = [card for card in DECK if card not in held]
    deck = []
    for position in range(12):
        deck.append(held[position // 2] if position % 2 == (seat - 1) % 2 else rest.pop())
    deck += rest
    state = deal_from(engine.new_game(engine.GameOptions(), b"card names"), deck, dealer=0)
    assert state.hands[seat] == held
    return state


STATE = state_holding()


def action(**fields):
    return to_action(ActionRequest(**fields), SEAT, STATE)


def test_a_bare_rank_names_the_only_held_card_of_that_rank():
    assert action(type="play", card="k") == engine.Play(SEAT, parse_cards(["KS"])[0])
    assert action(type="play", card="rey") == engine.Play(SEAT, parse_cards(["KS"])[0])
    assert action(type="discard", cards=("k", "ace of hearts")) == engine.Discard(
        SEAT, parse_cards(["KS", "AH"]))


def test_the_canonical_form_always_names_that_very_card():
    assert action(type="play", card="AS") == engine.Play(SEAT, parse_cards(["AS"])[0])
    assert action(type="play", card="as") == engine.Play(SEAT, parse_cards(["AH"])[0])
    # held or not: whether the seat may play it is the engine's to say
    assert action(type="play", card="QH") == engine.Play(SEAT, parse_cards(["QH"])[0])


def refusal(**fields) -> tuple:
    """What the action's refusal says: its code, field, index and HTTP status."""
    with pytest.raises(DomainError) as refused:
        action(**fields)
    error = refused.value
    return error.code, error.field, error.index, status_of(error)


@pytest.mark.parametrize("fields, expected", [
    ({"type": "play", "card": "5"}, ("ambiguous_card", "card", None, 422)),
    ({"type": "discard", "cards": ("KS", "5X")}, ("unknown_card", "cards", 1, 422)),
    ({"type": "play", "card": "qh"}, ("card_not_in_hand", "card", None, 409)),
    ({"type": "play", "card": "queen of hearts"}, ("card_not_in_hand", "card", None, 409)),
    ({"type": "play", "card": "q"}, ("card_not_in_hand", "card", None, 409)),
    ({"type": "discard", "cards": ("k", "cinco")}, ("ambiguous_card", "cards", 1, 422)),
])
def test_names_that_fit_no_single_held_card_are_refused_with_the_field_at_fault(fields,
                                                                                expected):
    assert refusal(**fields) == expected


def test_actions_without_cards_are_passed_on_as_they_are():
    assert action(type="resign") == engine.Resign(SEAT)
    assert action(type="cut_starter", depth=7) == engine.CutStarter(SEAT, 7)
