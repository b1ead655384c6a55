"""Batch scoring: many shows or piles in one request, each refused item named by index."""
import json

from service.api.scoring.views import MAX_BATCH_BODY_BYTES

FIVES = {"hand": ["5H", "5S", "6D", "4C"], "starter": "JH"}


def test_shows_are_scored_in_order_with_breakdowns(client):
    response = client.post("/v1/show/batch", json={"breakdown": True, "shows": [
        FIVES, {"hand": ["5C", "5D", "5S", "JH"], "starter": "5H"},
        {"hand": ["2H", "4H", "6H", "8H"], "starter": "KS", "crib": True},
        {"hand": ["AH", "2C", "3D", "4S", "KH"], "starter": "5D"}]})
    assert response.status_code == 200
    body = response.get_json()
    assert {key: body[key] for key in ("count", "scored", "failed", "sum", "errors", "totals")} \
        == {"count": 4, "scored": 4, "failed": 0, "sum": 58, "errors": [],
            "totals": [16, 29, 0, 13]}
    single = client.post("/v1/show/score", json=FIVES).get_json()
    assert body["breakdowns"][0] == single["breakdown"]
    assert body["breakdowns"][2] == []


def test_a_bad_show_fails_only_itself_in_the_callers_language(client):
    response = client.post("/v1/show/batch", headers={"Accept-Language": "es"}, json={"shows": [
        {"hand": ["5H", "5H", "2C", "3C"], "starter": "4D"}, FIVES, {"hand": "x"}, 7]})
    assert response.status_code == 200
    assert response.get_json() == {
        "count": 4, "scored": 1, "failed": 3, "sum": 16, "totals": [None, 16, None, None],
        "errors": [
            {"index": 0, "code": "duplicate_card", "field": "shows[0].hand[1]",
             "detail": "shows[0].hand[1]: 5H aparece más de una vez"},
            {"index": 2, "code": "validation_failed", "field": "shows[2].hand",
             "detail": "La petición no es válida: shows[2].hand, shows[2].starter",
             "errors": {"shows[2].hand": ["No es una lista válida."],
                        "shows[2].starter": ["Falta este campo obligatorio."]}},
            {"index": 3, "code": "validation_failed", "field": "shows[3]",
             "detail": "La petición no es válida: shows[3]",
             "errors": {"shows[3]": ["Tipo de entrada no válido."]}}]}


def test_all_or_nothing_refuses_the_whole_batch(client):
    response = client.post("/v1/show/batch", json={"all_or_nothing": True, "shows": [
        FIVES, {"hand": ["5H", "5S", "6D", "4C"], "starter": "5H"}]})
    assert response.status_code == 422
    assert response.mimetype == "application/problem+json"
    assert response.get_json() == {
        "type": "urn:cribbage:problem:invalid_items", "title": "Invalid items", "status": 422,
        "code": "invalid_items",
        "detail": "1 of the batch's items are not valid; the first: shows[1].starter: 5H "
                  "appears more than once",
        "items": [{"index": 1, "code": "duplicate_card", "field": "shows[1].starter",
                   "detail": "shows[1].starter: 5H appears more than once"}]}


def test_piles_give_points_counts_and_refusals(client):
    response = client.post("/v1/pegging/batch", json={"breakdown": True, "piles": [
        {"pile": ["5H", "4S", "6D"]}, {"pile": ["KH", "QS", "JD", "5C"]}, {"pile": ["7C", "8C"]}]})
    assert response.status_code == 200
    assert response.get_json() == {
        "count": 3, "scored": 2, "failed": 1, "sum": 7, "points": [5, None, 2],
        "counts": [15, None, 15],
        "breakdowns": [[{"kind": "fifteen", "cards": ["5H", "4S", "6D"], "points": 2},
                        {"kind": "run", "cards": ["5H", "4S", "6D"], "points": 3}],
                       None, [{"kind": "fifteen", "cards": ["7C", "8C"], "points": 2}]],
        "errors": [{"index": 1, "code": "count_exceeds_31", "field": "piles[1].pile[3]",
                    "detail": "piles[1].pile[3]: the count reaches 35, over 31"}]}


def test_ten_thousand_shows_fit_and_one_more_does_not(client):
    shows = [FIVES] * 10_000
    response = client.post("/v1/show/batch", json={"shows": shows})
    assert response.status_code == 200
    assert response.get_json()["sum"] == 160_000
    response = client.post("/v1/show/batch", json={"shows": shows + [FIVES]})
    assert response.status_code == 422
    assert response.get_json()["errors"] == {"shows": ["Length must be between 1 and 10000."]}


def test_a_body_over_the_batch_limit_is_a_413_naming_it(client):
    body = json.dumps({"shows": [FIVES], "padding": " " * MAX_BATCH_BODY_BYTES})
    response = client.post("/v1/show/batch", data=body, content_type="application/json")
    assert response.status_code == 413
    assert response.get_json()["detail"] == \
        f"The request body is larger than {MAX_BATCH_BODY_BYTES} bytes"
