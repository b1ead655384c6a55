"""POST /v1/show/verify: a claimed count against the true one."""
from service.api.scoring import examples
from tests.api.conftest import problem

HAND, STARTER = ["5H", "5S", "6D", "4C"], "JH"  # worth 16


def verify(client, claimed, language=None, **extra):
    headers = {"Accept-Language": language} if language else {}
    return client.post("/v1/show/verify", json={"hand": HAND, "starter": STARTER,
                                                "claimed": claimed, **extra}, headers=headers)


def test_the_documented_example_is_what_the_route_answers(client):
    assert verify(client, examples.VERIFY_REQUEST["claimed"]).get_json() == \
        examples.VERIFY_RESPONSE


def test_a_correct_number_claim_misses_nothing(client):
    body = verify(client, 16).get_json()
    assert (body["correct"], body["missed"], body["overclaimed"]) == (True, 0, 0)
    assert body["explanation"] == "Claimed 16: correct."


def test_number_too_low_lists_the_count(client):
    body = verify(client, 12, language="es").get_json()
    assert (body["claimed"], body["actual"], body["missed"], body["overclaimed"]) == (12, 16, 4, 0)
    assert body["explanation"].startswith(
        "Declarados 12, valen 16. La cuenta es: quince con cinco de corazones y jota de "
        "corazones, por 2;")


def test_a_number_too_high_is_overclaimed_by_the_excess(client):
    body = verify(client, 20).get_json()
    assert (body["missed"], body["overclaimed"], body["correct"]) == (0, 4, False)


def test_items_in_any_order_and_notation(client):
    claimed = [{"kind": "run", "cards": ["6d", "4 of clubs", "5H"]},
               {"kind": "run", "cards": ["5S", "6D", "4C"]},
               {"kind": "pair", "cards": ["5S", "5H"]}]
    body = verify(client, claimed).get_json()
    assert (body["claimed"], body["missed"], body["overclaimed"]) == (8, 8, 0)
    assert [item["cards"] for item in body["missed_items"]] == [
        ["5H", "JH"], ["5S", "JH"], ["4C", "5H", "6D"], ["4C", "5S", "6D"]]
    assert body["explanation"] == (
        "Claimed 8, worth 16. Missed 8: fifteen 5H JH for 2; fifteen 5S JH for 2; "
        "fifteen 4C 5H 6D for 2; fifteen 4C 5S 6D for 2.")


def test_the_same_item_twice_counts_once(client):
    body = verify(client, [{"kind": "pair", "cards": ["5S", "5H"]},
                           {"kind": "pair", "cards": ["5H", "5S"]}]).get_json()
    assert body["wrong_items"] == [{"kind": "pair", "cards": ["5H", "5S"], "points": 2}]


def test_claimed_card_not_in_the_show(client):
    body = problem(verify(client, [{"kind": "pair", "cards": ["5S", "5D"]}]), 422,
                   "card_not_held")
    assert body["field"] == "claimed[0].cards[1]"


def test_claim_must_be_number_or_list(client):
    for claimed in ("12", True, -1, 1000, {"kind": "pair"}, None):
        problem(verify(client, claimed), 422, "validation_failed")
    for claimed in ("12", True, {"kind": "pair"}):
        body = problem(verify(client, claimed), 422, "validation_failed")
        assert body["errors"] == {"claimed": ["Expected a whole number of points or a list of items."]}
