"""marshmallow schemas of the scoring endpoints: the single source of their OpenAPI contract."""
from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from service.api.fields import (CanonicalCard, CardText, StrictBoolean, StrictInteger,
                                card_list, hand_and_starter)
from service.api.problems import ItemErrorSchema
from service.cards import compact_card
from service.scoring import PEGGING_KINDS, SHOW_KINDS


class ScoreItemSchema(ma.Schema):
    kind = fields.String(required=True, validate=validate.OneOf(
        sorted(set(SHOW_KINDS) | set(PEGGING_KINDS))))
    cards = fields.List(CanonicalCard(), required=True)
    points = fields.Integer(required=True)


class ShowRequestSchema(ma.Schema):
    """Loads the hand and the starter as Cards (raising CardError for a bad or repeated one)."""

    hand = card_list(4, 5, "The 4 cards of a hand or crib (5 in the 6-player game)",
                     ["5H", "5S", "6D", "4C"])
    starter = CardText(required=True)
    crib = StrictBoolean(load_default=False, metadata={
        "description": "Score as the crib: only a flush that includes the starter counts"})

    def load(self, data, **kwargs):
        if not kwargs and type(self) is ShowRequestSchema:
            show = plain_show(data)
            if show is not None:
                return show
        return super().load(data, **kwargs)

    @ma.post_load
    def _cards(self, data, **kwargs):
        return hand_and_starter(data)


_SHOW_KEYS = frozenset(("hand", "starter", "crib"))


def plain_show(data) -> dict | None:
    """`ShowRequestSchema`'s load of a body that plainly satisfies every rule, its cards in the
    compact notation ("5H", "10d"); None for any other body, which the schema then loads (and
    names what is wrong with).

    The scoring request's fast path: skipping marshmallow's machinery saves it 25-40
    microseconds, about a fifth of its time under gunicorn (bench/http_scoring.py).
    """
    if type(data) is not dict or not data.keys() <= _SHOW_KEYS:
        return None
    hand, crib = data.get("hand"), data.get("crib", False)
    if type(hand) is not list or not 4 <= len(hand) <= 5 or type(crib) is not bool:
        return None
    cards = [compact_card(text) for text in (*hand, data.get("starter"))]
    if None in cards or len(set(cards)) < len(cards):
        return None
    return {"hand": tuple(cards[:-1]), "starter": cards[-1], "crib": crib}


class ShowScoreSchema(ma.Schema):
    hand = fields.List(CanonicalCard(), required=True)
    starter = CanonicalCard(required=True)
    crib = fields.Boolean(required=True)
    total = fields.Integer(required=True)
    breakdown = fields.List(fields.Nested(ScoreItemSchema), required=True, metadata={
        "description": "Every fifteen, pair and run is its own item; the points add up to "
                       "total. The fifteens come first, then the pairs, the runs, the flush "
                       "and the nobs; each item lists its cards by rank (then suit letter), so "
                       "the breakdown does not depend on the order the hand was sent in"})
    summary = fields.String(required=True, metadata={
        "description": "The count as a player says it, in the request's language"})


class ClaimItemSchema(ma.Schema):
    kind = fields.String(required=True, validate=validate.OneOf(SHOW_KINDS))
    cards = fields.List(CardText(), required=True, validate=validate.Length(1, 6),
                        metadata={"uniqueItems": True})


_CLAIM_ITEM_JSON = {
    "type": "object",
    "required": ["kind", "cards"],
    "additionalProperties": False,
    "properties": {
        "kind": {"type": "string", "enum": list(SHOW_KINDS)},
        "cards": {"type": "array", "minItems": 1, "maxItems": 6, "uniqueItems": True,
                  "items": {"$ref": "#/components/schemas/CardText"}},
    },
}
MAX_CLAIM_ITEMS = 64
# A count to check may be any number a player might say: past what the show is worth it is
# simply overclaimed.
MAX_CHECKED_CLAIM = 999


class Claimed(fields.Field):
    """Either a number of points or a list of claimed items ({kind, cards})."""

    default_error_messages = {"invalid": "Expected a whole number of points or a list of items."}

    def __init__(self, **kwargs):
        super().__init__(metadata={
            "description": "The count claimed: a number of points, or the list of combinations",
            "oneOf": [{"type": "integer", "minimum": 0, "maximum": MAX_CHECKED_CLAIM},
                      {"type": "array", "maxItems": MAX_CLAIM_ITEMS, "items": _CLAIM_ITEM_JSON}],
        }, **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, list):
            if len(value) > MAX_CLAIM_ITEMS:
                raise ma.ValidationError(f"At most {MAX_CLAIM_ITEMS} items.")
            return ClaimItemSchema(many=True).load(value)
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.make_error("invalid")
        return StrictInteger(validate=validate.Range(0, MAX_CHECKED_CLAIM)).deserialize(value)


class VerifyRequestSchema(ShowRequestSchema):
    claimed = Claimed(required=True)


class ClaimedItemSchema(ma.Schema):
    kind = fields.String(required=True, validate=validate.OneOf(SHOW_KINDS))
    cards = fields.List(CanonicalCard(), required=True)
    points = fields.Integer(required=True)


class VerifySchema(ma.Schema):
    hand = fields.List(CanonicalCard(), required=True)
    starter = CanonicalCard(required=True)
    crib = fields.Boolean(required=True)
    claimed = fields.Integer(required=True, metadata={"description": "Points claimed"})
    actual = fields.Integer(required=True, metadata={"description": "The true count"})
    correct = fields.Boolean(required=True)
    missed = fields.Integer(required=True, metadata={
        "description": "Points left out of the claim (what muggins takes)"})
    overclaimed = fields.Integer(required=True, metadata={
        "description": "Points claimed that are not there"})
    missed_items = fields.List(fields.Nested(ClaimedItemSchema), required=True, metadata={
        "description": "Combinations not claimed (empty when the claim is a bare number)"})
    wrong_items = fields.List(fields.Nested(ClaimedItemSchema), required=True, metadata={
        "description": "Claimed combinations that are not in the hand"})
    breakdown = fields.List(fields.Nested(ScoreItemSchema), required=True)
    explanation = fields.String(required=True, metadata={
        "description": "Each missed or wrong combination, in the request's language"})


class PeggingRequestSchema(ma.Schema):
    pile = card_list(1, 13, "The cards played since the count was last reset, in order; the "
                            "last one is scored", ["5H", "4S", "6D"])


class PeggingScoreSchema(ma.Schema):
    pile = fields.List(CanonicalCard(), required=True)
    count = fields.Integer(required=True)
    points = fields.Integer(required=True)
    breakdown = fields.List(fields.Nested(ScoreItemSchema), required=True)
    summary = fields.String(required=True, metadata={
        "description": "What the player says, in the request's language"})


class SeatPlaySchema(ma.Schema):
    seat = StrictInteger(required=True, validate=validate.Range(0, 5))
    card = CardText(required=True)


class ReplayRequestSchema(ma.Schema):
    players = StrictInteger(required=True, validate=validate.Range(2, 6))
    dealer = StrictInteger(required=True, validate=validate.Range(0, 5), metadata={
        "description": "Seat of the dealer (seats are numbered clockwise from 0)"})
    plays = fields.List(fields.Nested(SeatPlaySchema), validate=validate.Length(8, 30), metadata={
        "description": "Every card of the play in order, each with its seat. Give `plays` or "
                       "`cards`, not both"})
    cards = fields.List(CardText(), validate=validate.Length(8, 30), metadata={
        "description": "Every card of the play in order; the seats are inferred from the turn "
                       "order and the forced goes (where several fit, players play whenever "
                       "they can)", "uniqueItems": True})

    @ma.validates_schema
    def _plays_or_cards(self, data, **kwargs):
        if ("plays" in data) == ("cards" in data):
            raise ma.ValidationError("Give either plays or cards.", "plays")


class ReplayPlaySchema(ma.Schema):
    index = fields.Integer(required=True)
    seat = fields.Integer(required=True)
    card = CanonicalCard(required=True)
    count = fields.Integer(required=True, metadata={"description": "The count after this card"})
    points = fields.Integer(required=True)
    breakdown = fields.List(fields.Nested(ScoreItemSchema), required=True)


class GoPointSchema(ma.Schema):
    seat = fields.Integer(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(["go", "last_card"]))
    points = fields.Integer(required=True)
    after_play = fields.Integer(required=True)
    count = fields.Integer(required=True)


class ResetSchema(ma.Schema):
    after_play = fields.Integer(required=True)
    count = fields.Integer(required=True, metadata={"description": "The count that was reset"})


class PassSchema(ma.Schema):
    seat = fields.Integer(required=True)
    before_play = fields.Integer(required=True)
    count = fields.Integer(required=True)


class ReplaySchema(ma.Schema):
    players = fields.Integer(required=True)
    dealer = fields.Integer(required=True)
    seats_inferred = fields.Boolean(required=True)
    plays = fields.List(fields.Nested(ReplayPlaySchema), required=True)
    go_points = fields.List(fields.Nested(GoPointSchema), required=True, metadata={
        "description": "Every go and last-card point, with the seat that earned it"})
    resets = fields.List(fields.Nested(ResetSchema), required=True)
    passes = fields.List(fields.Nested(PassSchema), required=True, metadata={
        "description": "Each time a seat said go (it held cards, none of which fitted)"})
    totals = fields.List(fields.Integer(), required=True, metadata={
        "description": "Points pegged by each seat"})


# Batches ---------------------------------------------------------------------------------------
MAX_BATCH_ITEMS = 10_000


class BatchItems(fields.Field):
    """A batch's items, loaded as they come: each item is checked on its own, so a bad one
    fails only itself. The document says so: an item is the `item` schema or anything else
    (refused in the answer's `errors`), not an item the whole request is refused for."""

    default_error_messages = {"invalid": "Not a valid list.",
                              "length": f"Length must be between 1 and {MAX_BATCH_ITEMS}."}

    def __init__(self, item: dict, description: str, **kwargs):
        super().__init__(required=True, metadata={
            "type": "array", "minItems": 1, "maxItems": MAX_BATCH_ITEMS,
            "items": {"anyOf": [item, {"description": "Any other item: refused on its own, "
                                                      "by index, in `errors`"}]},
            "description": description}, **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, list):
            raise self.make_error("invalid")
        if not 1 <= len(value) <= MAX_BATCH_ITEMS:
            raise self.make_error("length")
        return value


class BatchOptions(ma.Schema):
    breakdown = StrictBoolean(load_default=False, metadata={
        "description": "Also list each item's breakdown (`breakdowns`, aligned with the items)"})
    all_or_nothing = StrictBoolean(load_default=False, metadata={
        "description": "Refuse the whole batch (422 `invalid_items`) if any item is invalid, "
                       "instead of reporting it in `errors` and scoring the others"})


class ShowBatchRequestSchema(BatchOptions):
    shows = BatchItems({"$ref": "#/components/schemas/ShowRequest"},
                       f"1 to {MAX_BATCH_ITEMS} shows, each as `POST /v1/show/score` takes it")


class PeggingBatchRequestSchema(BatchOptions):
    piles = BatchItems({"$ref": "#/components/schemas/PeggingRequest"},
                       f"1 to {MAX_BATCH_ITEMS} piles, each as `POST /v1/pegging/score` "
                       "takes it")


class BatchSchema(ma.Schema):
    count = fields.Integer(required=True, metadata={"description": "Items received"})
    scored = fields.Integer(required=True, metadata={"description": "Items scored"})
    failed = fields.Integer(required=True, metadata={"description": "Items refused (`errors`)"})
    sum = fields.Integer(required=True, metadata={"description": "The points of every item "
                                                                 "scored, added up"})
    errors = fields.List(fields.Nested(ItemErrorSchema), required=True, metadata={
        "description": "Each refused item, by index, in order"})


def _aligned(item: fields.Field, description: str) -> fields.List:
    return fields.List(item, required=True, metadata={
        "description": description + "; null for a refused item"})


def _breakdowns() -> fields.List:
    return fields.List(fields.List(fields.Nested(ScoreItemSchema), allow_none=True), metadata={
        "description": "With `breakdown`: each item's breakdown, aligned with the items; null "
                       "for a refused item"})


class ShowBatchSchema(BatchSchema):
    totals = _aligned(fields.Integer(allow_none=True), "Each show's total, in order")
    breakdowns = _breakdowns()


class PeggingBatchSchema(BatchSchema):
    points = _aligned(fields.Integer(allow_none=True), "The points of each pile's last card")
    counts = _aligned(fields.Integer(allow_none=True), "Each pile's count")
    breakdowns = _breakdowns()
