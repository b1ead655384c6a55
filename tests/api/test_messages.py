"""Accept-Language negotiation, numbers as words, problem texts."""
import pytest

from service.api.language import negotiate
from service.api.messages import PROBLEMS, problem_text
from service.speech import number_words


@pytest.mark.parametrize("header, language", [
    (None, "en"), ("", "en"), ("es", "es"), ("es-ES", "es"), ("ES-mx", "es"),
    ("en-GB,es;q=0.9", "en"), ("fr, es;q=0.5, en;q=0.4", "es"), ("es;q=0, en", "en"),
    ("es;q=0.3, en;q=0.7", "en"), ("*", "en"), ("de", "en"), ("es;q=abc, en;q=0.1", "en"),
    (";;;,,,q=,", "en"), ("es;q=2", "en"), ("x" * 5000, "en"),
])
def test_accept_language_picks_the_preferred_of_spanish_and_english_else_english(header, language):
    assert negotiate(header) == language


@pytest.mark.parametrize("number, english, spanish", [
    (0, "zero", "cero"), (2, "two", "dos"), (15, "fifteen", "quince"),
    (16, "sixteen", "dieciséis"), (21, "twenty-one", "veintiuno"),
    (22, "twenty-two", "veintidós"), (29, "twenty-nine", "veintinueve"),
    (31, "thirty-one", "treinta y uno"), (46, "forty-six", "cuarenta y seis"),
    (100, "one hundred", "cien"), (121, "one hundred and twenty-one", "ciento veintiuno"),
    (1000, "1000", "1000"),
])
def test_numbers_are_words_in_both_languages_up_to_999(number, english, spanish):
    assert number_words(number, "en") == english
    assert number_words(number, "es") == spanish


def test_every_problem_has_both_languages():
    assert PROBLEMS["en"].keys() <= PROBLEMS["es"].keys()


def test_problem_text_falls_back_to_the_message():
    assert problem_text("unknown_card", "es", {"where": "hand[0]"}, "raw") == (
        "Carta desconocida", "raw")  # `text` is missing: the exception's own message is used
    assert problem_text("no_such_code", "es", {}, "raw") == ("No such code", "raw")
