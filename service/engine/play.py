"""The play (pegging): cards to the count, forced goes, go and 31, last card, the reset."""
from __future__ import annotations

from typing import cast

from service.cards import Card
from service.engine.events import items_data
from service.engine.outcome import award, game_won
from service.engine.rules import Handoff, playable
from service.engine.state import Draft
from service.errors import IllegalActionError
from service.scoring import score_pegging


def play(g: Draft, seat: int, card: Card) -> Handoff | None:
    """Lay `card` on the count; Handoff.SHOW once every card is played."""
    hand = g.hands[seat]
    if card not in hand:
        raise IllegalActionError(f"{card} is not in your hand", code="card_not_in_hand",
                                 field="card", card=card.text)
    if g.count + card.value > 31:
        raise IllegalActionError(f"{card} would take the count past 31",
                                 code="count_would_exceed_31", field="card", card=card.text,
                                 count=g.count)
    held = hand.index(card)
    g.set_at("hands", seat, hand[:held] + hand[held + 1:])
    g.pile = g.pile + (card,)
    g.table = g.table + ((seat, card),)
    g.count += card.value
    g.last_player = seat
    scored = score_pegging(g.pile)
    points = award(g, seat, scored.points)
    g.emit("card_played", {"seat": seat, "card": str(card), "count": g.count, "points": points,
                           "items": items_data(scored.items),
                           "scores": list(g.scores)})
    if game_won(g):
        return None
    return _advance(g)


def _advance(g: Draft) -> Handoff | None:
    """Find who plays next, recording forced goes; score go or last card and reset the count."""
    n, last = g.options.players, cast(int, g.last_player)  # a card was just played
    if not any(g.hands):
        if g.count != 31:
            points = award(g, last, 1)
            g.emit("last_card", {"seat": last, "points": points, "scores": list(g.scores)})
            if game_won(g):
                return None
        return Handoff.SHOW
    if g.count < 31:
        for k in range(1, n + 1):
            seat = (last + k) % n
            hand = g.hands[seat]
            if not hand:
                continue
            if playable(hand, g.count):
                g.turn = seat
                return None
            if seat != last and not g.gone[seat]:
                g.set_at("gone", seat, True)
                g.emit("go", {"seat": seat, "count": g.count})
    points = award(g, last, 1) if g.count < 31 else 0
    _reset(g, points)
    return None


def _reset(g: Draft, go_points: int) -> None:
    """Nobody can play: the count starts again from the next seat after the last player that
    still holds cards."""
    n, last = g.options.players, cast(int, g.last_player)
    leader = next((last + k) % n for k in range(1, n + 1) if g.hands[(last + k) % n])
    g.emit("count_reset", {"count": g.count, "seat": last, "points": go_points,
                           "leader": leader, "scores": list(g.scores)})
    if game_won(g):
        return
    g.count, g.pile, g.turn = 0, (), leader
    g.gone = (False,) * n
