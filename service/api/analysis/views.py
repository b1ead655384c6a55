"""Analysis endpoints: the coach behind the `hard` computer player, for discards and the play."""
from __future__ import annotations

from service.api.analysis import examples
from service.api.analysis.schemas import (DiscardAnalysisSchema, DiscardRequestSchema,
                                          PlayAnalysisSchema, PlayRequestSchema,
                                          PositionAnalysisSchema, PositionRequestSchema)
from service.api.blueprint import Blueprint
from service.api.compute import compute, cpu_client
from service.api.responses import BODY_ERRORS, document_errors, json_response
from service.bots.discard_report import rounded
from service.bots.pegging import TEAM_LAYOUTS, PlayPosition, PlayPositionError
from service.bots.side_race import check_score_count
from service.bots.win_probability import PositionError, check_position
from service.cards import parse_card, parse_cards
from service.compute import ANALYSIS

blp = Blueprint("analysis", __name__, description="Coach: every discard and every card to play, "
                                                  "with their expectations")


# Views -----------------------------------------------------------------------------------------
@blp.route("/v1/analysis/discard", methods=["POST"])
@blp.doc(operationId="analyseDiscard", summary="Rank every discard by expected points")
@blp.arguments(DiscardRequestSchema, examples=examples.DISCARD_REQUESTS)
@document_errors(blp, *BODY_ERRORS, refusals=(
    "the same card twice under two names (duplicate_card), a hand of a size no player is dealt "
    "with this many players (wrong_hand_size), the dealer's hand without own_crib "
    "(dealer_owns_crib), teams that do not fit the players (invalid_teams), scores with "
    "own_score or opponent_score (scores_given_twice), not one score per side "
    "(wrong_score_count), a dealer_seat that is not a seat (dealer_out_of_range) or disagrees "
    "with own_crib (crib_owner_mismatch) or, with 5-6 players, with the hand's size "
    "(dealer_hand_mismatch), a score already at the target (game_already_won)"))
@blp.documented_response(200, DiscardAnalysisSchema, examples=examples.DISCARD_RESPONSES)
def discard_analysis(body):
    """Every possible discard of a dealt hand with its expected hand and crib points, the crib
    valued two ways.

    Uniform crib (`uniform_crib`, `uniform_net`, and `exact` as fractions): the starter and the
    crib cards that do not come from you (the other players' discards; with 3 players also the
    card from the deck) are uniformly random among the cards you have not seen (the 52 less
    your hand). With 2 players that is every one of the 1,035 opponent discards with each of
    the 44 remaining starters, counted exactly (no sampling). Weighted crib (`expected_crib`,
    `net`): the other players discard as a good player of their role does (into their own
    side's crib or into another side's), by discard tables made by iterating from the `hard`
    player's own discards until they settle; your hand removes the cards you hold from theirs,
    and only fifteens, pairs and runs are weighted (flushes and nobs keep the uniform value).
    Net = hand + crib when the crib is yours or your partner's; hand - crib / (sides - 1) when
    it is another side's (with two sides: hand - crib). Discards are ranked by the weighted
    net (ties: the uniform net). A hand of the dealer's size with 5 or 6 players keeps
    everything (one choice, discarding nothing). The result is deterministic; its first entry
    is what the `hard` computer player discards, but near the end of a game (a side needs 40
    points or fewer): then `win` is each discard's chance to win the game (see
    analysePosition: your show exact over every starter, the crib the model's moved to the
    discard's expected crib, every other show and the deals after the model's) and the
    recommendation is the best chance, as `hard` plays. With two players the scores suffice;
    with more, give every side's score (`scores`) and the dealer (`dealer_seat`), which `hard`
    knows at the table (in games with exact_finish, which this endpoint does not take, `hard`
    keeps the net's order). Wrong hand sizes for the player count, teams that do not fit, repeated
    cards, scores given twice or not one per side, a dealer_seat that disagrees with own_crib
    or with the hand's size and a score already at the target are 422s."""
    scores = body.get("scores")
    if scores is not None and ("own_score" in body or "opponent_score" in body):
        raise PositionError("scores_given_twice", "give scores, or own_score and "
                            "opponent_score, not both", field="scores")
    report, _ = compute().run("discard_report", (
        parse_cards(body["hand"], "hand"), body["players"], body["own_crib"], body["teams"],
        (body.get("own_score", 0), body.get("opponent_score", 0)), body["target"],
        body["skunk"], scores, body.get("dealer_seat")), ANALYSIS, client=cpu_client())
    return json_response(report)


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
    "other hands the unseen cards cannot make with the goes said (impossible_hands), scores "
    "with own_score or opponent_score (scores_given_twice), not one score per side "
    "(wrong_score_count)"))
@blp.documented_response(200, PlayAnalysisSchema, example=examples.PLAY_RESPONSE)
def play_analysis(body):
    """Each card you may play with the points it scores now and its expected points over the
    rest of the play, and the card the `hard` computer player plays in this position.

    The search: 12 to 144 times (a budget of 3,000 simulated cards with two players, 1,500
    with more), the other players' hands are drawn without replacement from the cards you have
    not seen (the 52 less your hand, the pile and `seen`), each holding `hand_sizes` cards; a
    player who said go at count c holds only cards counting more than 31 - c; a drawn hand is
    kept with a chance proportional to how much more often a strong player keeps such hands
    (with the cards `played_by` shows them to have played) than a random discard would, and
    drawn again otherwise. Each other player pegs by
    a policy drawn from a mix realistic for strong players (greedy 1 in 4; points now less the
    next player's expected best reply, 1 in 2; less half of it, 1 in 4); your own later cards
    follow the second. For each card you may play the rest of the play is simulated to its last
    card on the same deals. expected_for is what your side pegs from here, expected_against what
    the average other side pegs; cards are ranked by expected = expected_for -
    expected_against. Near the end of the game (a side needs 31 points or fewer) they are ranked
    by win_chance instead: pegging out first wins, and otherwise the shows in counting order
    and the deals after decide (two players: the model of analysePosition, your hand's
    `show_points` when given; with more players and every side's `scores`: each side plays to
    its own need, the shows count clockwise from the dealer's left, then the dealer's hand and
    the crib, the first side whose show reaches its need wins, and the deals after are the
    sides' races of analysePosition; with only `opponent_score`, or `exact_finish`, a rule that
    knows only the leading other side: other hands about 8 points, a crib about 4.5). A card
    that reaches the target is always first (with `exact_finish`,
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
        **_scores(body), target=body["target"], show_points=body.get("show_points"),
        exact_finish=body["exact_finish"])
    _check_request(body, position)
    analysis = compute().run("analyse_play", (position,), ANALYSIS, client=cpu_client())
    recommendation = analysis.recommendation
    return json_response({
        "count": position.count, "sampled_deals": analysis.sampled_deals,
        "plays": [{"card": str(option.card), "points": option.points,
                   "expected_for": rounded(option.expected_for),
                   "expected_against": rounded(option.expected_against),
                   "expected": rounded(option.expected),
                   "win_chance": None if option.win_chance is None
                   else rounded(option.win_chance),
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


def _scores(body: dict) -> dict:
    """The position's scores: own_score and opponent_score, or every side's from `scores`."""
    scores = body.get("scores")
    if scores is None:
        return {"own_score": body.get("own_score", 0),
                "opponent_score": body.get("opponent_score", 0)}
    if "own_score" in body or "opponent_score" in body:
        raise PositionError("scores_given_twice", "give scores, or own_score and "
                            "opponent_score, not both", field="scores")
    players, teams = body["players"], body["teams"]
    if teams is None or TEAM_LAYOUTS[teams][0] == players:  # else the position refuses teams
        check_score_count(scores, TEAM_LAYOUTS[teams][1] if teams else players)
    check_position(scores, body["target"], ("scores",) * len(scores))
    return {"own_score": scores[0], "opponent_score": max(scores[1:]),
            "other_scores": tuple(scores[1:])}


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


@blp.route("/v1/analysis/position", methods=["POST"])
@blp.doc(operationId="analysePosition", summary="Each side's chance to win from a score")
@blp.arguments(PositionRequestSchema, examples=examples.POSITION_REQUESTS)
@document_errors(blp, *BODY_ERRORS, refusals=(
    "teams that do not fit the players (invalid_teams), not one score per side "
    "(wrong_score_count), a dealer that is not a seat (dealer_out_of_range), a score already at "
    "the target (game_already_won)"))
@blp.documented_response(200, PositionAnalysisSchema, examples=examples.POSITION_RESPONSES)
def position_analysis(body):
    """The chance each side (player or team) wins the game, and its expected game points, from
    the scores at the start of a deal and the seat that deals it, for 2-6 players and the team
    layouts.

    Model: deals like those of the `hard` computer player playing itself in the same layout,
    and dynamic programming over the deal cycle to the target, the counting order deciding who
    gets there first (the play card by card, then the shows clockwise from the dealer's left,
    the dealer's hand, the crib). Two players: the exact model (the joint points of the play
    and who pegs a given number first, the pone's show, the dealer's hand and crib; the play
    and the two shows independent). At 0-0 in a game to 121 the first dealer wins about 56%;
    at 115-115 the pone is favoured (it counts first), at 120-120 the dealer (it usually pegs
    first). Three or more players, or teams: each side's own race to the target by the same
    programme (its points in the play, the card of the play at which it reaches a need, each
    of its seats' shows), the sides taken as independent; two sides reaching the target on the
    same card of the play share the win. Applied to two players this approximation differs
    from the exact model by 0.004 on average, at most 0.04 (a few points from the end, where
    the play decides). Game points: the winner gains from each losing side 1, or more below the
    skunk lines, judged on the loser's score when the game ends (at the start of the deal while
    the play is on). Tables are built per target and skunk rule on first use (the 121 game's
    first); later queries take a few milliseconds or less. A score already at the target,
    not one score per side, a dealer who is not a seat and teams that do not fit the players
    are 422s."""
    scores, dealer = tuple(body["scores"]), body["dealer"]
    value = compute().run("position_value", (scores, dealer, body["players"], body["teams"],
                                             body["target"], body["skunk"]),
                          ANALYSIS, client=cpu_client())
    return json_response({
        "scores": list(scores), "dealer": dealer, "players": body["players"],
        "teams": body["teams"], "target": body["target"], "skunk": body["skunk"],
        "win": [rounded(chance) for chance in value.win],
        "game_points": [rounded(points) for points in value.game_points]})
