"""Card texts of a request turned into Cards, naming the field and index of any bad one."""
from __future__ import annotations

from typing import Sequence

from service.cards import DECK, Card, CardParseError, DuplicateCardError, parse_cards

# The compact notations most clients send ("5H", "5h", "10d", "TD"), looked up without parsing.
_COMPACT: dict[str, Card] = {}
for _card in DECK:
    _rank, _suit = str(_card)[:-1], _card.suit
    for _rank_text in ({_rank, "T"} if _card.rank == 10 else {_rank}):
        for _text in (_rank_text + _suit, _rank_text.lower() + _suit.lower(),
                      _rank_text + _suit.lower(), _rank_text.lower() + _suit):
            _COMPACT[_text] = _card


def card_texts(cards) -> list[str]:
    """The canonical texts of `cards` ("5H", "10D", ...)."""
    return [card.text for card in cards]


def parse_card(text: str, field: str, index: int | None = None) -> Card:
    """Raises CardParseError naming `field` (and `index`)."""
    card = _COMPACT.get(text)
    if card is not None:
        return card
    try:
        return Card.parse(text)
    except CardParseError:
        where = f"{field}[{index}]" if index is not None else field
        raise CardParseError(f"{where}: not a card: {text!r}", index=index, field=field,
                             text=text) from None


def parse_card_list(texts: Sequence[str], field: str) -> tuple[Card, ...]:
    """Raises CardParseError or DuplicateCardError naming the item."""
    cards = compact_cards(texts)
    if cards is None:  # a text not in a compact notation, or a card repeated
        cards = tuple([parse_card(text, field, index) for index, text in enumerate(texts)])
        if len(set(cards)) < len(cards):
            parse_cards(cards, field=field)  # raises, naming the repeated card
    return cards


def parse_show(hand_texts: Sequence[str], starter_text: str) -> tuple[tuple[Card, ...], Card]:
    """The hand and the starter of a show. Raises as `parse_card_list`, `parse_card` and
    `check_not_in` do, in that order."""
    hand = parse_card_list(hand_texts, "hand")
    starter = parse_card(starter_text, "starter")
    check_not_in(starter, hand, "starter")
    return hand, starter


def compact_cards(values: Sequence) -> tuple[Card, ...] | None:
    """The cards named by `values` if each is a text in a compact notation and no card repeats;
    otherwise None (never an error: the general path names what is wrong)."""
    try:
        cards = tuple(map(_COMPACT.get, values))
    except TypeError:  # a list or an object, which cannot be a key
        return None
    # The compact texts name the deck's own Card objects: a repeated card is the same object.
    if not all(cards) or len({*map(id, cards)}) < len(cards):
        return None
    return cards


def check_not_in(card: Card, others: Sequence[Card], field: str) -> None:
    """Raises DuplicateCardError when `card` (of `field`) is also among `others`."""
    if card in others:
        raise DuplicateCardError(f"{field}: {card} is also in the hand", field=field,
                                 card=str(card))
