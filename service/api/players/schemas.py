"""marshmallow schemas of the players endpoints."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from service.api.fields import StrictBoolean
from service.api.games.events import SERVER_TIME
from service.api.games.schemas import NAME
from service.engine import PHASES
from service.ratings import FORMATS


class CreatePlayerSchema(ma.Schema):
    name = fields.String(validate=NAME, metadata={
        "description": "What the player calls itself (seats keep names of their own)",
        "example": "Ana"})


class PlayerSchema(ma.Schema):
    player_id = fields.String(required=True, metadata={
        "description": "The player's public id (never a secret)"})
    name = fields.String(required=True, allow_none=True)
    token = fields.String(required=True, metadata={
        "description": "The player's secret: send it as `Authorization: Bearer <token>` to "
                       "create or join games as this player, to list them, and wherever one "
                       "of its seats' tokens goes. It is shown only this once."})


class TableSeatSchema(ma.Schema):
    seat = fields.Integer(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(["human", "computer"]))
    name = fields.String(required=True)


class PlayerGameSchema(ma.Schema):
    """One game of the player, as its seat sees it: what a lobby screen shows."""

    game_id = fields.String(required=True)
    seat = fields.Integer(required=True, metadata={
        "description": "The player's seat: the player token acts for it"})
    phase = fields.String(required=True, validate=validate.OneOf(PHASES))
    to_act = fields.List(fields.Integer(), required=True, metadata={
        "description": "Human seats that may act now"})
    your_turn = fields.Boolean(required=True, metadata={"description": "seat is in to_act"})
    scores = fields.List(fields.Integer(), required=True, metadata={"description": "Per side"})
    side = fields.Integer(required=True, metadata={"description": "The seat's side in scores"})
    partners = fields.List(fields.Nested(TableSeatSchema), required=True, metadata={
        "description": "The other seats of the player's side (teams)"})
    opponents = fields.List(fields.Nested(TableSeatSchema), required=True, metadata={
        "description": "The seats of the other sides"})
    updated_at = fields.String(required=True, metadata={
        "description": "The game's last change (RFC 3339, UTC)", "pattern": SERVER_TIME,
        "example": "2026-11-25T10:04:05.678Z"})
    ended = fields.Boolean(required=True, metadata={"description": "Nothing more will happen"})
    rematch_of = fields.String(required=True, allow_none=True)
    rematch = fields.String(required=True, allow_none=True, metadata={
        "description": "The id of the rematch offered (open) or started after this game"})


class PlayerGamesSchema(ma.Schema):
    player_id = fields.String(required=True)
    games = fields.List(fields.Nested(PlayerGameSchema), required=True, metadata={
        "description": "Games in play first, then finished ones not yet expired; the most "
                       "recently changed first"})
    next = fields.String(required=True, allow_none=True, metadata={
        "description": "The cursor of the next page (pass it as `cursor`); null on the last"})


CURSOR = "^[A-Za-z0-9_-]{1,400}$"


class PlayerGamesQuerySchema(ma.Schema):
    limit = fields.Integer(load_default=50, validate=validate.Range(1, 200), metadata={
        "description": "Games per page (at most 200)"})
    cursor = fields.String(validate=validate.Regexp(CURSOR), metadata={
        "description": "The `next` of the page before", "pattern": CURSOR})


class RatingSchema(ma.Schema):
    format = fields.String(required=True, validate=validate.OneOf(FORMATS), metadata={
        "description": "2 to 6 players each for themselves, or the teams (2x2, 3x2, 2x3)"})
    rating = fields.Integer(required=True, metadata={
        "description": "The displayed rating: a cautious estimate of skill (openskill's "
                       "ordinal, scaled); a new player shows 1000"})
    change = fields.Integer(required=True, metadata={
        "description": "What the last rated game of the format moved it"})
    provisional = fields.Boolean(required=True, metadata={
        "description": "Fewer than 5 rated games in the format: placement games, not on "
                       "leaderboards"})
    games = fields.Integer(required=True, metadata={"description": "Rated games played"})


class AveragesSchema(ma.Schema):
    hand = fields.Float(required=True, metadata={"description": "Hand points per deal"})
    crib = fields.Float(required=True, metadata={
        "description": "Crib points per deal the player dealt"})
    pegging = fields.Float(required=True, metadata={"description": "Pegging points per deal"})


class StatsSchema(ma.Schema):
    format = fields.String(required=True, validate=validate.OneOf(FORMATS))
    games = fields.Integer(required=True, metadata={
        "description": "Finished games with a winner, rated or not"})
    wins = fields.Integer(required=True, metadata={
        "description": "Games the player's side won (in a match: the match)"})
    skunks_given = fields.Integer(required=True, metadata={
        "description": "Losing sides the player's side skunked (or double-skunked)"})
    skunks_taken = fields.Integer(required=True, metadata={
        "description": "Games the player's side lost skunked"})
    deals = fields.Integer(required=True)
    average = fields.Nested(AveragesSchema, required=True)


class ProfileSchema(ma.Schema):
    """The player as it sees itself: never its token, its webhooks are listed apart."""

    player_id = fields.String(required=True)
    name = fields.String(required=True, allow_none=True)
    created_at = fields.String(required=True, metadata={
        "description": "When the player was created (RFC 3339, UTC)", "pattern": SERVER_TIME})
    ratings = fields.List(fields.Nested(RatingSchema), required=True, metadata={
        "description": "Every format the player has a rated game in"})
    stats = fields.List(fields.Nested(StatsSchema), required=True, metadata={
        "description": "Every format the player has finished a game in"})
    listed = fields.Boolean(required=True, metadata={
        "description": "Shown on leaderboards (once out of its placement games)"})


class PlayerChangeSchema(ma.Schema):
    name = fields.String(validate=NAME, metadata={
        "description": "A new name for the player (its seats keep their own names)"})
    listed = StrictBoolean(metadata={
        "description": "false hides the player from every leaderboard; true shows it again"})
    rotate_token = StrictBoolean(metadata={
        "description": "true: a new player token, returned once in `token`; the old token "
                       "stops opening the player and its seats at once"})


class ChangedProfileSchema(ProfileSchema):
    token = fields.String(metadata={
        "description": "The new player token, only when rotate_token was true: shown once"})
