"""Stateless scoring endpoints: a show, a claimed count, a pegging card, a whole play."""
from __future__ import annotations

from service.api.blueprint import Blueprint
from service.api.compute import compute
from service.api.language import request_language
from service.api.problems import Problem
from service.api.responses import (
    BODY_ERRORS,
    card_texts,
    document_errors,
    json_response,
)
from service.api.scoring import examples
from service.api.scoring.batches import items_json
from service.api.scoring.schemas import (
    PeggingBatchRequestSchema,
    PeggingBatchSchema,
    PeggingRequestSchema,
    PeggingScoreSchema,
    ReplayRequestSchema,
    ReplaySchema,
    ShowBatchRequestSchema,
    ShowBatchSchema,
    ShowRequestSchema,
    ShowScoreSchema,
    VerifyRequestSchema,
    VerifySchema,
)
from service.cards import CardNotHeldError, parse_card, parse_cards
from service.compute import ANALYSIS
from service.scoring import check_claim, replay, score_pegging, score_show
from service.speech import claim_explanation, pegging_summary, show_summary

blp = Blueprint("scoring", __name__, description="Score a show, a claim, a pegging card or a "
                                                 "whole play, statelessly")


@blp.route("/v1/show/score", methods=["POST"])
@blp.doc(operationId="scoreShow")
@blp.arguments(ShowRequestSchema, example=examples.SHOW_REQUEST)
@document_errors(blp, *BODY_ERRORS, refusals="the same card twice under two names, or the "
                                             "starter also in the hand (duplicate_card)")
@blp.documented_response(200, ShowScoreSchema, example=examples.SHOW_RESPONSE)
def show_score(body):
    """Score a hand or crib with the starter

    Every fifteen, pair, run, flush and nobs, and the count as a player says it."""
    hand, starter, crib = body["hand"], body["starter"], body["crib"]
    score = score_show(hand, starter, crib)
    return json_response({
        "hand": card_texts(hand), "starter": starter.text, "crib": crib, "total": score.total,
        "breakdown": items_json(score.items),
        "summary": show_summary(score.items, score.total, request_language()),
    })


@blp.route("/v1/show/verify", methods=["POST"])
@blp.doc(operationId="verifyShow")
@blp.arguments(VerifyRequestSchema, examples=examples.VERIFY_REQUESTS)
@document_errors(blp, *BODY_ERRORS, refusals="the same card twice under two names, or the "
                                             "starter also in the hand (duplicate_card), a "
                                             "claimed combination naming a card not shown "
                                             "(card_not_held)")
@blp.documented_response(200, VerifySchema, example=examples.VERIFY_RESPONSE)
def show_verify(body):
    """Check a claimed count of a hand or crib

    The true count against the claim: points missed (the muggins amount) and overclaimed, each
    missed or wrong combination, and an explanation in the request's language."""
    hand, starter, crib = body["hand"], body["starter"], body["crib"]
    claimed = body["claimed"]
    itemised = not isinstance(claimed, int)
    if itemised:
        shown = (*hand, starter)
        claimed = [(item["kind"], _claimed_cards(item["cards"], index, shown))
                   for index, item in enumerate(claimed)]
    check = check_claim(hand, starter, crib, claimed)
    return json_response({
        "hand": card_texts(hand), "starter": starter.text, "crib": crib,
        "claimed": check.claimed, "actual": check.actual,
        "correct": not check.missed and not check.overclaimed,
        "missed": check.missed, "overclaimed": check.overclaimed,
        "missed_items": items_json(check.missed_items),
        "wrong_items": items_json(check.wrong_items),
        "breakdown": items_json(check.breakdown),
        "explanation": claim_explanation(check, itemised, request_language()),
    })


def _claimed_cards(card_texts, index, shown):
    field = f"claimed[{index}].cards"
    cards = parse_cards(card_texts, field)
    for position, card in enumerate(cards):
        if card not in shown:
            raise CardNotHeldError(f"{field}[{position}]: {card} is not in the show",
                                   field=field, index=position, card=card.text)
    return cards


@blp.route("/v1/pegging/score", methods=["POST"])
@blp.doc(operationId="scorePegging")
@blp.arguments(PeggingRequestSchema, example=examples.PEGGING_REQUEST)
@document_errors(blp, *BODY_ERRORS, refusals="the same card twice under two names "
                                             "(duplicate_card), a pile counting over 31 "
                                             "(count_exceeds_31)")
@blp.documented_response(200, PeggingScoreSchema, example=examples.PEGGING_RESPONSE)
def pegging_score(body):
    """Score the last card played in the play

    Points for the last card of the pile (the cards since the count was last reset): fifteen,
    thirty-one, pair, three or four of a kind, run. A count over 31 is a 422."""
    pile = parse_cards(body["pile"], "pile")
    score = score_pegging(pile)
    return json_response({
        "pile": card_texts(pile), "count": score.count, "points": score.points,
        "breakdown": items_json(score.items),
        "summary": pegging_summary(score.count, score.points, request_language()),
    })


@blp.route("/v1/pegging/replay", methods=["POST"])
@blp.doc(operationId="replayPegging")
@blp.arguments(ReplayRequestSchema, examples=examples.REPLAY_REQUESTS)
@document_errors(blp, *BODY_ERRORS, refusals=(
    "`plays` and `cards` both or neither (validation_failed), a card played twice "
    "(duplicate_card), a sequence the rules rule out: a count over 31 (count_exceeds_31), a "
    "seat past the players (seat_out_of_range) or out of turn (play_out_of_turn), a player who "
    "could play skipped (play_skipped_playable), the wrong number of plays for a seat or in all "
    "(wrong_play_count, wrong_total_plays), cards no seating fits (seats_not_inferable)"))
@blp.documented_response(200, ReplaySchema, example=examples.REPLAY_RESPONSE)
def pegging_replay(body):
    """Replay the whole play of one hand

    Each play's count and points, every go and last card with the seat that earned it, the
    resets and the totals per seat. An impossible sequence (a player who could play skipped, a
    count over 31, a card played twice, too many cards for a seat) is a 422 naming the play."""
    if "plays" in body:
        seats = [play["seat"] for play in body["plays"]]
        card_texts = [play["card"] for play in body["plays"]]
    else:
        seats, card_texts = None, body["cards"]
    cards = [parse_card(text, "plays", index) for index, text in enumerate(card_texts)]
    result = replay(body["players"], body["dealer"], cards, seats)
    return json_response({
        "players": result.players, "dealer": result.dealer, "seats_inferred": seats is None,
        "plays": [{"index": play.index, "seat": play.seat, "card": play.card.text,
                   "count": play.count, "points": play.points,
                   "breakdown": items_json(play.items)} for play in result.plays],
        "go_points": [{"seat": go.seat, "kind": go.kind, "points": go.points,
                       "after_play": go.after_play, "count": go.count}
                      for go in result.go_points],
        "resets": [{"after_play": reset.after_play, "count": reset.count}
                   for reset in result.resets],
        "passes": [{"seat": gone.seat, "before_play": gone.before_play, "count": gone.count}
                   for gone in result.passes],
        "totals": list(result.totals),
    })


# Batches ---------------------------------------------------------------------------------------
# A batch's body may be larger than any other request's: 10,000 shows in words fit.
MAX_BATCH_BODY_BYTES = 2 * 1024 * 1024


@blp.route("/v1/show/batch", methods=["POST"])
@blp.doc(operationId="scoreShowBatch")
@blp.arguments(ShowBatchRequestSchema, example=examples.SHOW_BATCH_REQUEST,
               body_limit=MAX_BATCH_BODY_BYTES)
@document_errors(blp, *BODY_ERRORS, body_limit=MAX_BATCH_BODY_BYTES,
                 refusals="with `all_or_nothing`, any invalid show (invalid_items)")
@blp.documented_response(200, ShowBatchSchema, example=examples.SHOW_BATCH_RESPONSE)
def show_batch(body):
    """Score up to 10,000 shows in one request

    Each show as `POST /v1/show/score` takes it. The answer lists each show's total (and, on
    request, its breakdown) in order, and the refused shows by index with what is wrong with
    them; the others are scored all the same, unless `all_or_nothing` is set."""
    return json_response(_scored_batch("show_batch", body))


@blp.route("/v1/pegging/batch", methods=["POST"])
@blp.doc(operationId="scorePeggingBatch")
@blp.arguments(PeggingBatchRequestSchema, example=examples.PEGGING_BATCH_REQUEST,
               body_limit=MAX_BATCH_BODY_BYTES)
@document_errors(blp, *BODY_ERRORS, body_limit=MAX_BATCH_BODY_BYTES,
                 refusals="with `all_or_nothing`, any invalid pile (invalid_items)")
@blp.documented_response(200, PeggingBatchSchema, example=examples.PEGGING_BATCH_RESPONSE)
def pegging_batch(body):
    """Score the last card of up to 10,000 piles in one request

    Each pile as `POST /v1/pegging/score` takes it. The answer lists each pile's points
    and count (and, on request, the breakdown) in order, and the refused piles by index with
    what is wrong with them (a count over 31 among them); the others are scored all the same,
    unless `all_or_nothing` is set."""
    return json_response(_scored_batch("pegging_batch", body))


def _scored_batch(kind: str, body: dict) -> dict:
    """A batch scored by the compute tier (10,000 items cost a few hundred ms of CPU): its
    payload, or, with all_or_nothing and a refused item, a 422 listing every refused item."""
    payload, errors = compute().run(kind, (body, request_language()), ANALYSIS)
    if errors and body["all_or_nothing"]:
        raise Problem(422, "invalid_items", f"{len(errors)} invalid items", count=len(errors),
                      first=errors[0]["detail"], extra={"items": errors})
    return payload

