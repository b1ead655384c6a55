"""The engine's GameState as JSON, the form the store keeps it in."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any

from service.cards import DECK
from service.engine import GameOptions, GameState
from service.engine.state import build_state
from service.errors import InvalidInputError

_BY_TEXT = {card.text: card for card in DECK}


def state_to_dict(state: GameState) -> dict:
    return {name: encode(getattr(state, name)) for name, (encode, _) in _CODECS.items()}


def state_from_dict(data: dict) -> GameState:
    try:
        values = {name: decode(data[name]) if name in data or name not in _ADDED
                  else _ADDED[name] for name, (_, decode) in _CODECS.items()}
    except (KeyError, TypeError, ValueError) as error:
        raise InvalidInputError(f"not a game state: {error!r}", code="invalid_state") from None
    return build_state(values)


def _ident(value):
    return value


def _cards_out(cards):
    return [str(card) for card in cards]


def _cards_in(texts):
    return tuple(_BY_TEXT[text] for text in texts)


def _card_out(card):
    return None if card is None else str(card)


def _card_in(text):
    return None if text is None else _BY_TEXT[text]


def _tuple_in(value):
    return tuple(value)


# How each field of a GameState is written to JSON and read back from it.
Codec = tuple[Callable[[Any], Any], Callable[[Any], Any]]

_PER_SEAT_CARDS: Codec = (lambda hands: [_cards_out(h) for h in hands],
                   lambda v: tuple(map(_cards_in, v)))

_CODECS: dict[str, Codec] = {
    "options": (lambda o: o.to_dict(), GameOptions.from_dict),
    "seed": (bytes.hex, bytes.fromhex),
    "version": (_ident, int),
    "phase": (_ident, str),
    "game_number": (_ident, int),
    "hand_number": (_ident, int),
    "dealer": (_ident, _ident),
    "first_dealer": (_ident, _ident),
    "scores": (list, _tuple_in),
    "match_points": (list, _tuple_in),
    "hands": _PER_SEAT_CARDS,
    "kept": _PER_SEAT_CARDS,
    "discards": _PER_SEAT_CARDS,
    "discarded": (list, _tuple_in),
    "crib": (_cards_out, _cards_in),
    "deck": (_cards_out, _cards_in),
    "starter": (_card_out, _card_in),
    "count": (_ident, int),
    "pile": (_cards_out, _cards_in),
    "table": (lambda t: [[seat, str(card)] for seat, card in t],
              lambda v: tuple((seat, _BY_TEXT[text]) for seat, text in v)),
    "turn": (_ident, _ident),
    "gone": (list, _tuple_in),
    "last_player": (_ident, _ident),
    "show_step": (_ident, int),
    "deadline": (_ident, _ident),
    "turn_deadline": (_ident, _ident),
    "pending_muggins": (list, _tuple_in),
    "winner": (_ident, _ident),
    "results": (list, _tuple_in),
    "cut_round": (_ident, int),
    "cut_deck": (_cards_out, _cards_in),
    "cut_cards": (lambda cards: [_card_out(c) for c in cards],
                  lambda v: tuple(_card_in(t) for t in v)),
    "cutters": (list, _tuple_in),
    "log": (list, _tuple_in),
    "revealed_seeds": (lambda seeds: [list(s) for s in seeds],
                       lambda v: tuple((number, seed) for number, seed in v)),
    "ending": (_ident, _ident),
}
# Fields added after games were stored: a stored state without them takes the default.
_ADDED = {"turn_deadline": None, "ending": None}
assert set(_CODECS) == {field.name for field in fields(GameState)}
