"""marshmallow schemas of the games endpoints: requests and responses (actions and events have
their own modules)."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from service.api.fields import CanonicalCard, StrictBoolean, StrictInteger
from service.api.games.actions import LegalActionSchema
from service.api.games.events import HEX_BYTES, HEX_SHA256, SERVER_TIME, EventSchema
from service.bots import LEVELS
from service.engine import PHASES
from service.engine.options import MOST_TURN_SECONDS

NAME = validate.Length(1, 40)
SECRET = validate.Length(1, 64)


def _nullable_int(description: str) -> fields.Integer:
    return fields.Integer(required=True, allow_none=True, metadata={"description": description})


def _cards(description: str, **kwargs) -> fields.List:
    return fields.List(CanonicalCard(), metadata={"description": description,
                                                 "example": ["5H", "JS"]}, **kwargs)


# Requests ----------------------------------------------------------------------------------------
class SeatSpecSchema(ma.Schema):
    kind = fields.String(required=True, validate=validate.OneOf(["human", "computer"]))
    name = fields.String(validate=NAME, metadata={"example": "Ana"})
    level = fields.String(validate=validate.OneOf(list(LEVELS)), metadata={
        "description": "Computer seats: how it plays (default: medium when the computer "
                       "players are installed, else first = first legal action)"})


class OptionsSchema(ma.Schema):
    teams = fields.String(allow_none=True, validate=validate.OneOf(["2x2", "3x2", "2x3"]),
                          metadata={"description": "null, 2x2 (4 players: 0+2, 1+3), 3x2 or "
                                                   "2x3 (6 players)"})
    target = StrictInteger(validate=validate.Range(31, 1000), metadata={"example": 121})
    counting = fields.String(validate=validate.OneOf(["auto", "manual"]), metadata={
        "description": "auto: the server counts the show; manual: each player claims"})
    muggins = fields.String(validate=validate.OneOf(["off", "auto", "call"]), metadata={
        "description": "Manual counting only: who gets the points a claim missed"})
    count_time_limit = StrictInteger(allow_none=True, validate=validate.Range(15, 120), metadata={
        "description": "Manual counting only: seconds per claim"})
    skunk = fields.String(validate=validate.OneOf(["standard", "acc"]))
    exact_finish = StrictBoolean(metadata={"description": "The target must be hit exactly"})
    match = StrictBoolean(metadata={"description": "Games go on until a player ends the match"})
    turn_time_limit = StrictInteger(allow_none=True,
                                    validate=validate.Range(10, MOST_TURN_SECONDS), metadata={
        "description": "Seconds each human seat has for each decision (cut, discard, play, "
                       "claim, next game), up to 14 days (1209600: correspondence); null (the "
                       "default): no turn timer. A game no human moves in ends abandoned "
                       "after 3 days, or after two whole turns of a longer timer",
        "example": 60})
    on_timeout = fields.String(validate=validate.OneOf(["computer", "forfeit"]), metadata={
        "description": "When a turn timer runs out: computer (the default) makes the seat's "
                       "move at timeout_level, or the seat's side forfeits the game"})
    timeout_level = fields.String(validate=validate.OneOf(list(LEVELS)), metadata={
        "description": "The computer level that moves for a timed-out seat (default hard)"})
    hints = StrictBoolean(metadata={
        "description": "The seat whose turn it is finds the analysis of its decision (what "
                       "`hard` would do) in its view's `hint`; every seat sees this option"})
    start_scores = fields.List(StrictInteger(validate=validate.Range(0, 999)), allow_none=True,
                               metadata={"description": "A preset position: each side's score "
                                         "before the first deal (one per side, below the "
                                         "target); the first game only", "example": [90, 100]})
    first_dealer = StrictInteger(allow_none=True, validate=validate.Range(0, 5), metadata={
        "description": "The seat that deals the first hand: no cut for deal"})
    deck_seed = fields.String(load_only=True, validate=validate.Length(1, 200), metadata={
        "description": "Duplicate deals: every game created with the same deck_seed deals the "
                       "same cards to the same seats (with the same first dealer and the cuts "
                       "left to the seed). It is never stored nor shown: the game seed is "
                       "derived from it, committed to at creation (equal commitments: the same "
                       "deals) and revealed at the end. Anyone who knows it knows every deal: "
                       "choose a long random one and keep it from the players. Every seat's "
                       "view says a deck was preset (options.preset_deck true), never which",
        "example": "club final 2026, board 7: 5b1f0c9e"})


class CreateGameSchema(ma.Schema):
    seats = fields.List(fields.Nested(SeatSpecSchema), required=True,
                        validate=validate.Length(2, 6), metadata={
                            "description": "One entry per seat, clockwise from seat 0; the "
                                           "number of seats is the number of players",
                            "example": [{"kind": "human", "name": "Ana"},
                                        {"kind": "computer", "level": "first"}]})
    options = fields.Nested(OptionsSchema, load_default=dict)
    creator_seat = StrictInteger(validate=validate.Range(0, 5), metadata={
        "description": "The human seat the creator takes (default: the first human seat)"})
    rated = StrictBoolean(load_default=False, metadata={
        "description": "The game moves its players' ratings: created with a player token, "
                       "human seats only, and each seat joined with a player token (a seat "
                       "joined without one is refused: 401 missing_token). It is rated when "
                       "it ends with a winner and every seat linked to a distinct player"})


class JoinSchema(ma.Schema):
    code = fields.String(required=True, validate=SECRET, metadata={
        "description": "The invite code of an open seat"})
    name = fields.String(validate=NAME, metadata={"example": "Bea"})


class RenameSchema(ma.Schema):
    name = fields.String(required=True, validate=NAME, metadata={
        "description": "The name the table sees for your seat", "example": "Bea"})


class EventsQuerySchema(ma.Schema):
    after = fields.Integer(load_default=0, validate=validate.Range(0, 10**9), metadata={
        "description": "Return events numbered after this one"})
    wait = fields.Float(load_default=0, validate=validate.Range(0, 25), metadata={
        "description": "Seconds to wait for a first event when none is there yet (at most 25)"})


# Responses ---------------------------------------------------------------------------------------
class LiveSeatSchema(ma.Schema):
    seat = fields.Integer(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(["human", "computer"]))
    name = fields.String(required=True)


class SeatSchema(ma.Schema):
    seat = fields.Integer(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(["human", "computer"]))
    name = fields.String(required=True)
    taken = fields.Boolean(required=True, metadata={
        "description": "Held by a player (computer seats always are)"})
    connected = fields.Boolean(required=True, metadata={
        "description": "At the table, as the presence events last said: a live event stream "
                       "or long poll, or an action in the last 5 s (computers always are)"})
    level = fields.String(metadata={"description": "Computer seats only"})


class PlayedCardSchema(ma.Schema):
    seat = fields.Integer(required=True)
    card = CanonicalCard(required=True)


class RevealedSeedSchema(ma.Schema):
    hand_number = fields.Integer(required=True)
    seed = fields.String(required=True, metadata={"description": "hex of the hand's shuffle seed"})


class HintOptionSchema(ma.Schema):
    cards = _cards("The cards to discard, or the card to play", required=True)
    expected = fields.Float(required=True, metadata={
        "description": "Discard: expected points of the kept hand plus (your crib) or less "
                       "(another's) the crib; play: expected points your side pegs less what "
                       "the other sides peg over the rest of the play"})
    win_chance = fields.Float(required=True, allow_none=True, metadata={
        "description": "Near the end of a game (a side needs 40 points or fewer; a play: 31): "
                       "the chance to win after it"})


class HintSchema(ma.Schema):
    """The analysis of the decision the seat faces now (options.hints)."""

    kind = fields.String(required=True, validate=validate.OneOf(["discard", "play"]))
    options = fields.List(fields.Nested(HintOptionSchema), required=True, metadata={
        "description": "Best first (the first is what `hard` does): the 3 best discards, or "
                       "every card that fits the count"})


class ViewSchema(ma.Schema):
    """The engine's view for one seat (service.engine.view): all a player may know, nothing more."""

    version = fields.Integer(required=True, metadata={"description": "Actions applied so far"})
    phase = fields.String(required=True, validate=validate.OneOf(PHASES))
    options = fields.Dict(required=True, metadata={
        "description": "The game's options as created (deck_seed left out) and preset_deck: "
                       "true when the creator chose the deck (deck_seed, duplicate deals), so "
                       "the creator may know every hand; false for a deck shuffled at random"})
    seat = _nullable_int("The seat this view is for; null for a spectator")
    game_number = fields.Integer(required=True)
    hand_number = fields.Integer(required=True)
    dealer = _nullable_int("Seat dealing this hand")
    pone = _nullable_int("Seat to the dealer's left")
    crib_owner = _nullable_int("Whose crib it is (the dealer's)")
    starter_cutter = _nullable_int("Seat that cuts the starter (to the dealer's right)")
    sides = fields.List(fields.List(fields.Integer()), required=True, metadata={
        "description": "Seats of each side (a side is a player or a team)"})
    side_of_seat = fields.List(fields.Integer(), required=True)
    scores = fields.List(fields.Integer(), required=True, metadata={"description": "Per side"})
    match_points = fields.List(fields.Integer(), required=True)
    count = fields.Integer(required=True, metadata={"description": "The running count of the play"})
    pile = _cards("Cards played since the count was last reset", required=True)
    table = fields.List(fields.Nested(PlayedCardSchema), required=True, metadata={
        "description": "Every card played this hand, in order"})
    starter = CanonicalCard(required=True, allow_none=True)
    turn = _nullable_int("Seat to play")
    to_act = fields.List(fields.Integer(), required=True, metadata={
        "description": "Seats that may act now"})
    legal_actions = fields.List(fields.Nested(LegalActionSchema), required=True, metadata={
        "description": "What this seat may do now (resign is always allowed and not listed)"})
    deadline = fields.String(required=True, allow_none=True, metadata={
        "description": "Manual counting: when the counting seat must have claimed (RFC 3339, "
                       "UTC, by the server's clock). Null when no count is timed",
        "pattern": SERVER_TIME, "example": "2026-11-25T10:04:35.678Z"})
    deadline_ms_left = fields.Integer(required=True, allow_none=True, metadata={
        "description": "Milliseconds left to claim when the server answered: count down from "
                       "this rather than from deadline on a device's clock", "example": 30000})
    turn_deadline = fields.String(required=True, allow_none=True, metadata={
        "description": "Turn timer: when the seats in to_act run out of time (RFC 3339, UTC, "
                       "by the server's clock); public, so every seat sees a gone seat's "
                       "countdown. Null without a timer", "pattern": SERVER_TIME,
        "example": "2026-11-25T10:05:05.678Z"})
    turn_ms_left = fields.Integer(required=True, allow_none=True, metadata={
        "description": "Milliseconds left on the turn timer when the server answered: count "
                       "down from this rather than from turn_deadline on a device's clock",
        "example": 59000})
    can_abort = fields.Boolean(required=True, metadata={
        "description": "The game may still be aborted (no card of the first hand played yet)"})
    counting = fields.Dict(required=True, allow_none=True, metadata={
        "description": "Manual counting: {seat, hand: hand|crib} being counted"})
    hand = _cards("This seat's cards (null for a spectator)", required=True, allow_none=True)
    kept = _cards("This seat's hand after discarding", required=True, allow_none=True)
    discards = _cards("The cards this seat put in the crib this hand (null for a spectator)",
                      required=True, allow_none=True)
    hand_sizes = fields.List(fields.Integer(), required=True)
    crib_size = fields.Integer(required=True)
    crib = _cards("The crib, once it has been shown", required=True, allow_none=True)
    shown_hands = fields.List(fields.Dict(), required=True, metadata={
        "description": "Hands counted so far in this show"})
    cut_for_deal = fields.Dict(required=True, allow_none=True)
    pending_muggins = fields.List(fields.Dict(), required=True)
    winner = _nullable_int("Winning side once the game is over")
    results = fields.List(fields.Dict(), required=True, metadata={
        "description": "One entry per finished game of the match"})
    seed_commitment = fields.String(required=True, allow_none=True, metadata={
        "description": "sha256 (hex) of the current shuffle seed, published before it is used"})
    revealed_seeds = fields.List(fields.Nested(RevealedSeedSchema), required=True)
    game_seed_commitment = fields.String(required=True, metadata={
        "description": "sha256 (hex) of the game seed every hand's and cut round's seed "
                       "derives from; fixed when the game is created", "pattern": HEX_SHA256})
    game_seed = fields.String(required=True, allow_none=True, metadata={
        "description": "The game seed (hex; 32 bytes in games the service creates), once the "
                       "game (or its match) is over; null before", "pattern": HEX_BYTES})
    history = fields.List(fields.Dict(), required=True, metadata={
        "description": "Public events of the current hand: each an Event without its number "
                       "and without the private cards"})
    hint = fields.Nested(HintSchema, required=True, allow_none=True, metadata={
        "description": "With options.hints, for a seat that has a discard or a card to "
                       "choose now: the analysis of that decision; else null"})


class RematchSchema(ma.Schema):
    """The rematch offered after a finished game (POST .../rematch)."""

    game_id = fields.String(required=True, metadata={
        "description": "The new game's id: it exists once status is started"})
    status = fields.String(required=True, validate=validate.OneOf(
        ["open", "declined", "expired", "started"]), metadata={
        "description": "open: waiting for the other human seats; started: every one accepted"})
    offered_by = fields.Integer(required=True, metadata={"description": "The seat that offered"})
    accepted = fields.List(fields.Integer(), required=True, metadata={
        "description": "Seats that have accepted (the offering seat among them)"})
    declined_by = _nullable_int("The seat that declined")
    expires_at = fields.String(required=True, metadata={
        "description": "An offer not started by then lapses (rematch_expired): RFC 3339, UTC",
        "pattern": SERVER_TIME, "example": "2026-11-25T10:09:05.678Z"})
    expires_ms_left = fields.Integer(required=True, metadata={
        "description": "Milliseconds left before the offer lapses when the server answered",
        "example": 300000})


class GameSchema(ma.Schema):
    game_id = fields.String(required=True)
    version = fields.Integer(required=True, metadata={
        "description": "Stored version (the ETag's number; If-Match takes it)"})
    seat = _nullable_int("The seat of the token; null for a spectator")
    seats = fields.List(fields.Nested(SeatSchema), required=True)
    last_event = fields.Integer(required=True, metadata={
        "description": "Number of the newest event: follow with events?after=last_event"})
    view = fields.Nested(ViewSchema, required=True)
    rematch = fields.Nested(RematchSchema, required=True, allow_none=True, metadata={
        "description": "The rematch offered after this game, if any"})
    rematch_of = fields.String(required=True, allow_none=True, metadata={
        "description": "The finished game this one is a rematch of"})
    rated = fields.Boolean(required=True, metadata={
        "description": "The game moves its players' ratings (created `rated`, or paired from "
                       "rated seeks with no computer seat)", "example": True})


class InviteSchema(ma.Schema):
    seat = fields.Integer(required=True)
    code = fields.String(required=True, metadata={"description": "Give it to the player of seat"})


class SeatTokenSchema(ma.Schema):
    game_id = fields.String(required=True)
    seat = fields.Integer(required=True)
    token = fields.String(required=True, metadata={
        "description": "The seat's secret: send it as `Authorization: Bearer <token>`. "
                       "It is shown only this once."})
    game = fields.Nested(GameSchema, required=True)


class RematchAccessSchema(ma.Schema):
    game_id = fields.String(required=True, metadata={"description": "The new game's id"})
    seat = fields.Integer(required=True)
    token = fields.String(required=True, metadata={
        "description": "Your seat's token for the new game, shown only here (and to a retry "
                       "with the same Idempotency-Key); it works once the game has started"})
    rematch = fields.Nested(RematchSchema, required=True)
    game = fields.Nested(GameSchema, required=True, allow_none=True, metadata={
        "description": "The new game as your seat sees it, once every human seat accepted"})


class CreatedGameSchema(SeatTokenSchema):
    invites = fields.List(fields.Nested(InviteSchema), required=True, metadata={
        "description": "One invite code per open human seat"})


class SeatStateSchema(ma.Schema):
    """The seat's state after the last event: enough to act without reading the game again."""

    version = fields.Integer(required=True, metadata={
        "description": "Stored version: send the etag as If-Match with the next action"})
    etag = fields.String(required=True, metadata={"example": '"12-0"'})
    phase = fields.String(required=True, validate=validate.OneOf(PHASES))
    to_act = fields.List(fields.Integer(), required=True, metadata={
        "description": "Seats that may act now"})
    legal_actions = ViewSchema._declared_fields["legal_actions"]
    deadline = ViewSchema._declared_fields["deadline"]
    deadline_ms_left = ViewSchema._declared_fields["deadline_ms_left"]
    turn_deadline = ViewSchema._declared_fields["turn_deadline"]
    turn_ms_left = ViewSchema._declared_fields["turn_ms_left"]


class StreamTicketSchema(ma.Schema):
    ticket = fields.String(required=True, metadata={
        "description": "Pass it as ?ticket= to the stream, once, within expires_in seconds"})
    expires_in = fields.Integer(required=True, metadata={"example": 60})


class StreamQuerySchema(ma.Schema):
    after = fields.Integer(validate=validate.Range(0, 10**9), metadata={
        "description": "Send the events numbered after this one (Last-Event-ID does the same); "
                       "without it, only what happens from now on"})
    ticket = fields.String(validate=validate.Length(1, 200), metadata={
        "description": "A stream ticket, for clients that cannot send Authorization"})


class EventsSchema(ma.Schema):
    game_id = fields.String(required=True)
    seat = _nullable_int("The seat the events are shown to; null for a spectator")
    events = fields.List(fields.Nested(EventSchema), required=True, metadata={
        "description": "Each event as this seat may see it, in order"})
    last_event = fields.Integer(required=True)
    state = fields.Nested(SeatStateSchema, required=True)


# Analysis ----------------------------------------------------------------------------------------
class DecisionSchema(ma.Schema):
    """One decision of one seat, judged by `hard`'s analysis of the position the seat saw."""

    hand_number = fields.Integer(required=True)
    game_number = fields.Integer(required=True)
    seat = fields.Integer(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(["discard", "play"]))
    dealer = fields.Integer(required=True)
    scores = fields.List(fields.Integer(), required=True, metadata={
        "description": "Per side, before the decision"})
    held = _cards("The seat's cards when it decided", required=True)
    pile = _cards("Play: the cards on the count before it (empty for a discard)", required=True)
    chosen = _cards("The cards discarded, or the card played", required=True)
    best = _cards("What `hard` chooses in the same position", required=True)
    points_lost = fields.Float(required=True, metadata={
        "description": "The most expected points of any option less the chosen option's "
                       "(discard: hand and crib net; play: the side's pegging less the "
                       "others' over the rest of the play); 0 when nothing scores more",
        "example": 1.2386})
    win_chance_lost = fields.Float(required=True, allow_none=True, metadata={
        "description": "The best chance to win of any option less the chosen's (near the "
                       "end, from the analysis' chances; elsewhere the points lost valued at "
                       "the scores by the win model of the layout); null where a side needs "
                       "more than 241 points (two players) or the target is above 241 (more "
                       "players)",
        "example": 0.0193})


_SUMMED_WIN_CHANCE = ("The sum of win_chance_lost over the decisions where it is known; null "
                      "when it is known for none")


class SeatSummarySchema(ma.Schema):
    seat = fields.Integer(required=True)
    side = fields.Integer(required=True)
    decisions = fields.Integer(required=True, metadata={"description": "Decisions shown"})
    points_lost = fields.Float(required=True)
    win_chance_lost = fields.Float(required=True, allow_none=True, metadata={
        "description": _SUMMED_WIN_CHANCE})
    worst = fields.List(fields.Integer(), required=True, metadata={
        "description": "Indices into `decisions` of the seat's costliest ones (at most 3)"})


class SideSummarySchema(ma.Schema):
    side = fields.Integer(required=True)
    seats = fields.List(fields.Integer(), required=True)
    decisions = fields.Integer(required=True)
    points_lost = fields.Float(required=True)
    win_chance_lost = fields.Float(required=True, allow_none=True, metadata={
        "description": _SUMMED_WIN_CHANCE})


class GameAnalysisSchema(ma.Schema):
    game_id = fields.String(required=True)
    seat = _nullable_int("The seat of the token; null for a spectator")
    complete = fields.Boolean(required=True, metadata={
        "description": "The game (or its match) is over: every seat's decisions are shown"})
    hands = fields.List(fields.Integer(), required=True, metadata={
        "description": "Numbers of the hands analysed: those whose show is over"})
    decisions = fields.List(fields.Nested(DecisionSchema), required=True, metadata={
        "description": "Your own decisions of each hand whose show is over; every seat's once "
                       "the game is over (a spectator sees none before)"})
    seats = fields.List(fields.Nested(SeatSummarySchema), required=True, metadata={
        "description": "A summary per seat shown"})
    sides = fields.List(fields.Nested(SideSummarySchema), required=True, metadata={
        "description": "A summary per side (a team adds up its seats)"})


class LiveGamesQuerySchema(ma.Schema):
    status = fields.String(required=True, validate=validate.OneOf(["live"]), metadata={
        "description": "live: the games in play (the only listing there is)"})
    limit = fields.Integer(strict=False, load_default=20, validate=validate.Range(1, 100), metadata={
        "description": "Games on the page at most"})
    cursor = fields.String(validate=validate.Length(1, 100), metadata={
        "description": "The `next_cursor` of the page before"})


class LiveGameSchema(ma.Schema):
    """A game in play, by its public parts: watch it with GET /v1/games/{game_id}."""

    game_id = fields.String(required=True)
    players = fields.Integer(required=True)
    teams = fields.String(required=True, allow_none=True)
    target = fields.Integer(required=True)
    rated = fields.Boolean(required=True, metadata={
        "description": "The game moves its players' ratings", "example": True})
    phase = fields.String(required=True, validate=validate.OneOf(PHASES))
    scores = fields.List(fields.Integer(), required=True, metadata={"description": "Per side"})
    seats = fields.List(fields.Nested(LiveSeatSchema), required=True)
    created_at = fields.String(required=True, metadata={"pattern": SERVER_TIME})
    updated_at = fields.String(required=True, metadata={"pattern": SERVER_TIME})


class LiveGamesSchema(ma.Schema):
    games = fields.List(fields.Nested(LiveGameSchema), required=True, metadata={
        "description": "The newest first"})
    next_cursor = fields.String(required=True, allow_none=True, metadata={
        "description": "Pass as `cursor` for the next page; null on the last"})
