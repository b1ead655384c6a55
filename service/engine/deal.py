"""Before the play: cutting for the first deal, the deal, discards to the crib, the starter."""
from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from service.cards import Card
from service.errors import IllegalActionError, InvalidInputError
from service.engine.outcome import award, game_won
from service.engine.rules import MIN_PACKET, discard_count, hand_size
from service.engine.shuffle import (commitment, cut_seed, hand_seed, random_depth,
                                    shuffled_deck)
from service.engine.state import Draft

def cut_depth(depth: int | None, deck_size: int, seed: bytes, label: bytes) -> int:
    """The depth a cut is made at: the one asked for (checked) or one drawn from the seed."""
    high = deck_size - MIN_PACKET
    if depth is None:
        return random_depth(seed, label, MIN_PACKET, high)
    if not MIN_PACKET <= depth <= high:
        raise IllegalActionError(f"depth must be {MIN_PACKET}..{high}", code="invalid_cut_depth",
                                 field="depth", min=MIN_PACKET, max=high, depth=depth)
    return depth


# Cutting for the first deal ------------------------------------------------------------------
def start_cut_round(g: Draft, seats: Sequence[int]) -> None:
    g.cut_round += 1
    g.cut_deck = shuffled_deck(cut_seed(g.seed, g.cut_round))
    g.cut_cards = (None,) * g.options.players
    g.cutters = tuple(seats)
    g.emit("cut_round", {"round": g.cut_round, "seats": list(seats),
                         "seed_commitment": commitment(cut_seed(g.seed, g.cut_round))})


def cut_for_deal(g: Draft, seat: int, depth: int | None) -> None:
    """Each cutter takes the top card of the lower packet out of the deck being cut; when all
    have cut, the lowest rank deals, and only players tied for lowest cut again (new shuffle)."""
    seed = cut_seed(g.seed, g.cut_round)
    depth = cut_depth(depth, len(g.cut_deck), seed, b"seat" + bytes([seat]))
    card = g.cut_deck[depth]
    g.cut_deck = g.cut_deck[:depth] + g.cut_deck[depth + 1:]
    g.set_at("cut_cards", seat, card)
    g.emit("dealer_cut", {"seat": seat, "depth": depth, "card": str(card)})
    if any(g.cut_cards[s] is None for s in g.cutters):
        return
    ranks = {s: cast(Card, g.cut_cards[s]).rank for s in g.cutters}  # every cutter has cut
    lowest = min(ranks.values())
    tied = [s for s in g.cutters if ranks[s] == lowest]
    g.emit("cut_result", {"round": g.cut_round, "seed": seed.hex(),
                          "cards": [None if c is None else str(c) for c in g.cut_cards],
                          "dealer": tied[0] if len(tied) == 1 else None,
                          "tied": tied if len(tied) > 1 else []})
    if len(tied) > 1:
        start_cut_round(g, tied)
        return
    g.first_dealer = tied[0]
    deal(g, tied[0])


# The deal ------------------------------------------------------------------------------------
def deal(g: Draft, dealer: int, deck: Sequence[Card] | None = None) -> None:
    """Deal the next hand with `dealer`, from the hand seed's shuffle (or `deck`, for tests).

    One card at a time clockwise from the dealer's left; with 5 or 6 players the dealer gets one
    card fewer; with 3 players the next card goes to the crib.
    """
    n = g.options.players
    g.hand_number += 1
    if deck is None:
        deck = shuffled_deck(hand_seed(g.seed, g.hand_number))
    deck = tuple(deck)
    sizes = [hand_size(n, seat == dealer) for seat in range(n)]
    hands: list[list[Card]] = [[] for _ in range(n)]
    position = 0
    for round_ in range(max(sizes)):
        for k in range(1, n + 1):
            seat = (dealer + k) % n
            if round_ < sizes[seat]:
                hands[seat].append(deck[position])
                position += 1
    crib = deck[position:position + 1] if n == 3 else ()
    position += len(crib)
    g.cut_deck, g.cut_cards, g.cutters = (), (), ()
    g.phase = "discard"
    g.dealer = dealer
    g.hands = tuple(tuple(hand) for hand in hands)
    g.kept = tuple(g.hands[seat] if discard_count(n, seat == dealer) == 0 else ()
                   for seat in range(n))
    g.discards = ((),) * n
    g.discarded = tuple(discard_count(n, seat == dealer) == 0 for seat in range(n))
    g.crib = crib
    g.deck = deck[position:]
    g.starter = None
    g.count, g.pile, g.table, g.turn, g.last_player = 0, (), (), None, None
    g.gone = (False,) * n
    g.show_step = 0
    g.deadline = None
    g.log = ()
    g.emit("dealt", {"hand_number": g.hand_number, "dealer": dealer,
                     "pone": (dealer + 1) % n, "counts": sizes, "crib_from_deck": len(crib),
                     "seed_commitment": commitment(hand_seed(g.seed, g.hand_number))},
           {seat: {"cards": [str(card) for card in hands[seat]]} for seat in range(n)})


def close_muggins_window(g: Draft) -> None:
    if g.pending_muggins:
        g.emit("muggins_lapsed", {"points": sum(p["points"] for p in g.pending_muggins)})
        g.pending_muggins = ()


def discard(g: Draft, seat: int, cards: tuple[Card, ...]) -> None:
    n = g.options.players
    needed = discard_count(n, seat == g.dealer)
    if len(cards) != needed:
        raise IllegalActionError(f"discard {needed} card(s)", code="wrong_discard_count",
                                 field="cards", expected=needed, got=len(cards))
    hand = g.hands[seat]
    for index, card in enumerate(cards):
        if card in cards[:index]:
            raise InvalidInputError(f"{card} appears twice", code="duplicate_card",
                                    field="cards", index=index, card=card.text)
        if card not in hand:
            raise IllegalActionError(f"{card} is not in your hand", code="card_not_in_hand",
                                     field="cards", index=index, card=card.text)
    close_muggins_window(g)
    kept = tuple(card for card in hand if card not in cards)
    g.set_at("hands", seat, kept)
    g.set_at("kept", seat, kept)
    g.set_at("discards", seat, tuple(cards))
    g.set_at("discarded", seat, True)
    g.crib = g.crib + tuple(cards)
    g.emit("discarded", {"seat": seat, "count": len(cards)},
           {seat: {"cards": [str(card) for card in cards]}})
    if all(g.discarded):
        g.phase = "cut_starter"


def cut_starter(g: Draft, seat: int, depth: int | None) -> None:
    depth = cut_depth(depth, len(g.deck), hand_seed(g.seed, g.hand_number), b"starter")
    g.starter = g.deck[depth]
    g.deck = g.deck[:depth] + g.deck[depth + 1:]
    g.emit("starter_cut", {"seat": seat, "depth": depth, "starter": str(g.starter)})
    if g.starter.rank == 11:
        points = award(g, cast(int, g.dealer), 2)
        g.emit("heels", {"seat": g.dealer, "points": points, "scores": list(g.scores)})
        if game_won(g):
            return
    g.phase = "play"
    g.turn = (cast(int, g.dealer) + 1) % g.options.players
