"""Cards: one value type that parses every accepted notation and prints the canonical form."""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Iterable

from service.errors import InvalidInputError

SUITS = "SHDC"  # the deck's order; cards sort by rank, then by suit letter (C, D, H, S)
RANK_NAMES = {1: "A", 10: "10", 11: "J", 12: "Q", 13: "K"}

_RANK_WORDS = {
    "a": 1, "ace": 1, "as": 1,
    "2": 2, "two": 2, "dos": 2,
    "3": 3, "three": 3, "tres": 3,
    "4": 4, "four": 4, "cuatro": 4,
    "5": 5, "five": 5, "cinco": 5,
    "6": 6, "six": 6, "seis": 6,
    "7": 7, "seven": 7, "siete": 7,
    "8": 8, "eight": 8, "ocho": 8,
    "9": 9, "nine": 9, "nueve": 9,
    "10": 10, "t": 10, "ten": 10, "diez": 10,
    "j": 11, "jack": 11, "jota": 11, "sota": 11,
    "q": 12, "queen": 12, "reina": 12,
    "k": 13, "king": 13, "rey": 13,
}
_SUIT_WORDS = {
    "s": "S", "spade": "S", "spades": "S", "pica": "S", "picas": "S", "♠": "S", "♤": "S",
    "h": "H", "heart": "H", "hearts": "H", "corazon": "H", "corazones": "H", "♥": "H", "♡": "H",
    "d": "D", "diamond": "D", "diamonds": "D", "diamante": "D", "diamantes": "D", "♦": "D", "♢": "D",
    "c": "C", "club": "C", "clubs": "C", "trebol": "C", "treboles": "C", "♣": "C", "♧": "C",
}
_FILLER_WORDS = {"of", "de"}
# Rank and suit tokens short enough to be written together without a space ("10d", "kh", "♥5").
_SHORT_RANKS = [token for token in _RANK_WORDS if len(token) <= 2 and token != "as"]
_SHORT_SUITS = [token for token in _SUIT_WORDS if len(token) == 1]
_SUIT_SYMBOLS = "♠♤♥♡♦♢♣♧"


# The notations as regular expressions, in the syntax ECMA 262 and Python share: the OpenAPI
# document states them, and the parsers refuse any text they do not match. Words in any case,
# Spanish words with or without their accent (corazón, trébol), spaces or tabs around and between
# the words, at most one filler word, a suit symbol with or without spaces.
_ACCENTED = {"corazon": "corazón", "trebol": "trébol", "treboles": "tréboles"}


def _any_case(word: str) -> str:
    classes = []
    for plain, accented in zip(word, _ACCENTED.get(word, word)):
        if plain.isalpha():
            letters = dict.fromkeys(plain + accented + plain.upper() + accented.upper())
            classes.append(f"[{''.join(letters)}]")
        else:
            classes.append(re.escape(plain))
    return "".join(classes)


def _either(words) -> str:
    return "(?:" + "|".join(_any_case(word) for word in sorted(words)) + ")"


_SPACE = r"[ \t]"
_RANK = _either(_RANK_WORDS)
_SUIT = _either(word for word in _SUIT_WORDS if word.isalpha())
_SYMBOL = f"[{_SUIT_SYMBOLS}]"
_FILLER = _either(_FILLER_WORDS)
_BETWEEN_WORDS = f"{_SPACE}+(?:{_FILLER}{_SPACE}+)?"


def _card(rank_alone: bool) -> str:
    """A card (5h, h5, 5♥, king of diamonds, diamonds king, k ♦, ♦ k), or also a rank alone."""
    suit_after = f"{_BETWEEN_WORDS}{_SUIT}|(?:{_SPACE}+{_FILLER})?{_SPACE}*{_SYMBOL}"
    suit_before = f"{_SUIT}{_BETWEEN_WORDS}|{_SYMBOL}{_SPACE}*(?:{_FILLER}{_SPACE}+)?"
    short_rank, short_suit = _either(_SHORT_RANKS), _either(_SHORT_SUITS)
    return (f"^{_SPACE}*(?:{short_rank}{short_suit}|{short_suit}{short_rank}"
            f"|{_RANK}(?:{suit_after}){'?' if rank_alone else ''}|(?:{suit_before}){_RANK})"
            f"{_SPACE}*$")


CARD_PATTERN = _card(rank_alone=False)  # what Card.parse accepts
HELD_CARD_PATTERN = _card(rank_alone=True)  # what resolve_card may accept: also a rank alone
RANK_PATTERN = f"^{_SPACE}*{_RANK}{_SPACE}*$"  # what parse_rank accepts
CANONICAL_PATTERN = "^(?:A|[2-9]|10|J|Q|K)[SHDC]$"  # what Card.text prints
_CARD_TEXT = re.compile(CARD_PATTERN)
_RANK_TEXT = re.compile(RANK_PATTERN)


class CardError(InvalidInputError):
    """A card, or a list of cards, that cannot be accepted."""

    code = "invalid_card"


class CardParseError(CardError):
    code = "unknown_card"


class DuplicateCardError(CardError):
    code = "duplicate_card"


class CardNotHeldError(CardError):
    code = "card_not_held"


class AmbiguousCardError(CardError):
    """A bare rank (`5`, `cinco`) while more than one card of that rank is held."""

    code = "ambiguous_card"


@dataclass(frozen=True, order=True, slots=True)
class Card:
    rank: int
    suit: str
    # The canonical form ("5H", "10D", "JS", "AC"), made once: every response prints cards.
    text: str = field(init=False, repr=False, compare=False)
    # The card's place 0..51 in suit-major order (service.scoring.fast), made once too.
    index: int = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        if not 1 <= self.rank <= 13 or self.suit not in SUITS or len(self.suit) != 1:
            raise CardParseError(f"no such card: rank {self.rank!r}, suit {self.suit!r}",
                                 text=f"{self.rank}{self.suit}")
        object.__setattr__(self, "text", RANK_NAMES.get(self.rank, str(self.rank)) + self.suit)
        object.__setattr__(self, "index", SUITS.index(self.suit) * 13 + self.rank - 1)

    @property
    def value(self) -> int:
        """The count value: ace 1, pip cards their number, court cards 10."""
        return min(self.rank, 10)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse any notation of RULES.md: `5h`, `10 d`, `TD`, `5♥`, `king of diamonds`, `rey de diamantes`."""
        if not isinstance(text, str):
            raise CardParseError(f"not a card: {text!r}", text=repr(text))
        card = _COMPACT.get(text)
        if card is not None:
            return card
        if not _CARD_TEXT.fullmatch(text):
            raise CardParseError(f"not a card: {text!r}", text=text)
        rank, suit = _split_rank_and_suit(text)
        if rank is None or suit is None:
            raise CardParseError(f"not a card: {text!r}", text=text)
        return _CARDS[(rank, suit)]

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __reduce__(self):
        # A compute job carries dozens of cards: pickled as their place in the deck they load
        # as a lookup, not by the slotted dataclass's field-by-field copy, which made up nine
        # tenths of pickling a game (0.6 ms of a web worker's CPU per computer reply).
        return _card_at, (self.index,)


DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in SUITS for rank in range(1, 14))
_CARDS = {(card.rank, card.suit): card for card in DECK}


def _card_at(index: int) -> Card:
    return DECK[index]


# The compact notations most clients send ("5H", "5h", "10d", "TD"), found without parsing.
_COMPACT = {text: card for card in DECK
            for rank in ({card.text[:-1], "T"} if card.rank == 10 else {card.text[:-1]})
            for text in (rank + card.suit, rank.lower() + card.suit.lower(),
                         rank + card.suit.lower(), rank.lower() + card.suit)}


def _normalise(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.strip().lower())
    without_accents = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    for symbol in _SUIT_SYMBOLS:
        without_accents = without_accents.replace(symbol, f" {symbol} ")
    return without_accents


def _split_rank_and_suit(text: str) -> tuple[int | None, str | None]:
    tokens = [token for token in _normalise(text).split() if token not in _FILLER_WORDS]
    if len(tokens) == 1:
        return _split_compact(tokens[0])
    if len(tokens) == 2:
        first, second = tokens
        if first in _RANK_WORDS and second in _SUIT_WORDS:
            return _RANK_WORDS[first], _SUIT_WORDS[second]
        if first in _SUIT_WORDS and second in _RANK_WORDS:
            return _RANK_WORDS[second], _SUIT_WORDS[first]
    return None, None


def _split_compact(token: str) -> tuple[int | None, str | None]:
    for rank in _SHORT_RANKS:
        for suit in _SHORT_SUITS:
            if token in (rank + suit, suit + rank):
                return _RANK_WORDS[rank], _SUIT_WORDS[suit]
    return None, None


def parse_rank(text: str) -> int | None:
    """The rank named by `text` alone (`k`, `king`, `rey`, `10`), or None."""
    if not isinstance(text, str) or not _RANK_TEXT.fullmatch(text):
        return None
    return _RANK_WORDS.get(_normalise(text).strip())


def parse_cards(texts: Iterable, field: str = "cards") -> tuple[Card, ...]:
    """Cards from their texts, refusing unknown and repeated cards: CardParseError or
    DuplicateCardError, whose `field` and `index` name the item."""
    cards: list[Card] = []
    for index, text in enumerate(texts):
        card = parse_card(text, field, index)
        if card in cards:
            raise DuplicateCardError(f"{field}[{index}]: {card} appears twice", field=field,
                                     index=index, card=card.text)
        cards.append(card)
    return tuple(cards)


def parse_card(text, field: str, index: int | None = None) -> Card:
    """`Card.parse`, with the field (and index) of the text in a CardParseError."""
    try:
        return Card.parse(text)
    except CardParseError as error:
        where = field if index is None else f"{field}[{index}]"
        raise CardParseError(f"{where}: {error}", field=field, index=index,
                             **error.params) from None


def compact_card(text) -> Card | None:
    """The card a compact text ("5H", "5h", "10d", "TD") names, or None: a lookup, no parsing."""
    return _COMPACT.get(text) if isinstance(text, str) else None


def resolve_card(text: str, holding: Iterable[Card], field: str,
                 index: int | None = None) -> Card:
    """The card a player holding `holding` means by `text`.

    A card in the canonical form ("AS") is that very card, held or not. Another notation is the
    card it names if that card is held; else a rank alone (`k`, `rey`, and `as`, Spanish for
    ace) names the one held card of that rank. Raises CardParseError for no card or rank,
    AmbiguousCardError for a rank held more than once, CardNotHeldError for a card or rank not
    held.
    """
    holding = tuple(holding)
    card = compact_card(text)
    if card is not None and text == card.text:
        return card
    try:
        card = Card.parse(text)
    except CardParseError:
        card = None
    if card in holding:
        return card
    rank = parse_rank(text)
    same_rank = [held for held in holding if held.rank == rank]
    if rank is not None and len(same_rank) == 1:
        return same_rank[0]
    where = field if index is None else f"{field}[{index}]"
    if same_rank:
        raise AmbiguousCardError(f"{where}: {text!r} names more than one held card",
                                 field=field, index=index, text=text,
                                 cards=" ".join(held.text for held in same_rank))
    if card is None and rank is None:
        raise CardParseError(f"{where}: not a card: {text!r}", field=field, index=index,
                             text=str(text))
    raise CardNotHeldError(f"{where}: {text} is not held", field=field, index=index,
                           card=card.text if card is not None else str(text))
