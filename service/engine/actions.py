"""Player actions: frozen values that parse from and print to JSON dicts."""
from __future__ import annotations

from dataclasses import dataclass

from service.cards import Card, CardError, parse_cards
from service.engine.errors import InvalidInputError


@dataclass(frozen=True)
class ClaimItem:
    """One combination a player claims in the show: kind is fifteen, pair, run, flush or nobs."""

    kind: str
    cards: tuple[Card, ...]

    def to_dict(self) -> dict:
        return {"kind": self.kind, "cards": [str(card) for card in self.cards]}


class _Action:
    """Shared by every action: `type` names it in JSON, `to_dict` prints it."""

    type = ""

    def to_dict(self) -> dict:
        return action_to_dict(self)


@dataclass(frozen=True)
class CutForDeal(_Action):
    seat: int
    depth: int | None = None
    type = "cut_for_deal"


@dataclass(frozen=True)
class Discard(_Action):
    seat: int
    cards: tuple[Card, ...]
    type = "discard"


@dataclass(frozen=True)
class CutStarter(_Action):
    seat: int
    depth: int | None = None
    type = "cut_starter"


@dataclass(frozen=True)
class Play(_Action):
    seat: int
    card: Card
    type = "play"


@dataclass(frozen=True)
class ClaimCount(_Action):
    """A manual count of the hand (or crib) being shown: points, items, or both (agreeing)."""

    seat: int
    points: int | None = None
    items: tuple[ClaimItem, ...] | None = None
    type = "claim"


@dataclass(frozen=True)
class CallMuggins(_Action):
    seat: int
    type = "muggins"


@dataclass(frozen=True)
class NextGame(_Action):
    seat: int
    type = "next_game"


@dataclass(frozen=True)
class EndMatch(_Action):
    seat: int
    type = "end_match"


@dataclass(frozen=True)
class Resign(_Action):
    seat: int
    type = "resign"


ACTIONS = (CutForDeal, Discard, CutStarter, Play, ClaimCount, CallMuggins, NextGame, EndMatch,
           Resign)
ACTION_TYPES = {cls.type: cls for cls in ACTIONS}


def action_to_dict(action) -> dict:
    data = {"type": action.type, "seat": action.seat}
    if isinstance(action, (CutForDeal, CutStarter)):
        data["depth"] = action.depth
    elif isinstance(action, Discard):
        data["cards"] = [str(card) for card in action.cards]
    elif isinstance(action, Play):
        data["card"] = str(action.card)
    elif isinstance(action, ClaimCount):
        data["points"] = action.points
        data["items"] = (None if action.items is None
                         else [item.to_dict() for item in action.items])
    return data


def action_from_dict(data: dict):
    """Parse an action dict; raises RuleError "invalid_action" (or a card error code) if malformed.

    Card texts may use any notation Card.parse accepts; resolving a bare rank against a hand is
    the caller's job (service.cards.resolve_card) because it needs the seat's cards.
    """
    if not isinstance(data, dict) or data.get("type") not in ACTION_TYPES:
        raise InvalidInputError("invalid_action", "unknown action type", field="type",
                                allowed=sorted(ACTION_TYPES))
    seat = data.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise InvalidInputError("invalid_action", "seat must be an integer", field="seat")
    kind = data["type"]
    try:
        if kind in ("cut_for_deal", "cut_starter"):
            return ACTION_TYPES[kind](seat, _optional_int(data.get("depth"), "depth"))
        if kind == "discard":
            return Discard(seat, parse_cards(_list(data.get("cards"), "cards"), field="cards"))
        if kind == "play":
            return Play(seat, parse_cards([data.get("card")], field="card")[0])
        if kind == "claim":
            return ClaimCount(seat, _optional_int(data.get("points"), "points"),
                              _claim_items(data.get("items")))
    except CardError as error:
        raise InvalidInputError(error.code, str(error), **error.params) from None
    return ACTION_TYPES[kind](seat)


def _optional_int(value, field: str) -> int | None:
    if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
        raise InvalidInputError("invalid_action", f"{field} must be an integer or null",
                                field=field)
    return value


def _list(value, field: str) -> list:
    if not isinstance(value, list):
        raise InvalidInputError("invalid_action", f"{field} must be a list", field=field)
    return value


def _claim_items(value) -> tuple[ClaimItem, ...] | None:
    if value is None:
        return None
    items = []
    for item in _list(value, "items"):
        if not isinstance(item, dict) or not isinstance(item.get("kind"), str):
            raise InvalidInputError("invalid_action", "each item needs a kind and cards",
                                    field="items")
        items.append(ClaimItem(item["kind"], parse_cards(_list(item.get("cards"), "items"),
                                                         field="items")))
    return tuple(items)
