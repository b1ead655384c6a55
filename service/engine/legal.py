"""Who may act now and what each seat may do: the answers views and computers rely on."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Union, cast

from service.cards import Card
from service.engine.rules import MIN_PACKET, discard_count, playable
from service.engine.state import GameState


@dataclass(frozen=True)
class LegalCut:
    """Cut the deck (`type` cut_for_deal or cut_starter), lifting min_depth..max_depth cards."""

    type: str
    min_depth: int
    max_depth: int


@dataclass(frozen=True)
class LegalDiscard:
    count: int
    cards: tuple[Card, ...]
    type: ClassVar[str] = "discard"


@dataclass(frozen=True)
class LegalPlay:
    cards: tuple[Card, ...]  # the cards that fit the count
    count: int = 1  # how many of `cards` to choose: the shape of a discard's legal action
    type: ClassVar[str] = "play"


@dataclass(frozen=True)
class LegalClaim:
    """Count the hand (or crib) being shown."""

    hand: str  # "hand" or "crib"
    cards: tuple[Card, ...]
    starter: Card
    type: ClassVar[str] = "claim"


@dataclass(frozen=True)
class LegalMuggins:
    points: int  # the missed points a call takes
    type: ClassVar[str] = "muggins"


@dataclass(frozen=True)
class LegalMatchDecision:
    """Between the games of a match: `type` next_game or end_match."""

    type: str


LegalAction = Union[LegalCut, LegalDiscard, LegalPlay, LegalClaim, LegalMuggins,
                    LegalMatchDecision]


def claimer_seat(state: GameState) -> int | None:
    """Manual counting: the seat whose hand (or crib) is being counted now."""
    claimer = state.claimer()
    return None if claimer is None else claimer[0]


def muggins_callers(state: GameState) -> list[int]:
    sides = {pending["side"] for pending in state.pending_muggins}
    return [seat for seat in range(state.options.players)
            if sides - {state.options.side_of(seat)}]


def whose_turn(state: GameState) -> list[int]:
    """Seats whose turn it is: those that may take the phase's own action (cut, discard, play,
    claim, next game). Calling muggins is not bound to a turn (see muggins_callers)."""
    phase = state.phase
    if phase == "cut_for_deal":
        return [seat for seat in state.cutters if state.cut_cards[seat] is None]
    if phase == "discard":
        return [seat for seat, done in enumerate(state.discarded) if not done]
    if phase == "cut_starter":
        return [cast(int, state.starter_cutter)]
    if phase == "play":
        return [cast(int, state.turn)]
    if phase == "show":
        return [cast(int, claimer_seat(state))]
    if phase == "game_over" and state.options.match:
        return list(range(state.options.players))
    return []


def to_act(state: GameState) -> list[int]:
    """Seats that may act now: whose turn it is, and those that may call muggins (resigning,
    always allowed in a live game, does not count)."""
    seats = whose_turn(state)
    if state.pending_muggins:
        seats = sorted(set(seats) | set(muggins_callers(state)))
    return seats


def legal_actions(state: GameState, seat: int) -> list[LegalAction]:
    """The actions `seat` may take now (resign, always allowed, is not listed)."""
    actions = _turn_actions(state, seat) if seat in whose_turn(state) else []
    if seat in muggins_callers(state):
        side = state.options.side_of(seat)
        points = sum(p["points"] for p in state.pending_muggins if p["side"] != side)
        actions.append(LegalMuggins(points))
    return actions


def _turn_actions(state: GameState, seat: int) -> list[LegalAction]:
    """What the phase lets `seat`, whose turn it is, do."""
    phase = state.phase
    if phase == "cut_for_deal":
        return [LegalCut("cut_for_deal", MIN_PACKET, len(state.cut_deck) - MIN_PACKET)]
    if phase == "discard":
        return [LegalDiscard(discard_count(state.options.players, seat == state.dealer),
                             state.hands[seat])]
    if phase == "cut_starter":
        return [LegalCut("cut_starter", MIN_PACKET, len(state.deck) - MIN_PACKET)]
    if phase == "play":
        return [LegalPlay(tuple(playable(state.hands[seat], state.count)))]
    if phase == "show":
        _, is_crib = state.counting()
        cards = state.crib if is_crib else state.kept[seat]
        return [LegalClaim("crib" if is_crib else "hand", cards, cast(Card, state.starter))]
    return [LegalMatchDecision("next_game"), LegalMatchDecision("end_match")]  # game_over
