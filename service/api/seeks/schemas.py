"""marshmallow schemas of the seeks endpoints."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from service.api.fields import StrictBoolean, StrictInteger
from service.api.games.events import SERVER_TIME
from service.api.games.schemas import OptionsSchema
from service.bots import LEVELS
from service.games.seeks import MAX_WAIT, SEEK_TTL_SECONDS

MOST_COMPUTERS_AFTER = 3600
SEEK_ID = r"^[0-9a-f]{12}[A-Za-z0-9_-]{16}$"


class SeekOptionsSchema(OptionsSchema):
    """A game's options, but for its layout (the seek's `players` and `teams`) and the coach's
    (a preset position or deck)."""

    class Meta:
        exclude = ("teams", "start_scores", "first_dealer", "deck_seed", "hints")


class ComputersSchema(ma.Schema):
    level = fields.String(validate=validate.OneOf(list(LEVELS)), metadata={
        "description": "The computers' level (default: the service's default level)"})
    after = StrictInteger(required=True, validate=validate.Range(0, MOST_COMPUTERS_AFTER),
                          metadata={"description": "Seconds the seek waits for humans first",
                                    "example": 60})


class CreateSeekSchema(ma.Schema):
    players = StrictInteger(required=True, validate=validate.Range(2, 6), metadata={
        "description": "Seats at the table", "example": 2})
    teams = fields.String(allow_none=True, load_default=None,
                          validate=validate.OneOf(["2x2", "3x2", "2x3"]), metadata={
        "description": "null, 2x2 (4 players), 3x2 or 2x3 (6 players)"})
    options = fields.Nested(SeekOptionsSchema, load_default=dict, metadata={
        "description": "The game's options (target, counting, timers...): only seeks with "
                       "the same options, layout and rated flag are paired"})
    rated = StrictBoolean(load_default=False, metadata={
        "description": "A rated game: paired only with rated seeks, never with computers' "
                       "seats (a table that computers fill is casual)"})
    rating_range = StrictInteger(allow_none=True, load_default=None,
                                 validate=validate.Range(0, 3000), metadata={
        "description": "Rating points either side of the seeker's own that it accepts; the "
                       "range widens by 50 points each minute the seek waits. null: any",
        "example": 200})
    computers = fields.Nested(ComputersSchema, metadata={
        "description": "Computers take the empty seats once the seek has waited `after` "
                       "seconds (left out: humans only)"})


class SeekQuerySchema(ma.Schema):
    wait = fields.Float(load_default=0, validate=validate.Range(0, MAX_WAIT), metadata={
        "description": "Seconds to wait while the seek is open (a long poll, at most 25): "
                       "the answer comes as soon as it is paired, cancelled or expired"})


class SeeksQuerySchema(ma.Schema):
    limit = fields.Integer(strict=False, load_default=50, validate=validate.Range(1, 200), metadata={
        "description": "Seeks listed at most"})


class SeekComputersSchema(ma.Schema):
    level = fields.String(required=True)
    after = fields.Integer(required=True)


class SeekSchema(ma.Schema):
    """A seek. Everyone sees its public fields; its owner (with its player token) also its
    game, seat and token once paired."""

    seek_id = fields.String(required=True, metadata={"pattern": SEEK_ID})
    status = fields.String(required=True, validate=validate.OneOf(
        ["open", "paired", "cancelled", "expired"]))
    player_id = fields.String(required=True, metadata={"description": "The seeker"})
    name = fields.String(required=True, allow_none=True)
    players = fields.Integer(required=True)
    teams = fields.String(required=True, allow_none=True)
    options = fields.Dict(required=True, metadata={"description": "The game's options"})
    rated = fields.Boolean(required=True)
    rating = fields.Integer(required=True, metadata={
        "description": "The seeker's rating in the format, as paired on"})
    rating_range = fields.Integer(required=True, allow_none=True)
    computers = fields.Nested(SeekComputersSchema, required=True, allow_none=True)
    created_at = fields.String(required=True, metadata={"pattern": SERVER_TIME})
    expires_at = fields.String(required=True, metadata={
        "pattern": SERVER_TIME,
        "description": f"An open seek expires {SEEK_TTL_SECONDS // 60} minutes after it is made"})
    game_id = fields.String(metadata={"description": "The owner's, once paired: the game"})
    seat = fields.Integer(metadata={"description": "The owner's, once paired: its seat"})
    token = fields.String(metadata={
        "description": "The owner's, once paired: the seat's token, which is the player "
                       "token (the seat is linked to the player)"})


class SeeksSchema(ma.Schema):
    seeks = fields.List(fields.Nested(SeekSchema), required=True, metadata={
        "description": "Open seeks, the longest waiting first; public fields only"})
