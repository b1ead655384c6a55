"""The show's body filled in from a cached template is the body rendered afresh."""
import random

import orjson

from service.api.cardtext import card_texts
from service.api.show_body import show_body, show_payload
from service.cards import DECK, Card
from service.scoring import show_combinations


def rendered_afresh(hand, starter, crib, language) -> bytes:
    show = show_combinations(hand, starter, crib)
    return orjson.dumps(show_payload(card_texts(show.cards), card_texts((*hand, starter)), crib,
                                     show, language))


def filled_in(hand, starter, crib, language) -> bytes:
    return show_body(hand, starter, crib, show_combinations(hand, starter, crib), language)


def test_the_seed_003_show():
    hand, starter = [Card.parse(text) for text in ("6D", "JH", "4H", "7C")], Card.parse("5H")
    assert orjson.loads(filled_in(hand, starter, False, "en")) == {
        "hand": ["6D", "JH", "4H", "7C"], "starter": "5H", "crib": False, "total": 9,
        "breakdown": [
            {"kind": "fifteen", "cards": ["5H", "JH"], "points": 2},
            {"kind": "fifteen", "cards": ["4H", "5H", "6D"], "points": 2},
            {"kind": "run", "cards": ["4H", "5H", "6D", "7C"], "points": 4},
            {"kind": "nobs", "cards": ["JH"], "points": 1},
        ],
        "summary": "fifteen two, fifteen four, a run of four and one for his nobs makes nine",
    }


def test_shows_of_one_shape_share_a_template_but_not_their_cards():
    first = filled_in([Card.parse(text) for text in ("5H", "5S", "6D", "4C")], Card.parse("JH"),
                      False, "es")
    second = filled_in([Card.parse(text) for text in ("4D", "6C", "5C", "5D")], Card.parse("QS"),
                       False, "es")
    assert orjson.loads(first)["breakdown"][:2] == [
        {"kind": "fifteen", "cards": ["5H", "JH"], "points": 2},
        {"kind": "fifteen", "cards": ["5S", "JH"], "points": 2}]
    assert orjson.loads(second)["breakdown"][:2] == [
        {"kind": "fifteen", "cards": ["5C", "QS"], "points": 2},
        {"kind": "fifteen", "cards": ["5D", "QS"], "points": 2}]
    assert orjson.loads(second)["hand"] == ["4D", "6C", "5C", "5D"]
    assert orjson.loads(first)["summary"] == orjson.loads(second)["summary"] == \
        "quince dos, quince cuatro, quince seis, quince ocho y una escalera doble de tres " \
        "suman dieciséis"


def test_random_shows_byte_for_byte():
    rng = random.Random(11)
    for round_ in range(4000):
        cards = rng.sample(DECK, rng.choice((5, 6)))
        hand, starter = cards[:-1], cards[-1]
        crib, language = round_ % 2 == 0, ("en", "es")[round_ % 3 == 0]
        assert filled_in(hand, starter, crib, language) == \
            rendered_afresh(hand, starter, crib, language)
