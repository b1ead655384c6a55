"""The pictures: a show and a pegging board as SVG, worded in the request's language."""
from __future__ import annotations

from flask import Response

from service.api.blueprint import Blueprint
from service.api.images.examples import BOARD_EXAMPLE, SHOW_EXAMPLE
from service.api.images.schemas import BoardImageQuerySchema, ShowImageQuerySchema
from service.api.language import request_language
from service.api.messages import image_label
from service.api.problems import PROBLEM_MEDIA_TYPE, ProblemSchema
from service.api.responses import document_errors, problem_example
from service.drawing import ShowWords, Side, board_svg, show_svg
from service.scoring import score_show
from service.speech import item_text, show_summary

blp = Blueprint("images", __name__, description="Pictures of a show and of a pegging board, "
                                                "as SVG, for apps, chats and docs")

SVG_MEDIA_TYPE = "image/svg+xml"
# A picture is a document of its own when opened directly: it may run nothing, load nothing.
PICTURE_POLICY = "default-src 'none'; style-src 'unsafe-inline'"


def _svg_response(description: str, example: str) -> dict:
    return {200: {"description": description, "content": {SVG_MEDIA_TYPE: {
        "schema": {"type": "string"}, "example": example}}}}


def _query_problem(description: str, example: dict):
    return blp.alt_response(422, schema=ProblemSchema, content_type=PROBLEM_MEDIA_TYPE,
                            description=description, example=example)


@blp.route("/v1/show/image.svg", methods=["GET"])
@blp.doc(operationId="drawShow", responses=_svg_response(
    "The hand and the starter as cards, the points, each combination and the count in words",
    SHOW_EXAMPLE))
@blp.arguments(ShowImageQuerySchema, location="query")
@document_errors(blp, 500)
@_query_problem("A card that is not a card (unknown_card), a query parameter missing or out of "
                "its range (validation_failed), or what the schema cannot say: the same card "
                "twice under two names, or the starter also in the hand (duplicate_card)",
                problem_example(422, "unknown_card", {"where": "hand[2]", "text": "5X"},
                                field="hand[2]", index=2))
def draw_show(query):
    """Draw a show: the hand (or crib), the starter and its points

    The picture of what `scoreShow` answers, for a chat or a page (`<img src=...>`): each
    combination and the count as a player says it, in the request's language."""
    hand, starter, crib = query["hand"], query["starter"], query["crib"]
    language = request_language()
    score = score_show(hand, starter, crib)
    words = ShowWords(hand_label=image_label("crib" if crib else "hand", language),
                      starter_label=image_label("starter", language),
                      points_label=image_label("points", language),
                      items=[item_text(item, language) for item in score.items],
                      summary=show_summary(score.items, score.total, language))
    return _picture(show_svg(hand, starter, score.total, words))


@blp.route("/v1/board/image.svg", methods=["GET"])
@blp.doc(operationId="drawBoard", responses=_svg_response(
    "One track a side, its front peg at the score and its back peg at the score before",
    BOARD_EXAMPLE))
@blp.arguments(BoardImageQuerySchema, location="query")
@document_errors(blp, 500)
@_query_problem((
    "A query parameter is missing or out of its range, or what the schema cannot say: a score "
    "past the target, `previous` or `names` not one per score, a back peg ahead of its front "
    "peg (validation_failed)"), problem_example(
        422, "validation_failed", {"fields": "previous"},
        errors={"previous": ["A back peg is ahead of its front peg."]}))
def draw_board(query):
    """Draw a pegging board: 2 or 3 sides, both pegs of each

    The board of a game to `target` (121 by default), each side's name and score beside its
    peg colour."""
    language = request_language()
    scores = query["scores"]
    names = query.get("names") or [image_label("side", language, number=number + 1)
                                   for number in range(len(scores))]
    previous = query.get("previous") or [0] * len(scores)
    sides = [Side(*side) for side in zip(names, scores, previous)]
    title = image_label("board", language, target=query["target"]) + ": " + ", ".join(
        f"{side.name} {side.score}" for side in sides)
    return _picture(board_svg(sides, query["target"], title))


def _picture(svg: str) -> Response:
    response = Response(svg, content_type=f"{SVG_MEDIA_TYPE}; charset=utf-8")
    response.headers["Content-Security-Policy"] = PICTURE_POLICY
    response.headers["Cache-Control"] = "public, max-age=86400"
    return response
