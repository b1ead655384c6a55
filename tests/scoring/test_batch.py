"""The batch scorer counts every show exactly as the one-show scorer does."""
import random

from service.cards import Card, parse_cards
from service.scoring import show_points
from service.scoring.batch import show_totals


def test_totals_in_order_across_sizes_and_kinds():
    shows = [
        (parse_cards(["5H", "5S", "6D", "4C"], "hand"), Card.parse("JH"), False),
        (parse_cards(["5C", "5D", "5S", "JH"], "hand"), Card.parse("5H"), False),
        (parse_cards(["2H", "4H", "6H", "8H"], "hand"), Card.parse("KS"), True),
        (parse_cards(["2H", "4H", "6H", "8H"], "hand"), Card.parse("KS"), False),
        (parse_cards(["AH", "2C", "3D", "4S", "KH"], "hand"), Card.parse("5D"), False),
    ]
    assert show_totals(shows) == [16, 29, 0, 4, 13]


def test_random_shows_agree_with_show_points():
    rng = random.Random(7)
    deck = [Card.parse(rank + suit) for rank in "A23456789TJQK" for suit in "SHDC"]
    shows = []
    for _ in range(2000):
        size = rng.choice((4, 5))
        cards = rng.sample(deck, size + 1)
        shows.append((cards[:-1], cards[-1], rng.random() < 0.5))
    assert show_totals(shows) == [show_points(hand, starter, crib=crib)
                                  for hand, starter, crib in shows]


def test_no_shows_no_totals():
    assert show_totals([]) == []
