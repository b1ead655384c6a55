"""marshmallow fields shared by the resources: strict JSON numbers and booleans, and cards."""
from __future__ import annotations

from marshmallow import fields, validate

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


def card_text(**kwargs) -> fields.String:
    """A card as the client names it; the view reads it into a Card (service.cards)."""
    return fields.String(validate=validate.Length(1, MAX_CARD_TEXT),
                         metadata={"description": CARD_DESCRIPTION, "example": "5H"}, **kwargs)


def card_list(low: int, high: int, description: str, example: list[str]) -> fields.List:
    return fields.List(card_text(), required=True, validate=validate.Length(low, high),
                       metadata={"description": description, "example": example})


def canonical_card(**kwargs) -> fields.String:
    """A card in a response: always the canonical form."""
    return fields.String(required=True, metadata={"example": "5H"}, **kwargs)
