"""How the cards named in an action are read against the seat's hand."""

from __future__ import annotations

from service.cards import parse_cards
from service.games.service import _resolved

HELD = parse_cards(["AH", "5C", "5D", "KS"])


def test_a_bare_rank_names_the_only_held_card_of_that_rank():
    assert _resolved({"type": "play", "card": "k"}, HELD) == {"type": "play", "card": "KS"}
    assert _resolved({"type": "play", "card": "rey"}, HELD) == {"type": "play", "card": "KS"}
    assert _resolved({"type": "discard", "cards": ["k", "ace of hearts"]}, HELD) == {
        "type": "discard", "cards": ["KS", "AH"]}


def test_the_canonical_form_always_names_that_very_card():
    assert _resolved({"type": "play", "card": "AS"}, HELD) == {"type": "play", "card": "AS"}
    assert _resolved({"type": "play", "card": "as"}, HELD) == {"type": "play", "card": "AH"}


def test_names_that_fit_no_single_held_card_are_left_to_the_engine():
    assert _resolved({"type": "play", "card": "5"}, HELD) == {"type": "play", "card": "5"}
    assert _resolved({"type": "play", "card": "5X"}, HELD) == {"type": "play", "card": "5X"}
    assert _resolved({"type": "play", "card": "QH"}, HELD) == {"type": "play", "card": "QH"}
    assert _resolved({"type": "resign"}, HELD) == {"type": "resign"}
