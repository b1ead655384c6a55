"""A claimed count against the true one."""
from service.cards import Card
from service.scoring import check_claim


def cards(text):
    return [Card.parse(token) for token in text.split()]


HAND, STARTER = cards("5H 5S 6D 4C"), Card.parse("JH")  # worth 16


def summary(check):
    return check.claimed, check.actual, check.missed, check.overclaimed


def test_a_number_claim_is_missed_or_overclaimed_by_its_difference():
    assert summary(check_claim(HAND, STARTER, False, 16)) == (16, 16, 0, 0)
    assert summary(check_claim(HAND, STARTER, False, 10)) == (10, 16, 6, 0)
    assert summary(check_claim(HAND, STARTER, False, 19)) == (19, 16, 0, 3)


def test_item_claims_match_in_any_order():
    claimed = [("run", cards("6D 5S 4C")), ("pair", cards("5S 5H")),
               ("flush", cards("5H 5S 6D 4C")), ("nobs", cards("JH"))]
    check = check_claim(HAND, STARTER, False, claimed)
    assert summary(check) == (10, 16, 11, 5)
    assert [item.kind for item in check.missed_items] == ["fifteen"] * 4 + ["run"]
    assert [(item.kind, item.points) for item in check.wrong_items] == [("flush", 4), ("nobs", 1)]


def test_missed_is_the_muggins_amount_of_an_exact_item_claim():
    check = check_claim(HAND, STARTER, False, [])
    assert (check.claimed, check.missed, len(check.missed_items)) == (0, 16, 7)
