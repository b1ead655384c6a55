"""The events of a game as a seat sees them: one schema per type the engine and the games
service emit.

Each is the event's public part (service.engine: `g.emit(type, public, private)`) plus its
number; `cards` of `dealt` and `discarded` are private, shown only to the seat they belong to.
"""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from service.api.fields import CanonicalCard
from service.api.scoring.schemas import ScoreItemSchema
from service.api.unions import TaggedUnionSchema, tag

HEX_SHA256 = "^[0-9a-f]{64}$"
HEX_BYTES = "^([0-9a-f]{2})+$"
SERVER_TIME = "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}[.][0-9]{3}Z$"


def _seat(description: str = "") -> fields.Integer:
    return fields.Integer(required=True, validate=validate.Range(0, 5),
                          metadata={"description": description} if description else {})


def _non_negative(description: str = "") -> fields.Integer:
    return fields.Integer(required=True, validate=validate.Range(0, None),
                          metadata={"description": description} if description else {})


def _per_side(description: str) -> fields.List:
    return fields.List(fields.Integer(), required=True, metadata={"description": description})


def _scores() -> fields.List:
    return _per_side("Every side's score after this event")


def _hex(description: str) -> fields.String:
    return fields.String(required=True, metadata={"description": description,
                                                  "pattern": HEX_SHA256})


def _cards(description: str, **kwargs) -> fields.List:
    return fields.List(CanonicalCard(), metadata={"description": description}, **kwargs)


def _items() -> fields.List:
    return fields.List(fields.Nested(ScoreItemSchema), required=True)


def _hand() -> fields.String:
    return fields.String(required=True, validate=validate.OneOf(["hand", "crib"]))


class _EventSchema(ma.Schema):
    number = fields.Integer(required=True, validate=validate.Range(1, None), metadata={
        "description": "The event's place in the game, from 1"})
    time = fields.String(required=True, allow_none=True, metadata={
        "description": "When the server recorded the event, by its clock: RFC 3339 in UTC "
                       "with milliseconds. Events written together (an action and the "
                       "computer moves it set off) share it. Null for events stored before "
                       "the service recorded times", "pattern": SERVER_TIME,
        "example": "2026-11-25T10:04:05.678Z"})


class CutRoundEventSchema(_EventSchema):
    type = tag("cut_round")
    round = _non_negative("1 for the first cut for deal, one more for each cut again after a tie")
    seats = fields.List(fields.Integer(), required=True, metadata={"description": "Who cuts"})
    seed_commitment = _hex("sha256 of the shuffle seed of this round's deck")

    class Meta:
        description = "A cut for the first deal begins"


class DealerCutEventSchema(_EventSchema):
    type = tag("dealer_cut")
    seat = _seat()
    depth = _non_negative()
    card = CanonicalCard(required=True)

    class Meta:
        description = "A seat cut for the deal"


class CutResultEventSchema(_EventSchema):
    type = tag("cut_result")
    round = _non_negative()
    seed = _hex("The round's shuffle seed, revealed")
    cards = fields.List(CanonicalCard(allow_none=True), required=True, metadata={
        "description": "By seat: the card each cut (null for a seat that did not cut)"})
    dealer = fields.Integer(required=True, allow_none=True, metadata={
        "description": "The lowest card deals; null after a tie"})
    tied = fields.List(fields.Integer(), required=True, metadata={
        "description": "The seats tied for lowest, who cut again (else empty)"})

    class Meta:
        description = "Every seat of a cut round has cut"


class DealtEventSchema(_EventSchema):
    type = tag("dealt")
    hand_number = _non_negative()
    dealer = _seat()
    pone = _seat()
    counts = fields.List(fields.Integer(), required=True, metadata={
        "description": "Cards dealt to each seat"})
    crib_from_deck = _non_negative("Cards dealt straight to the crib (1 with three players)")
    seed_commitment = _hex("sha256 of the hand's shuffle seed")
    cards = _cards("Your cards: only in your own seat's events")

    class Meta:
        description = "A hand is dealt"


class DiscardedEventSchema(_EventSchema):
    type = tag("discarded")
    seat = _seat()
    count = _non_negative()
    cards = _cards("The cards discarded: only in the discarding seat's events")

    class Meta:
        description = "A seat put its discards in the crib"


class StarterCutEventSchema(_EventSchema):
    type = tag("starter_cut")
    seat = _seat()
    depth = _non_negative()
    starter = CanonicalCard(required=True)

    class Meta:
        description = "The starter is cut"


class HeelsEventSchema(_EventSchema):
    type = tag("heels")
    seat = _seat("The dealer")
    points = _non_negative()
    scores = _scores()

    class Meta:
        description = "The starter is a jack: two for his heels to the dealer"


class CardPlayedEventSchema(_EventSchema):
    type = tag("card_played")
    seat = _seat()
    card = CanonicalCard(required=True)
    count = _non_negative("The count after the card")
    points = _non_negative()
    items = _items()
    scores = _scores()

    class Meta:
        description = "A card is played to the count"


class GoEventSchema(_EventSchema):
    type = tag("go")
    seat = _seat("The seat that cannot play")
    count = _non_negative()

    class Meta:
        description = "A seat says go (the server records it)"


class LastCardEventSchema(_EventSchema):
    type = tag("last_card")
    seat = _seat()
    points = _non_negative()
    scores = _scores()

    class Meta:
        description = "One for the last card of the play"


class CountResetEventSchema(_EventSchema):
    type = tag("count_reset")
    count = _non_negative("The count that ended")
    seat = _seat("The last seat to play")
    points = _non_negative("One for the go, none after 31")
    leader = _seat("Who plays first from 0")
    scores = _scores()

    class Meta:
        description = "Nobody can play: the count starts again"


class ShowScoredEventSchema(_EventSchema):
    type = tag("show_scored")
    seat = _seat()
    hand = _hand()
    cards = _cards("The cards shown", required=True)
    starter = CanonicalCard(required=True)
    points = _non_negative()
    items = _items()
    scores = _scores()

    class Meta:
        description = "Automatic counting: a hand (or the crib) is counted"


class ClaimEventSchema(_EventSchema):
    type = tag("claim")
    seat = _seat()
    hand = _hand()
    cards = _cards("The cards shown", required=True)
    starter = CanonicalCard(required=True)
    claimed = _non_negative("The points claimed")
    true_count = _non_negative()
    items = _items()
    missed = fields.List(fields.Nested(ScoreItemSchema), metadata={
        "description": "A claim by items: the combinations it left out"})
    wrong = fields.List(fields.Nested(ScoreItemSchema), metadata={
        "description": "A claim by items: the combinations that are not there"})
    points = _non_negative("The points scored: the claim, at most the true count")
    scores = _scores()

    class Meta:
        description = "Manual counting: a seat claimed its count"


class MugginsEventSchema(_EventSchema):
    type = tag("muggins")
    seat = _seat("The seat that takes the points")
    from_seat = _seat("The seat that missed them")
    points = _non_negative()
    reason = fields.String(required=True, validate=validate.OneOf(
        ["overclaim", "missed", "called", "timeout"]))
    scores = _scores()

    class Meta:
        description = "Points a count missed (or overclaimed) go to an opponent"


class MugginsLapsedEventSchema(_EventSchema):
    type = tag("muggins_lapsed")
    points = _non_negative("The missed points nobody called")

    class Meta:
        description = "The next deal closed the chance to call muggins"


class CountTimeoutEventSchema(_EventSchema):
    type = tag("count_timeout")
    seat = _seat()
    hand = _hand()
    cards = _cards("The cards shown", required=True)
    starter = CanonicalCard(required=True)
    true_count = _non_negative()
    points = _non_negative("What the seat keeps: the true count less half of it")
    deadline = fields.String(required=True, metadata={
        "description": "When the count had to be claimed (RFC 3339, UTC)", "pattern": SERVER_TIME})
    scores = _scores()

    class Meta:
        description = "A seat did not claim by the deadline"


class HandRevealedEventSchema(_EventSchema):
    type = tag("hand_revealed")
    hand_number = _non_negative()
    seed = _hex("The hand's shuffle seed: sha256 of it is the dealt event's seed_commitment")

    class Meta:
        description = "The hand is over: its shuffle seed is revealed"


class GameSeedRevealedEventSchema(_EventSchema):
    type = tag("game_seed_revealed")
    seed = fields.String(required=True, metadata={
        "description": "The game seed (hex; 32 bytes in games the service creates): sha256 of "
                       "it is the view's game_seed_commitment, and every hand's and cut "
                       "round's seed derives from it", "pattern": HEX_BYTES})
    commitment = _hex("sha256 of the seed, as committed when the game was created")

    class Meta:
        description = "The game (or its match) is over: its game seed is revealed"


class GameWonEventSchema(_EventSchema):
    type = tag("game_won")
    winner = _non_negative("The winning side")
    seats = fields.List(fields.Integer(), required=True, metadata={
        "description": "The seats of the winning side"})
    scores = _scores()
    skunks = _per_side("0, or 1 for a skunk, 2 for a double skunk (per losing side)")
    game_points = _non_negative()
    match_points = _per_side("Every side's match points after this game")
    resigned = fields.Integer(required=True, allow_none=True, metadata={
        "description": "The seat that resigned, if one did"})

    class Meta:
        description = "A side reached the target (or the other side resigned)"


ENDINGS = ["won", "resigned", "aborted", "timed_out", "abandoned"]


class GameOverEventSchema(_EventSchema):
    type = tag("game_over")
    reason = fields.String(required=True, validate=validate.OneOf(ENDINGS), metadata={
        "description": "Why it ended: won (a side reached the target; in a match, the match "
                       "was ended by a seat), resigned, aborted (before the first card), "
                       "timed_out (a seat ran out of time and forfeited), abandoned (no human "
                       "move for 3 days)"})
    winner = fields.Integer(required=True, allow_none=True, validate=validate.Range(0, None),
                            metadata={"description": "The winning side (of the match, in a "
                                      "match); null when aborted, abandoned or a tied match"})
    seats = fields.List(fields.Integer(), required=True, metadata={
        "description": "The seats of the winning side (none without a winner)"})
    scores = _per_side("Every side's score in the last game")
    game_points = _non_negative("The game points the last game gave its winner (0 if none)")
    match_points = _per_side("Every side's match points")
    games = _non_negative("How many games were finished")

    class Meta:
        description = ("The game (or its match) is over for good: the one final event of every "
                       "game, after game_seed_revealed")


class RatedSeatSchema(ma.Schema):
    seat = _seat()
    player_id = fields.String(required=True)
    rating = fields.Integer(required=True, metadata={
        "description": "The player's rating in the format after this game"})
    change = fields.Integer(required=True, metadata={"description": "What this game moved it"})
    provisional = fields.Boolean(required=True, metadata={
        "description": "Still in its first 5 rated games of the format"})


class RatedEventSchema(_EventSchema):
    type = tag("rated")
    format = fields.String(required=True, metadata={
        "description": "The format rated: 2 to 6 players, or the teams (2x2, 3x2, 2x3)",
        "example": "2"})
    seats = fields.List(fields.Nested(RatedSeatSchema), required=True)

    class Meta:
        description = ("A rated game ended: every player's new rating, right after game_over "
                       "(written with it)")


class AbortedEventSchema(_EventSchema):
    type = tag("aborted")
    seat = _seat("The seat that aborted")

    class Meta:
        description = "A seat aborted the game before its first card was played: no one wins"


class AbandonedEventSchema(_EventSchema):
    type = tag("abandoned")

    class Meta:
        description = "No human seat moved for 3 days: the game ends with no winner"


class TurnTimeoutEventSchema(_EventSchema):
    type = tag("turn_timeout")
    seat = _seat("The seat that ran out of time")
    on_timeout = fields.String(required=True, validate=validate.OneOf(["computer", "forfeit"]),
                               metadata={"description": "computer: the events after this are "
                                         "the move a computer made for the seat; forfeit: its "
                                         "side loses"})
    level = fields.String(required=True, allow_none=True, metadata={
        "description": "The computer level that moved for the seat (null on forfeit)"})

    class Meta:
        description = "A seat's turn timer ran out (options.turn_time_limit)"


class PresenceEventSchema(_EventSchema):
    type = tag("presence")
    seat = _seat()
    connected = fields.Boolean(required=True, metadata={
        "description": "true at once when the seat comes back (opens a stream or long poll, "
                       "or acts); false once it has been gone (no stream, no wait, no action "
                       "in the last 5 s) for a 30 s grace"})

    class Meta:
        description = "A human seat left the table or came back to it"


class TurnAlarmEventSchema(_EventSchema):
    type = tag("turn_alarm")
    seats = fields.List(fields.Integer(validate=validate.Range(0, 5)), required=True, metadata={
        "description": "The seats on the clock that are not at the table (no stream, no wait, "
                       "no recent action)"})
    deadline = fields.String(required=True, metadata={
        "description": "When their turn timer runs out (RFC 3339, UTC)", "pattern": SERVER_TIME,
        "example": "2026-11-29T10:04:05.678Z"})

    class Meta:
        description = ("80% of a turn timer has run and seats it runs for are away: told (to "
                       "webhooks and push too) once per decision, only in a game with webhooks "
                       "or push subscriptions")


class GameStartedEventSchema(_EventSchema):
    type = tag("game_started")
    game = _non_negative("The game's number in the match")
    dealer = _seat()

    class Meta:
        description = "The next game of a match begins"


class MatchOverEventSchema(_EventSchema):
    type = tag("match_over")
    match_points = _per_side("Every side's match points")
    games = _non_negative()
    seat = _seat("The seat that ended the match")

    class Meta:
        description = "A seat ended the match"


class ResignedEventSchema(_EventSchema):
    type = tag("resigned")
    seat = _seat()
    side = _non_negative("The side that resigned: it loses the game")

    class Meta:
        description = "A seat resigned"


class SeatJoinedEventSchema(_EventSchema):
    type = tag("seat_joined")
    seat = _seat()
    name = fields.String(required=True)

    class Meta:
        description = "A player took an open seat with its invite code"


class SeatRenamedEventSchema(_EventSchema):
    type = tag("seat_renamed")
    seat = _seat()
    name = fields.String(required=True)

    class Meta:
        description = "A seat changed the name it shows"


def _rematch_event(outcome: str, description: str, **declared: fields.Field) -> type:
    """The schema of the event `rematch_<outcome>`: its `declared` fields and `description`."""
    meta = type("Meta", (), {"description": description})
    return type(f"Rematch{outcome.title()}EventSchema", (_EventSchema,),
                {"type": tag(f"rematch_{outcome}"), **declared, "Meta": meta})


RematchOfferedEventSchema = _rematch_event(
    "offered", "A seat offers a rematch: accept with POST .../rematch, decline with DELETE",
    seat=_seat("The seat that offers (it has accepted)"),
    game_id=fields.String(required=True, metadata={"description": "The new game's id"}),
    expires_at=fields.String(required=True, metadata={
        "description": "The offer lapses then if not every human seat has accepted (RFC 3339, "
                       "UTC)", "pattern": SERVER_TIME}))
RematchAcceptedEventSchema = _rematch_event("accepted", "A seat accepted the rematch",
                                            seat=_seat())
RematchDeclinedEventSchema = _rematch_event(
    "declined", "A seat declined the rematch: it will not start", seat=_seat())
RematchExpiredEventSchema = _rematch_event(
    "expired", "The rematch offer lapsed before every human seat accepted",
    offered_by=_seat("The seat that had offered"))
RematchStartedEventSchema = _rematch_event(
    "started", "Every human seat accepted: the rematch has started",
    game_id=fields.String(required=True, metadata={
        "description": "The new game: each seat plays it with the token its acceptance got"}))


class EventSchema(TaggedUnionSchema):
    variants = (CutRoundEventSchema, DealerCutEventSchema, CutResultEventSchema,
                DealtEventSchema, DiscardedEventSchema, StarterCutEventSchema, HeelsEventSchema,
                CardPlayedEventSchema, GoEventSchema, LastCardEventSchema, CountResetEventSchema,
                ShowScoredEventSchema, ClaimEventSchema, MugginsEventSchema,
                MugginsLapsedEventSchema, CountTimeoutEventSchema, HandRevealedEventSchema,
                GameWonEventSchema, GameStartedEventSchema, MatchOverEventSchema,
                ResignedEventSchema, SeatJoinedEventSchema, SeatRenamedEventSchema,
                GameSeedRevealedEventSchema, RematchOfferedEventSchema,
                RematchAcceptedEventSchema, RematchDeclinedEventSchema,
                RematchExpiredEventSchema, RematchStartedEventSchema, GameOverEventSchema,
                RatedEventSchema,
                AbortedEventSchema, AbandonedEventSchema, TurnTimeoutEventSchema,
                PresenceEventSchema, TurnAlarmEventSchema)

    class Meta(TaggedUnionSchema.Meta):
        description = "An event, by its type, as the seat reading it may see it"
