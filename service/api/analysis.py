"""Analysis endpoints: the coach behind the `hard` computer player, for discards and the play."""
from __future__ import annotations

from fractions import Fraction
from math import comb

import marshmallow as ma
from marshmallow import fields, validate

from service.api import analysis_examples as examples
from service.api.blueprint import Blueprint
from service.api.cardtext import parse_card_list
from service.api.responses import BODY_ERRORS, document_errors, json_response
from service.api.schemas import (StrictBoolean, StrictInteger, canonical_card, card_list,
                                 card_text)
from service.bots.discard import analyse_discard, crib_weight
from service.bots.pegging import PlayPosition, PlayPositionError, analyse_play
from service.i18n import register_problems

blp = Blueprint("analysis", __name__, description="Coach: every discard and every card to play, "
                                                  "with exact expectations")

DECIMALS = 4
TEAMS = ("2x2", "3x2", "2x3")

# Texts of this module's error codes, added to the shared problem catalogue.
register_problems({"en": {
    "wrong_hand_size": ("Wrong hand size",
                        "{field}: with {players} players a dealt hand has {expected} cards, not "
                        "{got}"),
    "dealer_owns_crib": ("The crib is the dealer's",
                         "{field}: a hand of {cards} cards with {players} players is the "
                         "dealer's, so the crib is yours"),
    "invalid_teams": ("Teams do not fit", "{field}: teams {teams} do not fit {players} players"),
    "card_seen_twice": ("Card in two places", "{where}: {card} is also in {first}"),
    "count_is_31": ("Count of 31", "{field}: at 31 the count starts again; send an empty pile"),
    "count_mismatch": ("Wrong count", "{field}: the pile counts {actual}, not {count}"),
    "too_many_cards": ("Too many cards", "{field}: a player holds at most {max} cards in the play"),
    "invalid_next_cards": ("Impossible hand size",
                           "{field}: the next player cannot hold {got} cards"),
    "game_already_won": ("Game already won", "{field}: a score has already reached {target}"),
}, "es": {
    "wrong_hand_size": ("Mano de tamaño incorrecto",
                        "{field}: con {players} jugadores se reparten {expected} cartas, no "
                        "{got}"),
    "dealer_owns_crib": ("La cuna es del repartidor",
                         "{field}: una mano de {cards} cartas con {players} jugadores es la del "
                         "repartidor, así que la cuna es suya"),
    "invalid_teams": ("Equipos imposibles",
                      "{field}: los equipos {teams} no encajan con {players} jugadores"),
    "card_seen_twice": ("Carta en dos sitios", "{where}: {card} también está en {first}"),
    "count_is_31": ("Cuenta de 31",
                    "{field}: en 31 la cuenta vuelve a empezar; envíe la mesa vacía"),
    "count_mismatch": ("Cuenta incorrecta", "{field}: la mesa suma {actual}, no {count}"),
    "too_many_cards": ("Demasiadas cartas",
                       "{field}: en el juego nadie tiene más de {max} cartas"),
    "invalid_next_cards": ("Mano imposible",
                           "{field}: el siguiente jugador no puede tener {got} cartas"),
    "game_already_won": ("Partida ya ganada", "{field}: un marcador ya ha llegado a {target}"),
}})


def _number(value: Fraction) -> float:
    return round(float(value), DECIMALS)


def _cards(cards) -> list[str]:
    return [str(card) for card in cards]


# Schemas ---------------------------------------------------------------------------------------
class DiscardRequestSchema(ma.Schema):
    hand = card_list(4, 6, "The cards dealt to you: 6 with 2 players, 5 with 3-5 players (the "
                           "dealer's 4 with 5 players), 6 with 6 players (the dealer's 5)",
                     ["5H", "5S", "JD", "6C", "4H", "KS"])
    players = StrictInteger(load_default=2, validate=validate.Range(2, 6))
    own_crib = StrictBoolean(required=True, metadata={
        "description": "The crib is yours: you deal, or (with teams) your partner deals"})
    teams = fields.String(load_default=None, allow_none=True, validate=validate.OneOf(TEAMS),
                          metadata={"description": "Team layout: 2x2 (4 players), 3x2 or 2x3 "
                                                   "(6 players); null for no teams"})


class ExactSchema(ma.Schema):
    hand = fields.String(required=True, metadata={"example": "367/23"})
    crib = fields.String(required=True)
    net = fields.String(required=True)


class DiscardOptionSchema(ma.Schema):
    discard = fields.List(canonical_card(), required=True)
    keep = fields.List(canonical_card(), required=True)
    expected_hand = fields.Float(required=True, metadata={
        "description": "Expected show points of the kept cards over every possible starter"})
    expected_crib = fields.Float(required=True, metadata={
        "description": "Expected points of the crib (see the operation's assumptions)"})
    net = fields.Float(required=True, metadata={
        "description": "expected_hand + crib_weight * expected_crib"})
    hand_min = fields.Integer(required=True, metadata={
        "description": "The kept cards' fewest show points over every possible starter"})
    hand_max = fields.Integer(required=True)
    exact = fields.Nested(ExactSchema, required=True, metadata={
        "description": "The same expectations as exact fractions"})


class DiscardChoiceSchema(ma.Schema):
    discard = fields.List(canonical_card(), required=True)
    keep = fields.List(canonical_card(), required=True)


class DiscardAnalysisSchema(ma.Schema):
    hand = fields.List(canonical_card(), required=True)
    players = fields.Integer(required=True)
    own_crib = fields.Boolean(required=True)
    teams = fields.String(required=True, allow_none=True)
    crib_weight = fields.Float(required=True, metadata={
        "description": "What one crib point is worth to you: 1 for your (or your team's) crib, "
                       "-1/(sides - 1) for another side's"})
    starters = fields.Integer(required=True, metadata={"description": "Possible starters"})
    crib_cases = fields.Integer(required=True, metadata={
        "description": "Equally likely (other crib cards, starter) combinations per discard"})
    discards = fields.List(fields.Nested(DiscardOptionSchema), required=True, metadata={
        "description": "Every possible discard, best net first"})
    recommendation = fields.Nested(DiscardChoiceSchema, required=True, metadata={
        "description": "What the `hard` computer player discards: the first of `discards`"})


class PlayRequestSchema(ma.Schema):
    hand = card_list(1, 5, "The cards you still hold", ["5H", "4S", "KD", "QC"])
    pile = fields.List(card_text(), load_default=list, validate=validate.Length(0, 13), metadata={
        "description": "The cards played since the count was last reset, in order",
        "example": ["10C"]})
    count = StrictInteger(validate=validate.Range(0, 31), metadata={
        "description": "The count (optional: it must be the pile's count)"})
    seen = fields.List(card_text(), load_default=list, validate=validate.Length(0, 47), metadata={
        "description": "Every other card you have seen: the starter, the cards played earlier "
                       "in this hand, your discards", "example": ["2C", "7H"]})
    next_cards = StrictInteger(validate=validate.Range(0, 5), metadata={
        "description": "How many cards the next player to act still holds (default: as many "
                       "as you)"})
    players = StrictInteger(load_default=2, validate=validate.Range(2, 6), metadata={
        "description": "Player count: a hand holds at most 4 cards in the play, 5 with 6 players"})
    own_score = StrictInteger(load_default=0, validate=validate.Range(0, 1000))
    opponent_score = StrictInteger(load_default=0, validate=validate.Range(0, 1000), metadata={
        "description": "The leading other side's score"})
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
    card = canonical_card()
    points = fields.Integer(required=True, metadata={"description": "Points the card scores now"})
    expected_for = fields.Float(required=True, metadata={
        "description": "points + the chance the next player cannot reply (you take the go)"})
    expected_against = fields.Float(required=True, metadata={
        "description": "Expected points of the next player's best reply"})
    value = fields.Float(required=True, metadata={
        "description": "expected_for - defence * expected_against"})
    wins = fields.Boolean(required=True, metadata={"description": "The card reaches the target"})


class PlayAnalysisSchema(ma.Schema):
    count = fields.Integer(required=True)
    defence = fields.Float(required=True, metadata={
        "description": "Weight of points against: 1, 3 when defending, 0.25 when attacking"})
    plays = fields.List(fields.Nested(PlayOptionSchema), required=True, metadata={
        "description": "Every card that fits under 31, best first (empty: you must say go)"})
    recommendation = fields.String(required=True, allow_none=True, metadata={
        "description": "What the `hard` computer player plays (null: go)", "example": "5H"})


# Views -----------------------------------------------------------------------------------------
@blp.route("/v1/analysis/discard", methods=["POST"])
@blp.doc(operationId="analyseDiscard", summary="Rank every discard by exact expected points")
@blp.arguments(DiscardRequestSchema, example=examples.DISCARD_REQUEST)
@document_errors(blp, *BODY_ERRORS)
@blp.response(200, DiscardAnalysisSchema, example=examples.DISCARD_RESPONSE)
def discard_analysis(body):
    """Every possible discard of a dealt hand with its exact expected hand and crib points.

    Assumptions: the starter and the crib cards that do not come from you (the other players'
    discards; with 3 players also the card from the deck) are uniformly random among the cards
    you have not seen (the 52 less your hand): every other player's discard is taken as a
    uniformly random choice, not a good player's. With 2 players that is every one of the
    1,035 opponent discards with each of the 44 remaining starters, counted exactly (no
    sampling). Net = hand + crib when the crib is yours or your partner's; hand - crib / (sides
    - 1) when it is another side's (with two sides: hand - crib). A hand of the dealer's size
    with 5 or 6 players keeps everything (one choice, discarding nothing). The result is
    deterministic; its first entry is what the `hard` computer player discards. Wrong hand
    sizes for the player count, teams that do not fit and repeated cards are 422s."""
    hand = parse_card_list(body["hand"], "hand")
    players, own_crib, teams = body["players"], body["own_crib"], body["teams"]
    options = analyse_discard(hand, players=players, own_crib=own_crib, teams=teams)
    best = options[0]
    starters = 52 - len(hand)
    others = (5 if players == 6 else 4) - len(best.discard)
    return json_response({
        "hand": _cards(hand), "players": players, "own_crib": own_crib, "teams": teams,
        "crib_weight": _number(crib_weight(own_crib, players, teams)),
        "starters": starters, "crib_cases": _crib_cases(starters, others),
        "discards": [{
            "discard": _cards(option.discard), "keep": _cards(option.keep),
            "expected_hand": _number(option.hand), "expected_crib": _number(option.crib),
            "net": _number(option.net), "hand_min": option.hand_min,
            "hand_max": option.hand_max,
            "exact": {"hand": str(option.hand), "crib": str(option.crib),
                      "net": str(option.net)},
        } for option in options],
        "recommendation": {"discard": _cards(best.discard), "keep": _cards(best.keep)},
    })


def _crib_cases(unseen: int, others: int) -> int:
    return comb(unseen, others) * (unseen - others)


@blp.route("/v1/analysis/play", methods=["POST"])
@blp.doc(operationId="analysePlay", summary="Rank every card you may play")
@blp.arguments(PlayRequestSchema, example=examples.PLAY_REQUEST)
@document_errors(blp, *BODY_ERRORS)
@blp.response(200, PlayAnalysisSchema, example=examples.PLAY_RESPONSE)
def play_analysis(body):
    """Each card you may play with the points it scores, its expected points for and against,
    and the card the `hard` computer player would play in this position.

    Assumptions: the next player to act holds `next_cards` cards drawn uniformly from the cards
    you have not seen (the 52 less your hand, the pile and `seen`) and replies with the card that
    scores them the most at once; expected_against is the exact expectation of that reply's
    points over every hand they may hold, and expected_for adds to your points the chance that
    they cannot reply, when you take the go. Cards are ranked by expected_for - defence *
    expected_against. The board changes the defence: 3 when you are not the dealer and your
    `show_points` will take you to the target in the show (only the dealer's pegging can stop
    you), 0.25 when you are the dealer and the leading other side needs 8 points or fewer (the
    pone counts first: pegging out is your only chance), else 1; a card that reaches the target
    is always first (with `exact_finish`, points that would pass the target score nothing).
    Ties go to the card of higher count value. Impossible positions (a count
    over 31, a card in two places, a count that is not the pile's, more cards than a player
    holds) are 422s."""
    hand = parse_card_list(body["hand"], "hand")
    pile = parse_card_list(body["pile"], "pile")
    seen = parse_card_list(body["seen"], "seen")
    position = PlayPosition(
        hand=hand, pile=pile, seen=seen, next_cards=body.get("next_cards"),
        own_score=body["own_score"], opponent_score=body["opponent_score"],
        target=body["target"], dealer=body["dealer"], show_points=body.get("show_points"),
        exact_finish=body["exact_finish"])
    _check_request(body, position)
    analysis = analyse_play(position)
    recommendation = analysis.recommendation
    return json_response({
        "count": position.count, "defence": _number(analysis.defence),
        "plays": [{"card": str(option.card), "points": option.points,
                   "expected_for": _number(option.expected_for),
                   "expected_against": _number(option.expected_against),
                   "value": _number(option.value), "wins": option.wins}
                  for option in analysis.options],
        "recommendation": None if recommendation is None else str(recommendation),
    })


def _check_request(body: dict, position: PlayPosition) -> None:
    """What the request adds to the position: a stated count and the hand size per players."""
    most = 5 if body["players"] == 6 else 4
    if len(position.hand) > most:
        raise PlayPositionError("too_many_cards", f"a player holds at most {most} cards",
                                field="hand", max=most, got=len(position.hand))
    if "count" in body and sum(card.value for card in position.pile) <= 31 \
            and body["count"] != position.count:
        raise PlayPositionError("count_mismatch", f"the pile counts {position.count}, not "
                                f"{body['count']}", field="count", count=body["count"],
                                actual=position.count)
