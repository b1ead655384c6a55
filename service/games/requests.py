"""An action as a player sends it, and the engine action it means for the seat that sent it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass

from service import engine
from service.cards import Card, CardNotHeldError, parse_cards, resolve_card
from service.engine import GameState
from service.errors import IllegalActionError, InvalidInputError

from .idempotency import fingerprint


@dataclass(frozen=True)
class ClaimedItem:
    kind: str
    cards: tuple[str, ...]


@dataclass(frozen=True)
class ActionRequest:
    """An action with its cards named as the player wrote them (`5h`, `rey`, `k`); the fields
    other than `type` are those its type takes."""

    type: str
    seat: int | None = None
    card: str | None = None
    cards: tuple[str, ...] | None = None
    depth: int | None = None
    points: int | None = None
    items: tuple[ClaimedItem, ...] | None = None

    def fingerprint(self) -> str:
        """Equal for equal requests: what an idempotency record compares a retry with."""
        return fingerprint(asdict(self))


def to_action(request: ActionRequest, seat: int, state: GameState) -> engine.Action:
    """The engine action `request` means for `seat`. A card is read against the seat's hand
    (`service.cards.resolve_card`): a rank alone names the one held card of that rank."""
    kind = engine.ACTION_TYPES.get(request.type)
    if kind is None:
        raise InvalidInputError(f"no action {request.type!r}", code="invalid_action",
                                field="type")
    held = state.hands[seat]
    if kind is engine.Play:
        if request.card is not None and request.cards is not None:
            raise InvalidInputError("card and cards: give one of them, not both",
                                    code="invalid_action", field="cards")
        if request.cards is not None:  # the legal action's shape: one card, as a list
            return engine.Play(seat, _held_card(request.cards[0], held, "cards", 0))
        return engine.Play(seat, _held_card(request.card, held, "card"))
    if kind is engine.Discard:
        cards = request.cards or ()
        return engine.Discard(seat, tuple(_held_card(text, held, "cards", index)
                                          for index, text in enumerate(cards)))
    if kind in (engine.CutForDeal, engine.CutStarter):
        return kind(seat, request.depth)
    if kind is engine.ClaimCount:
        items = None
        if request.items is not None:
            items = tuple(engine.ClaimItem(item.kind, parse_cards(item.cards,
                                                                  f"items[{index}].cards"))
                          for index, item in enumerate(request.items))
        return engine.ClaimCount(seat, request.points, items)
    return _SEAT_ONLY[kind](seat)


# The actions that name nothing but the seat taking them.
_SEAT_ONLY: dict[type[engine.Action], Callable[[int], engine.Action]] = {
    engine.CallMuggins: engine.CallMuggins, engine.NextGame: engine.NextGame,
    engine.EndMatch: engine.EndMatch, engine.Resign: engine.Resign, engine.Abort: engine.Abort}


def _held_card(text: str | None, held: tuple[Card, ...], field: str,
               index: int | None = None) -> Card:
    if text is None:
        raise InvalidInputError(f"{field}: a card is needed", code="invalid_action", field=field)
    try:
        return resolve_card(text, held, field, index)
    except CardNotHeldError as error:
        raise IllegalActionError(str(error), code="card_not_in_hand", field=field, index=index,
                                 card=error.params["card"]) from None
