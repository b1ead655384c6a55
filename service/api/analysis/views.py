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
from service.cards import parse_card, parse_cards

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
@blp.doc(operationId="analysePlay", summary="Rank every card you may play by expected points")
@blp.arguments(PlayRequestSchema, example=examples.PLAY_REQUEST)
@document_errors(blp, *BODY_ERRORS, refusals=(
    "the same card twice under two names (duplicate_card) or in two lists (card_seen_twice), a "
    "pile counting over 31 (count_exceeds_31) or exactly 31 (count_is_31), a count that is "
    "not the pile's (count_mismatch), more cards than a player holds (too_many_cards, "
    "invalid_next_cards), a score already at the target (game_already_won), teams that do not "
    "fit the players (invalid_teams), hand_sizes not one per other player (wrong_hand_sizes), a "
    "seat that is not another player's (seat_out_of_range), a dealer_seat that contradicts "
    "dealer (dealer_mismatch), a played_by card in neither pile nor seen (played_card_unseen), "
    "other hands the unseen cards cannot make with the goes said (impossible_hands)"))
@blp.documented_response(200, PlayAnalysisSchema, example=examples.PLAY_RESPONSE)
def play_analysis(body):
    """Each card you may play with the points it scores now and its expected points over the
    rest of the play, and the card the `hard` computer player plays in this position.

    The search: 48 times, the other players' hands are drawn without replacement from the cards
    you have not seen (the 52 less your hand, the pile and `seen`), each holding `hand_sizes`
    cards; a player who said go at count c holds only cards counting more than 31 - c; each deal
    is weighted by how much more often a strong player keeps such hands (with the cards
    `played_by` shows them to have played) than a random discard would. Each other player pegs by
    a policy drawn from a mix realistic for strong players (greedy 1 in 4; points now less the
    next player's expected best reply, 1 in 2; less half of it, 1 in 4); your own later cards
    follow the second. For each card you may play the rest of the play is simulated to its last
    card on the same deals. expected_for is what your side pegs from here, expected_against what
    the average other side pegs; cards are ranked by expected = expected_for -
    expected_against. Near the end of the game (a side needs 31 points or fewer) they are ranked
    by win_chance instead: pegging out first wins, and otherwise the show decides (the side
    without the crib counts first; your hand's `show_points` when given, other hands about 8
    and a crib about 4.5). A card that reaches the target is always first (with `exact_finish`,
    points that would pass the target score nothing); ties go to the card of higher count value.
    The result is deterministic: the same position always samples the same deals. Impossible
    positions are 422s."""
    hand = parse_cards(body["hand"], "hand")
    pile = parse_cards(body["pile"], "pile")
    seen = parse_cards(body["seen"], "seen")
    position = PlayPosition(
        hand=hand, pile=pile, seen=seen, players=body["players"], teams=body["teams"],
        hand_sizes=_hand_sizes(body, len(hand)), dealer_seat=_dealer_seat(body),
        goes=tuple((go["seat"], go["count"]) for go in body["goes"]),
        played_by=tuple((played["seat"], parse_card(played["card"], "played_by", index))
                        for index, played in enumerate(body["played_by"])),
        own_score=body["own_score"], opponent_score=body["opponent_score"],
        target=body["target"], show_points=body.get("show_points"),
        exact_finish=body["exact_finish"])
    _check_request(body, position)
    analysis = analyse_play(position)
    recommendation = analysis.recommendation
    return json_response({
        "count": position.count, "sampled_deals": analysis.sampled_deals,
        "plays": [{"card": str(option.card), "points": option.points,
                   "expected_for": _number(option.expected_for),
                   "expected_against": _number(option.expected_against),
                   "expected": _number(option.expected),
                   "win_chance": None if option.win_chance is None
                   else _number(option.win_chance),
                   "wins": option.wins}
                  for option in analysis.options],
        "recommendation": None if recommendation is None else str(recommendation),
    })


def _hand_sizes(body: dict, held: int) -> tuple[int, ...] | None:
    """hand_sizes, or next_cards for the player on your left and your hand size for the rest."""
    sizes = body.get("hand_sizes")
    next_cards = body.get("next_cards")
    if sizes is None:
        first = held if next_cards is None else next_cards
        return (first,) + (held,) * (body["players"] - 2)
    if next_cards is not None and sizes and sizes[0] != next_cards:
        raise PlayPositionError("invalid_next_cards", f"next_cards says {next_cards}, "
                                f"hand_sizes {sizes[0]}", field="next_cards", got=next_cards)
    return tuple(sizes)


def _dealer_seat(body: dict) -> int | None:
    dealer_seat = body.get("dealer_seat")
    if body["dealer"]:
        if dealer_seat not in (None, 0):
            raise PlayPositionError("dealer_mismatch", "dealer says you dealt, dealer_seat "
                                    f"says seat {dealer_seat}", field="dealer_seat",
                                    seat=dealer_seat)
        return 0
    return dealer_seat


def _check_request(body: dict, position: PlayPosition) -> None:
    """What the request adds to the position: a stated count and the hand size per players."""
    most = 5 if body["players"] == 6 else 4
    if len(position.hand) > most:
        raise PlayPositionError("too_many_cards", f"a player holds at most {most} cards",
                                field="hand", max=most, got=len(position.hand))
    for index, size in enumerate(position.sizes):
        if size > most:
            raise PlayPositionError("too_many_cards", f"a player holds at most {most} cards",
                                    field="hand_sizes", index=index, max=most, got=size)
    if "count" in body and sum(card.value for card in position.pile) <= 31 \
            and body["count"] != position.count:
        raise PlayPositionError("count_mismatch", f"the pile counts {position.count}, not "
                                f"{body['count']}", field="count", count=body["count"],
                                actual=position.count)
