"""marshmallow schemas of the analysis endpoints."""
from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from service.api.fields import (CanonicalCard, CardText, StrictBoolean, StrictInteger,
                                card_list)
from service.engine.rules import TEAM_LAYOUTS

class DiscardRequestSchema(ma.Schema):
    hand = card_list(4, 6, "The cards dealt to you: 6 with 2 players, 5 with 3-5 players (the "
                           "dealer's 4 with 5 players), 6 with 6 players (the dealer's 5)",
                     ["5H", "5S", "JD", "6C", "4H", "KS"])
    players = StrictInteger(load_default=2, validate=validate.Range(2, 6))
    own_crib = StrictBoolean(required=True, metadata={
        "description": "The crib is yours: you deal, or (with teams) your partner deals"})
    teams = fields.String(load_default=None, allow_none=True, validate=validate.OneOf(list(TEAM_LAYOUTS)),
                          metadata={"description": "Team layout: 2x2 (4 players), 3x2 or 2x3 "
                                                   "(6 players); null for no teams"})
    own_score = StrictInteger(validate=validate.Range(0, 999), metadata={"doc_default": 0})
    opponent_score = StrictInteger(validate=validate.Range(0, 999), metadata={
        "description": "The leading other side's score", "doc_default": 0})
    scores = fields.List(StrictInteger(validate=validate.Range(0, 999)),
                         validate=validate.Length(2, 6), metadata={
        "description": "Every side's score, yours first, then the other sides clockwise from "
                       "your left (instead of own_score and opponent_score). With more than "
                       "two sides, and dealer_seat, it lets the end of the game be valued",
        "example": [108, 108]})
    dealer_seat = StrictInteger(validate=validate.Range(0, 5), metadata={
        "description": "Who deals, counted clockwise from you (0: you, 1: the player on your "
                       "left); it must agree with own_crib. Needed with more than two players "
                       "to value the end of the game"})
    target = StrictInteger(load_default=121, validate=validate.Range(31, 1000))
    skunk = fields.String(load_default="standard", validate=validate.OneOf(["standard", "acc"]),
                          metadata={"description": "Skunk lines, as the game option"})


class ExactSchema(ma.Schema):
    """The uniform model's expectations as exact fractions."""

    hand = fields.String(required=True, metadata={"example": "367/23"})
    crib = fields.String(required=True)
    net = fields.String(required=True)


class DiscardOptionSchema(ma.Schema):
    discard = fields.List(CanonicalCard(), required=True)
    keep = fields.List(CanonicalCard(), required=True)
    expected_hand = fields.Float(required=True, metadata={
        "description": "Expected show points of the kept cards over every possible starter"})
    expected_crib = fields.Float(required=True, metadata={
        "description": "Expected points of the crib when the others discard as good players "
                       "of their role do (the weighted crib; see the operation's assumptions)"})
    net = fields.Float(required=True, metadata={
        "description": "expected_hand + crib_weight * expected_crib: the ranking"})
    uniform_crib = fields.Float(required=True, metadata={
        "description": "Expected points of the crib when every other discard is equally "
                       "likely (exact: see `exact`)"})
    uniform_net = fields.Float(required=True, metadata={
        "description": "expected_hand + crib_weight * uniform_crib"})
    hand_min = fields.Integer(required=True, metadata={
        "description": "The kept cards' fewest show points over every possible starter"})
    hand_max = fields.Integer(required=True)
    win = fields.Float(required=True, allow_none=True, metadata={
        "description": "Your chance to win the game after this discard, near the end only (a "
                       "side needs 40 points or fewer; with more than two players when scores "
                       "and dealer_seat are given), else null; null too where the models do "
                       "not reach (two players: a side needs more than 241; more players: a "
                       "target above 241)"})
    exact = fields.Nested(ExactSchema, required=True, metadata={
        "description": "expected_hand, uniform_crib and uniform_net as exact fractions"})


class DiscardChoiceSchema(ma.Schema):
    discard = fields.List(CanonicalCard(), required=True)
    keep = fields.List(CanonicalCard(), required=True)


class DiscardAnalysisSchema(ma.Schema):
    hand = fields.List(CanonicalCard(), required=True)
    players = fields.Integer(required=True)
    own_crib = fields.Boolean(required=True)
    teams = fields.String(required=True, allow_none=True)
    crib_weight = fields.Float(required=True, metadata={
        "description": "What one crib point is worth to you: 1 for your (or your team's) crib, "
                       "-1/(sides - 1) for another side's"})
    starters = fields.Integer(required=True, metadata={"description": "Possible starters"})
    crib_cases = fields.Integer(required=True, metadata={
        "description": "Equally likely (other crib cards, starter) combinations per discard "
                       "in the uniform model"})
    discards = fields.List(fields.Nested(DiscardOptionSchema), required=True, metadata={
        "description": "Every possible discard, best (weighted) net first"})
    recommendation = fields.Nested(DiscardChoiceSchema, required=True, metadata={
        "description": "What the `hard` computer player discards: the first of `discards`, or "
                       "near the end the one with the best chance to win"})


class GoSchema(ma.Schema):
    seat = StrictInteger(required=True, validate=validate.Range(1, 5), metadata={
        "description": "Who said go, counted clockwise from you (1: the player on your left)"})
    count = StrictInteger(required=True, validate=validate.Range(0, 30), metadata={
        "description": "The count when they said it: every card they still hold counts more "
                       "than 31 less it"})


class PlayedBySchema(ma.Schema):
    seat = StrictInteger(required=True, validate=validate.Range(1, 5), metadata={
        "description": "Who played the card, counted clockwise from you"})
    card = CardText(required=True)


class PlayRequestSchema(ma.Schema):
    hand = card_list(1, 5, "The cards you still hold", ["5H", "4S", "KD", "QC"])
    pile = fields.List(CardText(), load_default=list, validate=validate.Length(0, 13), metadata={
        "description": "The cards played since the count was last reset, in order",
        "example": ["10C"], "uniqueItems": True})
    count = StrictInteger(validate=validate.Range(0, 31), metadata={
        "description": "The count (optional: it must be the pile's count)"})
    seen = fields.List(CardText(), load_default=list, validate=validate.Length(0, 51), metadata={
        "description": "Every other card you have seen: the starter, the cards played earlier "
                       "in this hand, your discards", "example": ["2C", "7H"],
        "uniqueItems": True})
    next_cards = StrictInteger(validate=validate.Range(0, 5), metadata={
        "description": "How many cards the next player to act still holds (default: as many "
                       "as you); the first of hand_sizes"})
    players = StrictInteger(load_default=2, validate=validate.Range(2, 6), metadata={
        "description": "Player count: a hand holds at most 4 cards in the play, 5 with 6 players"})
    teams = fields.String(load_default=None, allow_none=True,
                          validate=validate.OneOf(list(TEAM_LAYOUTS)), metadata={
                              "description": "Team layout: 2x2 (4 players), 3x2 or 2x3 (6 "
                                             "players); null for no teams"})
    hand_sizes = fields.List(StrictInteger(validate=validate.Range(0, 5)),
                             validate=validate.Length(1, 5), metadata={
        "description": "How many cards each other player holds, clockwise from your left (one "
                       "number per other player; default: as many as you)", "example": [3]})
    dealer_seat = StrictInteger(validate=validate.Range(0, 5), metadata={
        "description": "Who dealt this hand, counted clockwise from you (0: you, 1: the player "
                       "on your left; default: 0 with dealer, else the player on your right)"})
    goes = fields.List(fields.Nested(GoSchema), load_default=list,
                       validate=validate.Length(0, 20), metadata={
        "description": "Every go said by another player in this hand, in any order"})
    played_by = fields.List(fields.Nested(PlayedBySchema), load_default=list,
                            validate=validate.Length(0, 25), metadata={
        "description": "Who played the cards of pile and seen that other players played in "
                       "this hand (their kept hands tell what they may still hold)"})
    own_score = StrictInteger(validate=validate.Range(0, 1000), metadata={
        "description": "Your side's score (default 0)", "doc_default": 0})
    opponent_score = StrictInteger(validate=validate.Range(0, 1000), metadata={
        "description": "The leading other side's score (default 0; with more than two sides "
                       "every other side is taken to have it)", "doc_default": 0})
    scores = fields.List(StrictInteger(validate=validate.Range(0, 999)),
                         validate=validate.Length(2, 6), metadata={
        "description": "Every side's score, yours first, then the other sides clockwise from "
                       "your left (instead of own_score and opponent_score). With more than "
                       "two sides it lets the end of the game be valued with every side's "
                       "need, as `hard` values it at the table",
        "example": [100, 118, 117]})
    target = StrictInteger(load_default=121, validate=validate.Range(31, 1000))
    dealer = StrictBoolean(load_default=False, metadata={
        "description": "You dealt this hand (you count last in the show)"})
    show_points = StrictInteger(validate=validate.Range(0, 46), metadata={
        "description": "Your hand's show points with the starter, when known (the endgame "
                       "uses them)"})
    exact_finish = StrictBoolean(load_default=False, metadata={
        "description": "The target must be reached exactly: points that would pass it are not "
                       "scored"})


class PlayOptionSchema(ma.Schema):
    card = CanonicalCard(required=True)
    points = fields.Integer(required=True, metadata={"description": "Points the card scores now"})
    expected_for = fields.Float(required=True, metadata={
        "description": "Expected points your side pegs from here to the end of the play, this "
                       "card included"})
    expected_against = fields.Float(required=True, metadata={
        "description": "Expected points the average other side pegs from here to the end of "
                       "the play"})
    expected = fields.Float(required=True, metadata={
        "description": "expected_for - expected_against: what the search maximises"})
    win_chance = fields.Float(required=True, allow_none=True, metadata={
        "description": "Near the end of the game (a side needs 31 points or fewer): your "
                       "side's chance to win after this card; null otherwise"})
    wins = fields.Boolean(required=True, metadata={"description": "The card reaches the target"})


class PlayAnalysisSchema(ma.Schema):
    count = fields.Integer(required=True)
    sampled_deals = fields.Integer(required=True, metadata={
        "description": "How many deals of the other hands the search played out (0: go)"})
    plays = fields.List(fields.Nested(PlayOptionSchema), required=True, metadata={
        "description": "Every card that fits under 31, best first (empty: you must say go)"})
    recommendation = fields.String(required=True, allow_none=True, metadata={
        "description": "What the `hard` computer player plays (null: go)", "example": "5H"})


class PositionRequestSchema(ma.Schema):
    scores = fields.List(StrictInteger(validate=validate.Range(0, 999)), required=True,
                         validate=validate.Length(2, 6), metadata={
                             "description": "Each side's score before the deal, one per side: "
                                            "one per player, or one per team (team k holds "
                                            "seats k, k + sides, ...)",
                             "example": [115, 115]})
    dealer = StrictInteger(required=True, validate=validate.Range(0, 5), metadata={
        "description": "The seat (0 to players - 1) that deals next: the deal about to begin"})
    players = StrictInteger(load_default=2, validate=validate.Range(2, 6))
    teams = fields.String(load_default=None, allow_none=True,
                          validate=validate.OneOf(list(TEAM_LAYOUTS)), metadata={
                              "description": "Team layout: 2x2 (4 players), 3x2 or 2x3 (6 "
                                             "players); null for no teams"})
    target = StrictInteger(load_default=121, validate=validate.Range(31, 1000))
    skunk = fields.String(load_default="standard", validate=validate.OneOf(["standard", "acc"]),
                          metadata={"description": "Skunk lines, as the game option"})


class PositionAnalysisSchema(ma.Schema):
    scores = fields.List(fields.Integer(), required=True)
    dealer = fields.Integer(required=True)
    players = fields.Integer(required=True)
    teams = fields.String(required=True, allow_none=True)
    target = fields.Integer(required=True)
    skunk = fields.String(required=True)
    win = fields.List(fields.Float(), required=True, metadata={
        "description": "Each side's chance to win the game", "example": [0.2338, 0.7662]})
    game_points = fields.List(fields.Float(), required=True, metadata={
        "description": "Each side's expected game points: a winner gains, from each losing "
                       "side, 1 or more for a skunk (by the skunk rule)",
        "example": [0.2338, 0.7662]})
