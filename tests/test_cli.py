"""The `cribbage` command: it prints what the README and the docs show, its `--json` is the HTTP
API's body for the same input, and bad input exits with 2 and a message naming the argument at
fault."""
from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from service.api import create_app
from service.cli import main
from service.config import Settings

TOP = Path(__file__).resolve().parents[1]
# Wherever a `cribbage` example moves, it stays tested: the README and every page of the site.
PAGES = [TOP / "README.md", *sorted((TOP / "docs").rglob("*.md"))]


def documented_examples() -> list[tuple[str, str]]:
    """(command line, output) for each `$ cribbage ...` in the console blocks of the README and
    of the docs' pages."""
    examples = []
    text = "\n".join(page.read_text(encoding="utf-8") for page in PAGES)
    for block in re.findall(r"```console\n(.*?)```", text, re.DOTALL):
        for command, output in re.findall(r"^\$ (cribbage .*)\n((?:(?!\$ ).*\n)*)", block,
                                          re.MULTILINE):
            examples.append((command, output))
    return examples


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    status = main(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_the_docs_show_each_command():
    commands = [shlex.split(command)[1] for command, _ in documented_examples()]
    assert sorted(set(commands)) == ["discard", "peg", "score"]


@pytest.mark.parametrize("command, output", documented_examples())
def test_the_command_prints_what_the_docs_show(command, output, capsys):
    assert run(shlex.split(command)[1:], capsys) == (0, output, "")


def test_a_show_in_words(capsys):
    assert run(["score", "5H", "5S", "6D", "4C", "--starter", "JH"], capsys) == (0, (
        "16: fifteen two, fifteen four, fifteen six, fifteen eight and a double run of three "
        "makes sixteen\n"
        "  fifteen 5H JH for 2\n  fifteen 5S JH for 2\n  fifteen 4C 5H 6D for 2\n"
        "  fifteen 4C 5S 6D for 2\n  pair 5H 5S for 2\n  run 4C 5H 6D for 3\n"
        "  run 4C 5S 6D for 3\n"), "")


def test_a_crib_counts_a_flush_only_with_the_starter(capsys):
    argv = ["score", "2H", "4H", "6H", "8H", "--starter", "KS"]
    assert run(argv, capsys) == (0, "4: a flush of four makes four\n  flush 2H 4H 6H 8H for 4\n",
                                 "")
    assert run(argv + ["--crib"], capsys) == (0, "0: no points\n", "")


def test_spanish_words_for_the_count_and_the_combinations(capsys):
    assert run(["peg", "5H", "4S", "6D", "--lang", "es"], capsys) == (0, (
        "5: quince por cinco\n"
        "  quince con cinco de corazones, cuatro de picas y seis de diamantes, por 2\n"
        "  escalera con cinco de corazones, cuatro de picas y seis de diamantes, por 3\n"), "")


@pytest.mark.parametrize("argv, output", [
    (["peg", "7C", "7D", "7S"], "6: twenty-one for six\n  pair royal 7C 7D 7S for 6\n"),
    (["peg", "7C", "7D", "7S", "7H", "--lang", "es"],
     "12: veintiocho por doce\n  póquer con siete de tréboles, siete de diamantes, siete de "
     "picas y siete de corazones, por 12\n"),
    (["peg", "10H", "KH", "AS", "10S", "--lang", "es"],
     "2: treinta y uno por dos\n  treinta y uno con diez de corazones, rey de corazones, as "
     "de picas y diez de picas, por 2\n"),
])
def test_every_pegging_combination_has_its_name(argv, output, capsys):
    assert run(argv, capsys) == (0, output, "")


SAME_AS_THE_API = [
    (["score", "5H", "5S", "6D", "4C", "--starter", "JH"], "/v1/show/score",
     {"hand": ["5H", "5S", "6D", "4C"], "starter": "JH"}, "en"),
    (["score", "cinco de corazones", "5♠", "6d", "cuatro de tréboles", "--starter", "j h",
      "--lang", "es"], "/v1/show/score",
     {"hand": ["cinco de corazones", "5♠", "6d", "cuatro de tréboles"], "starter": "j h"}, "es"),
    (["score", "2H", "4H", "6H", "8H", "--starter", "2S", "--crib"], "/v1/show/score",
     {"hand": ["2H", "4H", "6H", "8H"], "starter": "2S", "crib": True}, "en"),
    (["peg", "5H", "4S", "6D"], "/v1/pegging/score", {"pile": ["5H", "4S", "6D"]}, "en"),
    (["peg", "7C", "7D", "7S", "--lang", "es"], "/v1/pegging/score",
     {"pile": ["7C", "7D", "7S"]}, "es"),
    (["discard", "5H", "5S", "6D", "4C", "JH", "KD", "--dealer"], "/v1/analysis/discard",
     {"hand": ["5H", "5S", "6D", "4C", "JH", "KD"], "own_crib": True}, "en"),
    (["discard", "AS", "2D", "9C", "QH", "KS", "--players", "3"], "/v1/analysis/discard",
     {"hand": ["AS", "2D", "9C", "QH", "KS"], "players": 3, "own_crib": False}, "en"),
]


@pytest.mark.parametrize("argv, path, body, language", SAME_AS_THE_API)
def test_json_is_the_api_response_body(argv, path, body, language, capsys):
    app = create_app({"TESTING": True, "SETTINGS": Settings(rate_limit_enabled=False)})
    response = app.test_client().post(path, json=body, headers={"Accept-Language": language})
    assert response.status_code == 200
    status, out, err = run(argv + ["--json"], capsys)
    assert (status, err) == (0, "")
    assert json.loads(out) == response.get_json()


@pytest.mark.parametrize("argv, message", [
    (["score", "5H", "5X", "6D", "4C", "--starter", "JH"],
     "cribbage score: hand[1]: not a card: '5X' (unknown_card)"),
    (["score", "5H", "5S", "6D", "4C", "--starter", "5♥"],
     "cribbage score: starter: 5H is also in the hand (duplicate_card)"),
    (["score", "5H", "5S", "6D", "--starter", "JH"],
     ("cribbage score: hand: 3 cards; a hand or crib has 4 (5 in the 6-player game) "
      "(wrong_hand_size)")),
    (["peg", "10H", "KH", "QS", "2C"],
     "cribbage peg: pile[3]: the count reaches 32, over 31 (count_exceeds_31)"),
    (["peg", "5H", "5h"], "cribbage peg: pile[1]: 5H appears twice (duplicate_card)"),
    (["discard", "5H", "5S", "6D", "4C", "JH"],
     ("cribbage discard: hand: with 2 players a dealt hand has 6 cards, not 5 "
      "(wrong_hand_size)")),
])
def test_bad_input_exits_2_naming_the_argument(argv, message, capsys):
    assert run(argv, capsys) == (2, "", message + "\n")


def test_a_missing_starter_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["score", "5H", "5S", "6D", "4C"])
    assert exited.value.code == 2
    assert capsys.readouterr().err.endswith(
        "cribbage score: error: the following arguments are required: --starter\n")
