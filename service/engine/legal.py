"""Who may act now and what each seat may do: the answers views and bots rely on."""
from __future__ import annotations

from service.engine.deal import MIN_PACKET, discard_count
from service.engine.play import playable


def muggins_callers(state) -> list[int]:
    sides = {pending["side"] for pending in state.pending_muggins}
    return [seat for seat in range(state.options.players)
            if sides - {state.options.side_of(seat)}]


def to_act(state) -> list[int]:
    """Seats that may act now (resigning, always allowed in a live game, does not count)."""
    phase = state.phase
    if phase == "cut_for_deal":
        return [seat for seat in state.cutters if state.cut_cards[seat] is None]
    if phase == "discard":
        seats = [seat for seat, done in enumerate(state.discarded) if not done]
    elif phase == "cut_starter":
        seats = [state.starter_cutter]
    elif phase == "play":
        seats = [state.turn]
    elif phase == "show":
        seats = [state.claimer()[0]]
    elif phase == "game_over" and state.options.match:
        return list(range(state.options.players))
    else:
        return []
    if state.pending_muggins:
        seats = sorted(set(seats) | set(muggins_callers(state)))
    return seats


def legal_actions(state, seat: int) -> list[dict]:
    """The actions `seat` may take now, as dicts a client can fill in (resign is not listed)."""
    if seat not in to_act(state):
        return []
    phase = state.phase
    actions = []
    if phase == "cut_for_deal":
        actions.append({"type": "cut_for_deal", "min_depth": MIN_PACKET,
                        "max_depth": len(state.cut_deck) - MIN_PACKET})
    elif phase == "discard" and not state.discarded[seat]:
        actions.append({"type": "discard",
                        "count": discard_count(state.options.players, seat == state.dealer),
                        "cards": [str(card) for card in state.hands[seat]]})
    elif phase == "cut_starter":
        actions.append({"type": "cut_starter", "min_depth": MIN_PACKET,
                        "max_depth": len(state.deck) - MIN_PACKET})
    elif phase == "play":
        actions.append({"type": "play",
                        "cards": [str(card) for card in playable(state.hands[seat], state.count)]})
    elif phase == "show" and state.claimer()[0] == seat:
        claimer, is_crib = state.claimer()
        cards = state.crib if is_crib else state.kept[claimer]
        actions.append({"type": "claim", "hand": "crib" if is_crib else "hand",
                        "cards": [str(card) for card in cards], "starter": str(state.starter)})
    elif phase == "game_over":
        actions += [{"type": "next_game"}, {"type": "end_match"}]
    if seat in muggins_callers(state):
        side = state.options.side_of(seat)
        points = sum(p["points"] for p in state.pending_muggins if p["side"] != side)
        actions.append({"type": "muggins", "points": points})
    return actions
