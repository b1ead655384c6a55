"""POST /v1/show/score: the show of a hand or crib with the starter."""
import pytest

from tests.api.conftest import problem
from tests.golden import SHOWS, case_name, kinds


def score(client, hand, starter, crib=False, language=None):
    headers = {"Accept-Language": language} if language else {}
    return client.post("/v1/show/score", json={"hand": hand, "starter": starter, "crib": crib},
                       headers=headers)


@pytest.mark.parametrize("case", SHOWS, ids=case_name)
def test_a_golden_show_is_scored_exactly(client, case):
    response = score(client, case.hand, case.starter, case.crib)
    assert response.status_code == 200
    body = response.get_json()
    assert (body["hand"], body["starter"], body["crib"]) == (case.hand, case.starter, case.crib)
    assert body["total"] == case.total
    assert sum(item["points"] for item in body["breakdown"]) == case.total
    if case.breakdown is not None:
        assert body["breakdown"] == case.breakdown
    if case.kinds is not None:
        assert kinds((item["kind"], item["points"]) for item in body["breakdown"]) == case.kinds
    if case.summary is not None:
        assert body["summary"] == case.summary


def test_the_summary_is_spanish_when_spanish_is_preferred(client):
    response = score(client, ["5S", "4S", "2S", "6H"], "5H", language="es-ES,es;q=0.9,en;q=0.5")
    assert response.headers.getlist("Content-Language") == ["es"]
    assert response.headers.getlist("Vary") == ["Accept-Language"]
    assert response.get_json()["summary"] == \
        "quince dos, quince cuatro y una escalera doble de tres suman doce"


def test_any_notation_in_canonical_out(client):
    body = score(client, ["five of hearts", "5♠", "rey de diamantes", "t c"], "Jack of Hearts")\
        .get_json()
    assert body["hand"] == ["5H", "5S", "KD", "10C"]
    assert body["starter"] == "JH"
    assert body["total"] == 14  # each five with each of three ten-cards, and the pair of fives


def test_items_list_their_cards_by_rank_whatever_the_order_of_the_hand(client):
    first = score(client, ["JS", "8S", "2S", "7S"], "5S").get_json()
    again = score(client, ["7S", "2S", "JS", "8S"], "5S").get_json()
    assert first["breakdown"] == again["breakdown"] == [
        {"kind": "fifteen", "cards": ["5S", "JS"], "points": 2},
        {"kind": "fifteen", "cards": ["7S", "8S"], "points": 2},
        {"kind": "fifteen", "cards": ["2S", "5S", "8S"], "points": 2},
        {"kind": "flush", "cards": ["2S", "5S", "7S", "8S", "JS"], "points": 5},
        {"kind": "nobs", "cards": ["JS"], "points": 1},
    ]
    assert again["hand"] == ["7S", "2S", "JS", "8S"]  # the hand itself as it was sent


def test_crib_defaults_to_false(client):
    response = client.post("/v1/show/score", json={"hand": ["2H", "4H", "6H", "8H"],
                                                   "starter": "KS"})
    assert response.get_json()["crib"] is False


def test_unknown_card_is_named(client):
    body = problem(score(client, ["5H", "5S", "banana", "4C"], "JH"), 422, "unknown_card")
    assert body["field"] == "hand[2]"
    assert body["index"] == 2
    assert body["detail"] == 'hand[2]: "banana" is not a card'


def test_unknown_card_in_spanish(client):
    body = problem(score(client, ["5H", "5S", "6D", "4C"], "XX", language="es"), 422,
                   "unknown_card")
    assert body["detail"] == 'starter: "XX" no es una carta'


def test_a_card_twice_in_the_hand_is_named(client):
    body = problem(score(client, ["5H", "5h", "6D", "4C"], "JH"), 422, "duplicate_card")
    assert body["field"] == "hand[1]"


def test_a_starter_also_in_the_hand_is_named(client):
    body = problem(score(client, ["5H", "5S", "6D", "4C"], "five of hearts"), 422,
                   "duplicate_card")
    assert body["field"] == "starter"


def test_a_hand_of_three_cards_is_refused_by_length(client):
    body = problem(score(client, ["5H", "5S", "6D"], "JH"), 422, "validation_failed")
    assert body["errors"] == {"hand": ["Length must be between 4 and 5."]}


def test_crib_must_be_a_boolean(client):
    response = client.post("/v1/show/score", json={"hand": ["2H", "4H", "6H", "8H"],
                                                   "starter": "KS", "crib": 1})
    assert problem(response, 422, "validation_failed")["errors"] == {
        "crib": ["Not a valid boolean."]}


def test_unknown_fields_are_rejected(client):
    response = client.post("/v1/show/score", json={"hand": ["2H", "4H", "6H", "8H"],
                                                   "starter": "KS", "cut": "5H"})
    assert problem(response, 422, "validation_failed")["errors"] == {"cut": ["Unknown field."]}


def test_the_seed_003_show_body_is_exact(client):
    response = client.post("/v1/show/score", json={"hand": ["6D", "JH", "4H", "7C"],
                                                   "starter": "5H"})
    assert response.status_code == 200
    assert response.get_json() == {
        "hand": ["6D", "JH", "4H", "7C"], "starter": "5H", "crib": False, "total": 9,
        "breakdown": [
            {"kind": "fifteen", "cards": ["5H", "JH"], "points": 2},
            {"kind": "fifteen", "cards": ["4H", "5H", "6D"], "points": 2},
            {"kind": "run", "cards": ["4H", "5H", "6D", "7C"], "points": 4},
            {"kind": "nobs", "cards": ["JH"], "points": 1},
        ],
        "summary": "fifteen two, fifteen four, a run of four and one for his nobs makes nine",
    }


def test_shows_of_one_shape_keep_their_own_cards(client):
    spanish = {"Accept-Language": "es"}
    first = client.post("/v1/show/score", headers=spanish,
                        json={"hand": ["5H", "5S", "6D", "4C"], "starter": "JH"}).get_json()
    second = client.post("/v1/show/score", headers=spanish,
                         json={"hand": ["4D", "6C", "5C", "5D"], "starter": "QS"}).get_json()
    assert first["breakdown"][:2] == [{"kind": "fifteen", "cards": ["5H", "JH"], "points": 2},
                                      {"kind": "fifteen", "cards": ["5S", "JH"], "points": 2}]
    assert second["breakdown"][:2] == [{"kind": "fifteen", "cards": ["5C", "QS"], "points": 2},
                                       {"kind": "fifteen", "cards": ["5D", "QS"], "points": 2}]
    assert second["hand"] == ["4D", "6C", "5C", "5D"]
    assert first["summary"] == second["summary"] == \
        "quince dos, quince cuatro, quince seis, quince ocho y una escalera doble de tres " \
        "suman dieciséis"
