"""Query strings of the pictures: cards and scores as comma-separated lists."""
from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate
from webargs.fields import DelimitedList

from service.api.fields import CardText, hand_and_starter

MAX_SIDES = 3
NAME = validate.Length(1, 40)


class ShowImageQuerySchema(ma.Schema):
    """Loads the hand and the starter as Cards (raising CardError for a bad or repeated one)."""

    hand = DelimitedList(CardText(), required=True, validate=validate.Length(4, 5), metadata={
        "description": "The 4 cards of a hand or crib (5 in the 6-player game), separated by "
                       "commas", "example": ["5H", "5S", "6D", "4C"]})
    starter = CardText(required=True)
    crib = fields.Boolean(load_default=False, metadata={
        "description": "Draw it as the crib: only a flush that includes the starter counts"})

    @ma.post_load
    def _cards(self, data, **kwargs):
        return hand_and_starter(data)


class BoardImageQuerySchema(ma.Schema):
    scores = DelimitedList(fields.Integer(validate=validate.Range(0, 1000)), required=True,
                           validate=validate.Length(2, MAX_SIDES), metadata={
                               "description": "Each side's score (2 or 3 sides), where its "
                                              "front peg stands", "example": [45, 38]})
    previous = DelimitedList(fields.Integer(validate=validate.Range(0, 1000)),
                             validate=validate.Length(2, MAX_SIDES), metadata={
                                 "description": "Each side's score before its last points, "
                                                "where its back peg stands (default: the start)",
                                 "example": [37, 30]})
    names = DelimitedList(fields.String(validate=NAME), validate=validate.Length(2, MAX_SIDES),
                          metadata={"description": "Each side's name (default: Side 1, Side 2, "
                                                   "... in the request's language)",
                                    "example": ["Ana", "Bea"]})
    target = fields.Integer(load_default=121, validate=validate.Range(31, 1000), metadata={
        "description": "The points that win the game: the holes of each track"})

    @ma.validates_schema
    def _pegs_on_the_board(self, data, **kwargs):
        scores, target = data["scores"], data["target"]
        if any(score > target for score in scores):
            raise ma.ValidationError(f"A score is past the target of {target}.", "scores")
        for name in ("previous", "names"):
            if name in data and len(data[name]) != len(scores):
                raise ma.ValidationError(f"Give one for each of the {len(scores)} scores.", name)
        if any(back > front for back, front in zip(data.get("previous", ()), scores)):
            raise ma.ValidationError("A back peg is ahead of its front peg.", "previous")
