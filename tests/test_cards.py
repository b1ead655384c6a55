import pytest

from service.cards import (DECK, AmbiguousCardError, Card, CardNotHeldError, CardParseError,
                           DuplicateCardError, parse_cards, resolve_card)

KING_OF_DIAMONDS_SPELLINGS = ["kd", "k d", "k of d", "king d", "king of d", "k diamonds",
                              "k of diamonds", "king diamonds", "king of diamonds", "KD", "d k",
                              "diamonds king", "rey de diamantes", "Rey de Diamantes", "k♦", "♦K",
                              "rey diamantes", "diamante rey"]


@pytest.mark.parametrize("text", KING_OF_DIAMONDS_SPELLINGS)
def test_every_notation_of_the_bsd_manual_names_the_king_of_diamonds(text):
    assert Card.parse(text) == Card(13, "D")


@pytest.mark.parametrize("text, canonical", [
    ("5h", "5H"), ("10 d", "10D"), ("TD", "10D"), ("td", "10D"), ("5♥", "5H"), ("♣a", "AC"),
    ("as de picas", "AS"), ("as", "AS"), ("tres de tréboles", "3C"), ("tres de treboles", "3C"),
    ("jota de corazones", "JH"), ("sota de corazones", "JH"), ("queen of spades", "QS"),
    ("reina de picas", "QS"), ("ten of hearts", "10H"), ("diez de corazones", "10H"),
    ("ace of clubs", "AC"), ("  7  s ", "7S"), ("2 ♤", "2S"), ("nine of diamonds", "9D"),
])
def test_parse_prints_the_canonical_form(text, canonical):
    assert str(Card.parse(text)) == canonical


@pytest.mark.parametrize("text", ["", "1h", "11h", "kx", "king", "of", "ks kd", "5 of", "♥",
                                  "joker", 5, None])
def test_unparseable_text_is_rejected(text):
    with pytest.raises(CardParseError):
        Card.parse(text)


def test_deck_indexes_and_values():
    assert len(set(DECK)) == 52
    assert [card.index for card in DECK] == list(range(52))
    assert DECK[17] == Card.parse("5H")
    assert [Card.parse(t).value for t in ("AS", "9S", "10S", "JS", "QS", "KS")] == [1, 9, 10, 10, 10, 10]
    assert repr(Card.parse("10d")) == "Card.parse('10D')"
    assert eval(repr(Card.parse("qh"))) == Card.parse("QH")


def test_cards_sort_by_rank_then_suit_letter():
    ordered = sorted(DECK)
    assert [card.text for card in ordered[:5]] == ["AC", "AD", "AH", "AS", "2C"]
    assert ordered == sorted(DECK, key=lambda card: (card.rank, card.suit))
    assert len(set(ordered)) == 52


def test_parse_cards_names_the_offending_item():
    with pytest.raises(CardParseError) as bad:
        parse_cards(["5h", "zz", "6h"], field="hand")
    assert bad.value.index == 1 and str(bad.value) == "hand[1]: not a card: 'zz'"
    with pytest.raises(DuplicateCardError) as duplicate:
        parse_cards(["5h", "6h", "5♥"], field="hand")
    assert duplicate.value.index == 2 and str(duplicate.value) == "hand[2]: 5H appears twice"
    assert parse_cards(["5h", "KD"]) == (Card(5, "H"), Card(13, "D"))


def test_a_bare_rank_names_the_only_held_card_of_that_rank():
    hand = parse_cards(["2H", "4D", "5C", "6H", "JC", "KD"])
    assert resolve_card("k", hand, "card") == Card(13, "D")
    assert resolve_card("rey", hand, "card") == Card(13, "D")
    assert resolve_card("as", parse_cards(["AH", "4D"]), "card") == Card(1, "H")
    assert resolve_card("as", parse_cards(["AS", "AH"]), "card") == Card(1, "S")
    with pytest.raises(CardNotHeldError):
        resolve_card("3", hand, "card")
    with pytest.raises(AmbiguousCardError) as ambiguous:
        resolve_card("a", parse_cards(["AS", "AH"]), "card")
    assert ambiguous.value.code == "ambiguous_card"
    with pytest.raises(CardNotHeldError):
        resolve_card("qs", hand, "card")
    assert resolve_card("QS", hand, "card") == Card(12, "S")  # the canonical form, held or not
    with pytest.raises(CardParseError):
        resolve_card("xyz", hand, "card")
