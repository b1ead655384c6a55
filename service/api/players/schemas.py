"""marshmallow schemas of the players endpoints."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from service.api.games.events import SERVER_TIME
from service.api.games.schemas import NAME
from service.engine import PHASES


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
