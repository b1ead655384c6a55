"""Analysis endpoints: the coach behind the `hard` computer player, for discards and the play."""
from __future__ import annotations

from fractions import Fraction
from math import comb

from service.api.analysis import examples
from service.api.analysis.schemas import (DiscardAnalysisSchema, DiscardRequestSchema,
                                          PlayAnalysisSchema, PlayRequestSchema)
from service.api.blueprint import Blueprint
from service.api.responses import BODY_ERRORS, card_texts, document_errors, json_response
from service.bots.discard import analyse_discard, crib_weight
from service.bots.pegging import PlayPosition, PlayPositionError, analyse_play
from service.cards import parse_cards

blp = Blueprint("analysis", __name__, description="Coach: every discard and every card to play, "
                                                  "with exact expectations")

DECIMALS = 4

def _number(value: Fraction) -> float:
    return round(float(value), DECIMALS)


# Views -----------------------------------------------------------------------------------------
@blp.route("/v1/analysis/discard", methods=["POST"])
@blp.doc(operationId="analyseDiscard", summary="Rank every discard by exact expected points")
@blp.arguments(DiscardRequestSchema, example=examples.DISCARD_REQUEST)
@document_errors(blp, *BODY_ERRORS, refusals=(
    "the same card twice under two names (duplicate_card), a hand of a size no player is dealt "
    "with this many players (wrong_hand_size), the dealer's hand without own_crib "
    "(dealer_owns_crib), teams that do not fit the players (invalid_teams)"))
@blp.documented_response(200, DiscardAnalysisSchema, example=examples.DISCARD_RESPONSE)
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
    hand = parse_cards(body["hand"], "hand")
    players, own_crib, teams = body["players"], body["own_crib"], body["teams"]
    options = analyse_discard(hand, players=players, own_crib=own_crib, teams=teams)
    best = options[0]
    starters = 52 - len(hand)
    others = (5 if players == 6 else 4) - len(best.discard)
    return json_response({
        "hand": card_texts(hand), "players": players, "own_crib": own_crib, "teams": teams,
        "crib_weight": _number(crib_weight(own_crib, players, teams)),
        "starters": starters, "crib_cases": _crib_cases(starters, others),
        "discards": [{
            "discard": card_texts(option.discard), "keep": card_texts(option.keep),
            "expected_hand": _number(option.hand), "expected_crib": _number(option.crib),
            "net": _number(option.net), "hand_min": option.hand_min,
            "hand_max": option.hand_max,
            "exact": {"hand": str(option.hand), "crib": str(option.crib),
                      "net": str(option.net)},
        } for option in options],
        "recommendation": {"discard": card_texts(best.discard), "keep": card_texts(best.keep)},
    })


def _crib_cases(unseen: int, others: int) -> int:
    return comb(unseen, others) * (unseen - others)


@blp.route("/v1/analysis/play", methods=["POST"])
@blp.doc(operationId="analysePlay", summary="Rank every card you may play")
@blp.arguments(PlayRequestSchema, example=examples.PLAY_REQUEST)
@document_errors(blp, *BODY_ERRORS, refusals=(
    "the same card twice under two names (duplicate_card) or in two lists (card_seen_twice), a "
    "pile counting over 31 (count_exceeds_31) or exactly 31 (count_is_31), a count that is "
    "not the pile's (count_mismatch), more cards than a player holds (too_many_cards, "
    "invalid_next_cards), a score already at the target (game_already_won)"))
@blp.documented_response(200, PlayAnalysisSchema, example=examples.PLAY_RESPONSE)
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
    hand = parse_cards(body["hand"], "hand")
    pile = parse_cards(body["pile"], "pile")
    seen = parse_cards(body["seen"], "seen")
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
