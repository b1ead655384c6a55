"""marshmallow schemas of the leaderboards endpoint."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from service.ratings import FORMATS

LIMIT = 100


class BoardQuerySchema(ma.Schema):
    season = fields.String(metadata={
        "description": "A month as YYYY-MM (UTC), or `all` for all time; the current month "
                       "when left out", "example": "2027-01"})
    limit = fields.Integer(load_default=10, validate=validate.Range(1, LIMIT), metadata={
        "description": "How many places (at most 100)"})
    around = fields.String(validate=validate.OneOf(["me"]), metadata={
        "description": "`me`: the places around the player of the token (Authorization: "
                       "Bearer), instead of the top"})


class PlaceSchema(ma.Schema):
    place = fields.Integer(required=True, validate=validate.Range(1, None))
    player_id = fields.String(required=True)
    name = fields.String(required=True, allow_none=True)
    rating = fields.Integer(required=True, metadata={
        "description": "The displayed rating, as of the player's last rated game of the "
                       "format"})


class BoardSchema(ma.Schema):
    format = fields.String(required=True, validate=validate.OneOf(FORMATS))
    season = fields.String(required=True)
    places = fields.List(fields.Nested(PlaceSchema), required=True, metadata={
        "description": "The best first; empty around a player who is not on the board"})
