"""Helpers for engine tests: stacked decks, applying a script of actions, card accounting."""
from __future__ import annotations

from service.cards import DECK, Card
from service.engine import apply
from service.engine.rules import hand_size


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(word) for word in text.split())


def stacked_deck(players: int, dealer: int, hands: dict[int, str], *, crib_card: str = "",
                 starter: str, depth: int = 4) -> tuple[Card, ...]:
    """A 52-card deck that deals `hands` (seat -> the cards that seat is dealt) by `dealer`, puts
    `crib_card` (3 players) into the crib and `starter` where a cut at `depth` finds it."""
    dealt = {seat: list(cards(text)) for seat, text in hands.items()}
    order = []
    sizes = [hand_size(players, seat == dealer) for seat in range(players)]
    for round_ in range(max(sizes)):
        for k in range(1, players + 1):
            seat = (dealer + k) % players
            if round_ < sizes[seat]:
                order.append(dealt[seat][round_])
    order += cards(crib_card)
    starter_card = Card.parse(starter)
    rest = [card for card in DECK if card not in order and card != starter_card]
    rest.insert(depth, starter_card)
    deck = tuple(order + rest)
    assert len(set(deck)) == 52
    return deck


def run(state, actions, now: float = 0.0):
    """Apply actions in order; returns the final state and all events."""
    events = []
    for action in actions:
        state, produced = apply(state, action, now)
        events += produced
    return state, events


def all_cards(state) -> list[Card]:
    """Every card the state holds, wherever it is."""
    held = [card for hand in state.hands for card in hand]
    played = [card for _, card in state.table]
    cut = [card for card in state.cut_cards if card is not None]
    starter = [state.starter] if state.starter is not None else []
    return (held + played + list(state.crib) + list(state.deck) + starter
            + list(state.cut_deck) + cut)


def of_type(events, *types):
    return [event for event in events if event.type in types]
