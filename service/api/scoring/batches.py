"""Batches of shows and piles, scored as a compute job (service.compute.jobs): each item loaded
with the single request's schema, refused items described in the request's language, the
valid ones scored. Nothing here needs a request, so a compute process runs it."""
from __future__ import annotations

from collections.abc import Callable

import marshmallow as ma

from service.api.item_errors import item_problem
from service.api.responses import card_texts
from service.api.scoring.schemas import PeggingRequestSchema, ShowRequestSchema
from service.cards import parse_cards
from service.errors import DomainError
from service.scoring import ScoreItem, score_pegging, score_show
from service.scoring.batch import show_totals

_SHOW = ShowRequestSchema()
_PILE = PeggingRequestSchema()


def items_json(items: tuple[ScoreItem, ...]) -> list[dict]:
    return [{"kind": item.kind, "cards": card_texts(item.cards), "points": item.points}
            for item in items]


def show_batch(body: dict, language: str) -> tuple[dict, list[dict]]:
    """The payload of POST /v1/show/batch, and the refused shows."""
    shows, errors = _load_items(body["shows"], "shows", _SHOW.load, language)
    valid = [show for show in shows if show is not None]
    scored = iter(show_totals([(show["hand"], show["starter"], show["crib"]) for show in valid]))
    totals = [None if show is None else next(scored) for show in shows]
    payload = _batch_summary(len(shows), errors, totals)
    payload["totals"] = totals
    if body["breakdown"]:
        payload["breakdowns"] = [
            None if show is None
            else items_json(score_show(show["hand"], show["starter"], show["crib"]).items)
            for show in shows]
    return payload, errors


def pegging_batch(body: dict, language: str) -> tuple[dict, list[dict]]:
    """The payload of POST /v1/pegging/batch, and the refused piles."""
    scores, errors = _load_items(body["piles"], "piles", _score_pile, language)
    points = [None if score is None else score.points for score in scores]
    payload = _batch_summary(len(scores), errors, points)
    payload["points"] = points
    payload["counts"] = [None if score is None else score.count for score in scores]
    if body["breakdown"]:
        payload["breakdowns"] = [None if score is None else items_json(score.items)
                                 for score in scores]
    return payload, errors


def _score_pile(item):
    return score_pegging(parse_cards(_PILE.load(item)["pile"], "pile"))


def _load_items(items: list, name: str, load: Callable, language: str):
    """Each item through `load`, None where it is refused, and the refusals by index."""
    loaded, errors = [], []
    for index, item in enumerate(items):
        try:
            loaded.append(load(item))
        except (ma.ValidationError, DomainError) as error:
            loaded.append(None)
            errors.append({"index": index, **item_problem(error, f"{name}[{index}]", language)})
    return loaded, errors


def _batch_summary(count: int, errors: list[dict], points: list[int | None]) -> dict:
    return {"count": count, "scored": count - len(errors), "failed": len(errors),
            "sum": sum(value for value in points if value is not None), "errors": errors}
