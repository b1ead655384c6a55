"""Redaction: the one place that decides what a seat (or a spectator, seat None) may see."""
from __future__ import annotations

from service.engine.events import Event
from service.engine.legal import to_act
from service.engine.state import GameState


def _cards(cards) -> list[str]:
    return [str(card) for card in cards]


def view(state: GameState, seat: int | None) -> dict:
    """Everything `seat` may know, JSON-ready. Never: other hands, other seats' discards, the crib
    before it is shown, the undealt deck, the game seed or an unrevealed hand seed."""
    options = state.options
    n = options.players
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < n):
        seat = None
    claimer = state.claimer()
    crib_shown = _crib_shown(state)
    return {
        "version": state.version,
        "phase": state.phase,
        "options": options.to_dict(),
        "seat": seat,
        "game_number": state.game_number,
        "hand_number": state.hand_number,
        "dealer": state.dealer,
        "pone": state.pone,
        "crib_owner": state.dealer,
        "starter_cutter": state.starter_cutter,
        "sides": [list(options.seats_of(side)) for side in range(options.sides)],
        "side_of_seat": [options.side_of(s) for s in range(n)],
        "scores": list(state.scores),
        "match_points": list(state.match_points),
        "count": state.count,
        "pile": _cards(state.pile),
        "table": [{"seat": s, "card": str(card)} for s, card in state.table],
        "starter": None if state.starter is None else str(state.starter),
        "turn": state.turn,
        "to_act": to_act(state),
        "legal_actions": [] if seat is None else state.legal_actions(seat),
        "deadline": state.deadline,
        "counting": None if claimer is None else {"seat": claimer[0],
                                                  "hand": "crib" if claimer[1] else "hand"},
        "hand": None if seat is None else _cards(state.hands[seat]),
        "kept": None if seat is None else _cards(state.kept[seat]),
        "discards": None if seat is None else _cards(state.discards[seat]),
        "hand_sizes": [len(hand) for hand in state.hands],
        "crib_size": len(state.crib),
        "crib": _cards(state.crib) if crib_shown else None,
        "shown_hands": _shown_hands(state),
        "cut_for_deal": _cut_view(state),
        "pending_muggins": [dict(p) for p in state.pending_muggins],
        "winner": state.winner,
        "results": [dict(r) for r in state.results],
        "seed_commitment": state.seed_commitment,
        "revealed_seeds": [{"hand_number": number, "seed": seed}
                           for number, seed in state.revealed_seeds],
        "history": [dict(entry) for entry in state.log],
    }


def _crib_shown(state: GameState) -> bool:
    """The crib is turned up when its count begins (manual counting) or once it is scored."""
    claimer = state.claimer()
    if claimer is not None and claimer[1]:
        return True
    return any(entry["type"] in ("show_scored", "claim", "count_timeout")
               and entry.get("hand") == "crib" for entry in state.log)


def _shown_hands(state: GameState) -> list[dict]:
    """Hands already counted in this hand's show (public from then on)."""
    return [{"seat": entry["seat"], "hand": entry["hand"], "cards": entry["cards"]}
            for entry in state.log if entry["type"] in ("show_scored", "claim", "count_timeout")]


def _cut_view(state: GameState) -> dict | None:
    if state.phase != "cut_for_deal":
        return None
    return {"round": state.cut_round, "seats": list(state.cutters),
            "cards": [None if card is None else str(card) for card in state.cut_cards],
            "deck_size": len(state.cut_deck)}


def view_event(event: Event, seat: int | None) -> dict:
    """The event as `seat` sees it: the public part plus that seat's private part."""
    data = {"type": event.type, **event.public}
    if seat is not None and seat in event.private:
        data.update(event.private[seat])
    return data
