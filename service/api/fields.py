"""marshmallow fields shared by the resources: strict JSON numbers and booleans, and cards.

The card fields are each one schema of the OpenAPI document (CardText, HeldCardText,
CanonicalCard; see service.api.spec), with the pattern of the texts the parsers accept."""
from __future__ import annotations

from marshmallow import fields, validate

from service.cards import (CANONICAL_PATTERN, CARD_PATTERN, HELD_CARD_PATTERN, DuplicateCardError,
                           parse_card, parse_cards)

CARD_DESCRIPTION = (
    "A card in any notation: `5H`, `10d`, `TD`, `5♥`, `king of diamonds`, `rey de diamantes`, "
    "`k d`, ... (case-insensitive). Responses use the canonical form `5H`, `10D`, `JS`, `AC`.")
MAX_CARD_TEXT = 40


class StrictInteger(fields.Integer):
    """A JSON integer: no strings, no booleans, no fractions."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if type(value) is not int:
            raise self.make_error("invalid")
        return super()._deserialize(value, attr, data, **kwargs)


class StrictBoolean(fields.Boolean):
    """A JSON true or false, nothing that merely looks like one."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise self.make_error("invalid")
        return value


class CardText(fields.String):
    """A card as the client names it; the view reads it into a Card (service.cards), which
    refuses a text the pattern does not match as an unknown_card."""

    def __init__(self, **kwargs):
        super().__init__(validate=validate.Length(1, MAX_CARD_TEXT), metadata={
            "description": CARD_DESCRIPTION, "pattern": CARD_PATTERN, "example": "5H"},
            **kwargs)


class HeldCardText(fields.String):
    """A card the seat holds: any notation of a card, or a rank alone."""

    def __init__(self, **kwargs):
        super().__init__(validate=validate.Length(1, MAX_CARD_TEXT), metadata={
            "description": f"{CARD_DESCRIPTION} A rank alone (`k`, `rey`, `10`) names the only "
                           "held card of that rank.",
            "pattern": HELD_CARD_PATTERN, "example": "5H"}, **kwargs)


class CanonicalCard(fields.String):
    """A card in a response: always the canonical form."""

    def __init__(self, **kwargs):
        super().__init__(metadata={"description": "A card in the canonical form",
                                   "pattern": CANONICAL_PATTERN, "example": "5H"}, **kwargs)


def card_list(low: int, high: int, description: str, example: list[str]) -> fields.List:
    """Distinct cards (the same card twice in two notations is a 422 duplicate_card too)."""
    return fields.List(CardText(), required=True, validate=validate.Length(low, high),
                       metadata={"description": description, "example": example,
                                 "uniqueItems": True})


def hand_and_starter(data: dict) -> dict:
    """A loaded show's `hand` and `starter` read into Cards: a bad or repeated card, or a
    starter that is also in the hand, raises a CardError naming the field."""
    data["hand"] = parse_cards(data["hand"], "hand")
    data["starter"] = parse_card(data["starter"], "starter")
    if data["starter"] in data["hand"]:
        raise DuplicateCardError(f"starter: {data['starter']} is also in the hand",
                                 field="starter", card=data["starter"].text)
    return data
