import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.cards import (CARD_PATTERN, DECK, HELD_CARD_PATTERN, AmbiguousCardError, Card,
                           CardNotHeldError, CardParseError, DuplicateCardError, parse_cards,
                           parse_rank, resolve_card)

CARD_TEXT = re.compile(CARD_PATTERN)
HELD_CARD_TEXT = re.compile(HELD_CARD_PATTERN)

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


# The notation's patterns (stated in the OpenAPI document) ----------------------------------------
RANK_WORDS = {1: ["a", "ace", "as", "A", "Ace", "AS"], 2: ["2", "two", "dos", "Two"],
              3: ["3", "three", "tres"], 4: ["4", "four", "cuatro"], 5: ["5", "five", "cinco"],
              6: ["6", "six", "seis"], 7: ["7", "seven", "siete"], 8: ["8", "eight", "ocho"],
              9: ["9", "nine", "nueve"], 10: ["10", "t", "ten", "diez", "T", "TEN"],
              11: ["j", "jack", "jota", "sota", "J"], 12: ["q", "queen", "reina", "Q", "Reina"],
              13: ["k", "king", "rey", "K", "King", "REY"]}
SUIT_WORDS = {"S": ["s", "spade", "spades", "pica", "picas", "♠", "♤", "S", "Spades"],
              "H": ["h", "heart", "hearts", "corazon", "corazones", "corazón", "CORAZÓN", "♥", "♡"],
              "D": ["d", "diamond", "diamonds", "diamante", "diamantes", "♦", "♢", "D"],
              "C": ["c", "club", "clubs", "trebol", "treboles", "trébol", "tréboles", "Tréboles",
                    "♣", "♧"]}
SHORT_RANKS = {"a", "A", "t", "T", "j", "J", "q", "Q", "k", "K", "10",
               *(str(rank) for rank in range(2, 10))}


def spellings(card: Card):
    """Every way the parser reads `card`, bar the spaces and fillers each form may add."""
    for rank in RANK_WORDS[card.rank]:
        for suit in SUIT_WORDS[card.suit]:
            symbol = not suit.isalpha()
            yield from (f"{rank} {suit}", f"{suit} {rank}", f"  {rank} of {suit}\t",
                        f"{suit} de {rank}", f"{rank}\t\tDe  {suit}", f"{suit} OF {rank} ")
            if symbol or (rank in SHORT_RANKS and len(suit) == 1):
                yield from (rank + suit, suit + rank)
            if symbol:
                yield from (f"{rank} of{suit}", f"{suit}of {rank}")


@pytest.mark.parametrize("card", DECK, ids=str)
def test_every_spelling_of_every_card_matches_the_card_pattern(card):
    for text in spellings(card):
        assert Card.parse(text) == card, text
        assert CARD_TEXT.fullmatch(text), text
        assert HELD_CARD_TEXT.fullmatch(text), text


def test_a_rank_alone_matches_the_held_card_pattern_only():
    for words in RANK_WORDS.values():
        for text in words:
            assert HELD_CARD_TEXT.fullmatch(f" {text} ") and parse_rank(f" {text} "), text
            assert not CARD_TEXT.fullmatch(text) or Card.parse(text), text  # "as": ace of spades


@pytest.mark.parametrize("text", ["", " ", "5X", "1h", "11h", "king", "kingd", "kof♦", "ks kd",
                                  "5 of", "of 5 h", "king of of hearts", "♥♥", "joker", "５Ｈ",
                                  "co\u0301razon 5", "5\u00a0h", "5h\n", "k\u212a", "ass"])
def test_the_patterns_and_the_parser_refuse_the_same_texts(text):
    assert not CARD_TEXT.fullmatch(text)
    with pytest.raises(CardParseError):
        Card.parse(text)


# Fragments of card texts: texts that are cards, nearly cards, or no cards at all.
FRAGMENTS = st.sampled_from([
    *(word for words in RANK_WORDS.values() for word in words),
    *(word for words in SUIT_WORDS.values() for word in words),
    "of", "de", "Of", " ", "  ", "\t", "\n", "x", "1", "0", "é", "\u0301", "ﬁ", "as", "sa"])


@settings(max_examples=3000, deadline=None)
@given(st.lists(FRAGMENTS, min_size=1, max_size=5).map("".join))
def test_a_text_matches_the_card_pattern_exactly_when_it_names_a_card(text):
    try:
        Card.parse(text)
        parses = True
    except CardParseError:
        parses = False
    assert bool(CARD_TEXT.fullmatch(text)) == parses, text
    assert bool(HELD_CARD_TEXT.fullmatch(text)) == (parses or parse_rank(text) is not None), text


@settings(max_examples=500, deadline=None)
@given(st.from_regex(CARD_PATTERN, fullmatch=True))
def test_every_text_of_the_card_pattern_names_a_card(text):
    assert Card.parse(text) in DECK
