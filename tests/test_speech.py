"""Spoken summaries of a show: the shapes players name."""
import pytest

from service.cards import Card
from service.scoring import ScoreItem, score_show
from service.speech import item_text, pegging_summary, show_summary


def say(hand: str, starter: str, language: str = "en", crib: bool = False) -> str:
    cards = [Card.parse(text) for text in (*hand.split(), starter)]
    score = score_show(cards[:-1], cards[-1], crib)
    return show_summary(score.items, score.total, language)


@pytest.mark.parametrize("hand, starter, english, spanish", [
    ("2S 2H 3D 4C", "9H", "fifteen two, fifteen four and a double run of three makes twelve",
     "quince dos, quince cuatro y una escalera doble de tres suman doce"),
    ("KS KH KD QC", "JH", "a triple run of three makes fifteen",
     "una escalera triple de tres suman quince"),
    ("2S 3H 3D 4C", "4H", "a double double run of three makes sixteen",
     "una escalera cuádruple de tres suman dieciséis"),
    ("AS 2H 3D 4C", "KH", "fifteen two, fifteen four and a run of four makes eight",
     "quince dos, quince cuatro y una escalera de cuatro suman ocho"),
    ("9S 9H 9D KC", "2H", "a pair royal makes six", "un trío suman seis"),
    ("AH 3H 7H 9H", "KS", "a flush of four makes four", "un color de cuatro suman cuatro"),
    ("AH 3S 7D 9C", "QS", "no points", "ningún punto"),
])
def test_each_shape_of_show_is_said_in_english_and_spanish(hand, starter, english, spanish):
    assert say(hand, starter) == english
    assert say(hand, starter, "es") == spanish


def test_only_fifteens_need_no_total():
    assert say("5H 10S AD 2C", "8D") == "fifteen two, fifteen four"


def test_four_runs_of_three_with_four_of_a_kind_in_a_six_card_show():
    assert say("5H 5S 5D 5C 6H", "7S") == (
        "fifteen two, fifteen four, fifteen six, fifteen eight, four runs of three and a double "
        "pair royal makes thirty-two")


def test_a_pegging_summary_says_the_count_and_its_points():
    assert pegging_summary(15, 2, "en") == "fifteen for two"
    assert pegging_summary(31, 2, "es") == "treinta y uno por dos"
    assert pegging_summary(12, 0, "es") == "doce"


@pytest.mark.parametrize("cards, kind, points, english, spanish", [
    ("5H JH", "fifteen", 2, "fifteen 5H JH for 2",
     "quince con cinco de corazones y jota de corazones, por 2"),
    ("AC 2D 3S", "run", 3, "run AC 2D 3S for 3",
     "escalera con as de tréboles, dos de diamantes y tres de picas, por 3"),
    ("JD", "nobs", 1, "nobs JD for 1", "nobs con jota de diamantes, por 1"),
    ("QS QC", "pair", 2, "pair QS QC for 2", "par con reina de picas y reina de tréboles, por 2"),
])
def test_a_combination_names_its_cards_in_the_language_s_words(cards, kind, points, english,
                                                                spanish):
    item = ScoreItem(kind, tuple(Card.parse(text) for text in cards.split()), points)
    assert item_text(item, "en") == english
    assert item_text(item, "es") == spanish
