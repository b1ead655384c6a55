"""Redaction: the one place that decides what a seat (or a spectator, seat None) may see."""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from service.cards import Card
from service.engine.events import Event
from service.engine.legal import LegalAction, legal_actions, to_act
from service.engine.options import GameOptions
from service.engine.outcome import can_abort
from service.engine.state import GameState

_COUNTED = ("show_scored", "claim", "count_timeout")  # the events that show a hand


class PlayedCard(NamedTuple):
    seat: int
    card: Card


class Counting(NamedTuple):
    """Manual counting: whose hand (or crib) is being counted."""

    seat: int
    hand: str  # "hand" or "crib"


class ShownHand(NamedTuple):
    seat: int
    hand: str
    cards: tuple[Card, ...]


class CutForDealView(NamedTuple):
    round: int
    seats: tuple[int, ...]
    cards: tuple[Card | None, ...]  # by seat: the card each has cut so far
    deck_size: int


class RevealedSeed(NamedTuple):
    hand_number: int
    seed: str  # hex


@dataclass(frozen=True)
class SeatView:
    """Everything a seat may know, as cards and numbers. Never: other hands, other seats'
    discards, the crib before it is shown, the undealt deck, the game seed before the game
    (or match) is over, or an unrevealed hand seed. For a spectator `seat`, `hand`, `kept`
    and `discards` are None."""

    version: int
    phase: str
    options: GameOptions
    seat: int | None
    game_number: int
    hand_number: int
    dealer: int | None
    pone: int | None
    crib_owner: int | None
    starter_cutter: int | None
    sides: tuple[tuple[int, ...], ...]
    side_of_seat: tuple[int, ...]
    scores: tuple[int, ...]
    match_points: tuple[int, ...]
    count: int
    pile: tuple[Card, ...]
    table: tuple[PlayedCard, ...]
    starter: Card | None
    turn: int | None
    to_act: tuple[int, ...]
    legal_actions: tuple[LegalAction, ...]
    deadline: float | None
    turn_deadline: float | None  # turn timer: when the seats to act run out of time (public)
    can_abort: bool              # the game may still be aborted (before its first card)
    counting: Counting | None
    hand: tuple[Card, ...] | None
    kept: tuple[Card, ...] | None
    discards: tuple[Card, ...] | None
    hand_sizes: tuple[int, ...]
    crib_size: int
    crib: tuple[Card, ...] | None
    shown_hands: tuple[ShownHand, ...]
    cut_for_deal: CutForDealView | None
    pending_muggins: tuple[dict, ...]
    winner: int | None
    results: tuple[dict, ...]
    seed_commitment: str | None
    revealed_seeds: tuple[RevealedSeed, ...]
    game_seed_commitment: str    # sha256 of the game seed, from the game's creation
    game_seed: str | None        # the game seed (hex), once the game (or match) is over
    history: tuple[dict, ...]  # the public events of the current hand


def view(state: GameState, seat: int | None) -> SeatView:
    """What `seat` may see of `state`; any seat number not at the table sees as a spectator."""
    options = state.options
    n = options.players
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < n):
        seat = None
    claimer = state.claimer()
    return SeatView(
        version=state.version,
        phase=state.phase,
        options=options,
        seat=seat,
        game_number=state.game_number,
        hand_number=state.hand_number,
        dealer=state.dealer,
        pone=state.pone,
        crib_owner=state.dealer,
        starter_cutter=state.starter_cutter,
        sides=tuple(options.seats_of(side) for side in range(options.sides)),
        side_of_seat=tuple(options.side_of(s) for s in range(n)),
        scores=state.scores,
        match_points=state.match_points,
        count=state.count,
        pile=state.pile,
        table=tuple(PlayedCard(s, card) for s, card in state.table),
        starter=state.starter,
        turn=state.turn,
        to_act=tuple(to_act(state)),
        legal_actions=tuple(legal_actions(state, seat)) if seat is not None else (),
        deadline=state.deadline,
        turn_deadline=state.turn_deadline,
        can_abort=can_abort(state),
        counting=None if claimer is None else Counting(claimer[0],
                                                       "crib" if claimer[1] else "hand"),
        hand=state.hands[seat] if seat is not None else None,
        kept=state.kept[seat] if seat is not None else None,
        discards=state.discards[seat] if seat is not None else None,
        hand_sizes=tuple(len(hand) for hand in state.hands),
        crib_size=len(state.crib),
        crib=state.crib if _crib_shown(state) else None,
        shown_hands=_shown_hands(state),
        cut_for_deal=_cut_view(state),
        pending_muggins=state.pending_muggins,
        winner=state.winner,
        results=state.results,
        seed_commitment=state.seed_commitment,
        revealed_seeds=tuple(RevealedSeed(*entry) for entry in state.revealed_seeds),
        game_seed_commitment=state.game_seed_commitment,
        game_seed=state.seed.hex() if state.over else None,
        history=state.log,
    )


def _crib_shown(state: GameState) -> bool:
    """The crib is turned up when its count begins (manual counting) or once it is scored."""
    claimer = state.claimer()
    if claimer is not None and claimer[1]:
        return True
    return any(entry["type"] in _COUNTED and entry.get("hand") == "crib" for entry in state.log)


def _shown_hands(state: GameState) -> tuple[ShownHand, ...]:
    """Hands already counted in this hand's show (public from then on)."""
    return tuple(
        ShownHand(entry["seat"], entry["hand"],
                  state.crib if entry["hand"] == "crib" else state.kept[entry["seat"]])
        for entry in state.log if entry["type"] in _COUNTED)


def _cut_view(state: GameState) -> CutForDealView | None:
    if state.phase != "cut_for_deal":
        return None
    return CutForDealView(state.cut_round, state.cutters, state.cut_cards, len(state.cut_deck))


def view_event(event: Event, seat: int | None) -> dict:
    """The event as `seat` sees it: the public part plus that seat's private part."""
    data = {"type": event.type, **event.public}
    if seat is not None and seat in event.private:
        data.update(event.private[seat])
    return data
