"""The actions a seat sends, and the legal actions its view lists: one schema per type."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from service.api.fields import CanonicalCard, HeldCardText, StrictInteger
from service.api.scoring.schemas import ClaimItemSchema
from service.api.unions import TaggedUnionSchema, tag
from service.engine.rules import MAX_CLAIM, MIN_PACKET
from service.games import ActionRequest, ClaimedItem

MAX_DEPTH = 52 - MIN_PACKET  # the opening cut lifts from a whole deck


# Actions -----------------------------------------------------------------------------------------
class _ActionSchema(ma.Schema):
    type = fields.String(required=True)
    seat = StrictInteger(validate=validate.Range(0, 5), metadata={
        "description": "Optional: the seat is the token's; another seat is a 403"})

    @ma.post_load
    def _request(self, data, **kwargs) -> ActionRequest:
        items = data.get("items")
        if items is not None:
            items = tuple(ClaimedItem(item["kind"], tuple(item["cards"])) for item in items)
        data = self.request_fields(data)
        cards = data.get("cards")
        return ActionRequest(data["type"], data.get("seat"), data.get("card"),
                             None if cards is None else tuple(cards), data.get("depth"),
                             data.get("points"), items)

    def request_fields(self, data: dict) -> dict:
        """The loaded fields as the request carries them (a type may accept two spellings)."""
        return data


def _depth() -> StrictInteger:
    return StrictInteger(allow_none=True, validate=validate.Range(MIN_PACKET, MAX_DEPTH),
                         metadata={"description": "Cards lifted, within the legal action's "
                                                  "min_depth..max_depth; null (or left out) for "
                                                  "a random depth"})


class CutForDealActionSchema(_ActionSchema):
    type = tag("cut_for_deal")
    depth = _depth()


class DiscardActionSchema(_ActionSchema):
    type = tag("discard")
    cards = fields.List(HeldCardText(), required=True, validate=validate.Length(1, 2), metadata={
        "description": "The cards put in the crib, as many as the legal action's count",
        "uniqueItems": True})


class CutStarterActionSchema(_ActionSchema):
    type = tag("cut_starter")
    depth = _depth()


class PlayActionSchema(_ActionSchema):
    type = tag("play")
    cards = fields.List(HeldCardText(), validate=validate.Length(equal=1), metadata={
        "description": "The card to play, as a list of one: the legal action's shape (choose "
                       "`count` of its `cards`, as a discard does). Give `cards` or `card`, "
                       "not both (422 invalid_action)"})
    card = HeldCardText()

    class Meta:
        description = ("Play one card: `{\"type\": \"play\", \"cards\": [\"5H\"]}` (the shape "
                       "of the legal action, which lists the cards that fit and `count` 1) or "
                       "`{\"type\": \"play\", \"card\": \"5H\"}`")

    def request_fields(self, data: dict) -> dict:
        if "cards" not in data or "card" in data:  # both: the games service refuses it
            return data
        fields_ = {name: value for name, value in data.items() if name != "cards"}
        return {**fields_, "card": data["cards"][0]}


class ClaimActionSchema(_ActionSchema):
    type = tag("claim")
    points = StrictInteger(allow_none=True, validate=validate.Range(0, MAX_CLAIM), metadata={
        "description": "The points claimed for the hand (or crib) being counted"})
    items = fields.List(fields.Nested(ClaimItemSchema), allow_none=True,
                        validate=validate.Length(0, 64), metadata={
                            "description": "The combinations claimed"})

    class Meta:
        description = ("The count of the hand (or crib) being shown: points, items, or both "
                       "(then they must agree), not neither (422 invalid_action)")


class MugginsActionSchema(_ActionSchema):
    type = tag("muggins")


class NextGameActionSchema(_ActionSchema):
    type = tag("next_game")


class EndMatchActionSchema(_ActionSchema):
    type = tag("end_match")


class ResignActionSchema(_ActionSchema):
    type = tag("resign")


class AbortActionSchema(_ActionSchema):
    type = tag("abort")

    class Meta:
        description = ("End the game with no winner: any human seat, until the first card of "
                       "the first hand is played (409 too_late_to_abort after)")


class ActionSchema(TaggedUnionSchema):
    variants = (CutForDealActionSchema, DiscardActionSchema, CutStarterActionSchema,
                PlayActionSchema, ClaimActionSchema, MugginsActionSchema, NextGameActionSchema,
                EndMatchActionSchema, ResignActionSchema, AbortActionSchema)

    class Meta(TaggedUnionSchema.Meta):
        description = ("An action, by its type. A \"go\" needs none (the server records it); "
                       "resign is always allowed in a live game, abort until the first card "
                       "is played (the view's can_abort).")


# Legal actions -----------------------------------------------------------------------------------
def _cards(description: str) -> fields.List:
    return fields.List(CanonicalCard(), required=True, metadata={"description": description})


def _depth_bound() -> fields.Integer:
    return fields.Integer(required=True, validate=validate.Range(MIN_PACKET, MAX_DEPTH))


class LegalCutForDealSchema(ma.Schema):
    type = tag("cut_for_deal")
    min_depth = _depth_bound()
    max_depth = _depth_bound()


class LegalDiscardSchema(ma.Schema):
    type = tag("discard")
    count = fields.Integer(required=True, validate=validate.Range(1, 2), metadata={
        "description": "How many cards to put in the crib"})
    cards = _cards("The cards to choose from (the seat's hand)")


class LegalCutStarterSchema(ma.Schema):
    type = tag("cut_starter")
    min_depth = _depth_bound()
    max_depth = _depth_bound()


class LegalPlaySchema(ma.Schema):
    type = tag("play")
    count = fields.Integer(required=True, validate=validate.Range(1, 1), metadata={
        "description": "How many cards to play: always 1, sent as `cards` with one of these "
                       "(or as `card`)"})
    cards = _cards("The held cards that fit the count")


class LegalClaimSchema(ma.Schema):
    type = tag("claim")
    hand = fields.String(required=True, validate=validate.OneOf(["hand", "crib"]))
    cards = _cards("The cards being counted")
    starter = CanonicalCard(required=True)


class LegalMugginsSchema(ma.Schema):
    type = tag("muggins")
    points = fields.Integer(required=True, validate=validate.Range(1, None), metadata={
        "description": "The missed points a call takes"})


class LegalNextGameSchema(ma.Schema):
    type = tag("next_game")


class LegalEndMatchSchema(ma.Schema):
    type = tag("end_match")


class LegalActionSchema(TaggedUnionSchema):
    variants = (LegalCutForDealSchema, LegalDiscardSchema, LegalCutStarterSchema,
                LegalPlaySchema, LegalClaimSchema, LegalMugginsSchema, LegalNextGameSchema,
                LegalEndMatchSchema)

    class Meta(TaggedUnionSchema.Meta):
        description = "An action the seat may take now (resign is always allowed, not listed)"
