"""Refused actions: each reason has its stable code, and the state is left as it was."""
import re
from pathlib import Path

import pytest

from service import engine
from service.cards import parse_cards
from service.errors import DomainError, IllegalActionError, InvalidInputError
from service.engine import (CallMuggins, ClaimCount, CutForDeal, CutStarter, Discard, EndMatch,
                            GameOptions, LegalPlay, NextGame, Play, Resign, apply, legal_actions,
                            new_game)
from service.engine.errors import CODES
from service.games import state_json
from service.games.state_json import state_to_dict
from tests.engine.helpers import cards, run
from tests.engine.test_golden_hands import ALICE, BOB, SEED_003_BEFORE_PLAY, seed_003_state


def refused(state, action, now=0.0):
    before = state_to_dict(state)
    with pytest.raises(DomainError) as error:
        apply(state, action, now)
    assert state_to_dict(state) == before
    return error.value


def at_play():
    state, _ = run(seed_003_state(), SEED_003_BEFORE_PLAY)
    return state


def test_a_seat_not_at_the_table_is_unknown_seat():
    assert refused(seed_003_state(), Discard(2, cards("8D 8C"))).code == "unknown_seat"
    assert refused(seed_003_state(), Discard(-1, cards("8D 8C"))).code == "unknown_seat"


def test_an_action_of_another_phase_is_wrong_phase():
    state = seed_003_state()
    for action in [Play(BOB, cards("JH")[0]), CutStarter(BOB, 4), CutForDeal(BOB, 4),
                   NextGame(BOB), EndMatch(BOB)]:
        error = refused(state, action)
        assert error.code == "wrong_phase" and error.params["phase"] == "discard"


def test_acting_out_of_turn_is_not_your_turn():
    state = at_play()
    assert refused(state, Play(ALICE, cards("5S")[0])).code == "not_your_turn"
    state, _ = run(seed_003_state(), SEED_003_BEFORE_PLAY[:2])
    assert refused(state, CutStarter(ALICE, 4)).code == "not_your_turn"  # the pone cuts
    state, _ = run(seed_003_state(), SEED_003_BEFORE_PLAY[:1])
    assert refused(state, Discard(ALICE, cards("5S 4S"))).code == "not_your_turn"  # done already
    game = new_game(GameOptions(), b"cut")
    game, _ = run(game, [CutForDeal(0, 4)])
    assert refused(game, CutForDeal(0, 4)).code == "not_your_turn"


def test_cards_not_held_repeated_or_of_the_wrong_number_are_refused():
    state = at_play()
    assert refused(state, Play(BOB, cards("5S")[0])).code == "card_not_in_hand"
    assert refused(state, Play(BOB, cards("KC")[0])).code == "card_not_in_hand"  # in the crib
    state = seed_003_state()
    assert refused(state, Discard(BOB, cards("10S 5S"))).code == "card_not_in_hand"
    assert refused(state, Discard(BOB, cards("10S 10S"))).code == "duplicate_card"
    error = refused(state, Discard(BOB, cards("10S")))
    assert error.code == "wrong_discard_count" and error.params == {"expected": 2, "got": 1}
    assert refused(state, Discard(BOB, cards("10S KC 7C"))).code == "wrong_discard_count"


def test_a_card_past_31_is_refused_while_one_that_fits_is_legal():
    state, _ = run(at_play(), [Play(BOB, cards("JH")[0]), Play(ALICE, cards("5S")[0]),
                               Play(BOB, cards("7C")[0]), Play(ALICE, cards("6H")[0])])
    assert state.turn == ALICE  # Bob said go at 28
    error = refused(state, Play(ALICE, cards("4S")[0]))
    assert error.code == "count_would_exceed_31" and error.params["count"] == 28
    assert legal_actions(state, ALICE) == [LegalPlay(cards("2S"))]


@pytest.mark.parametrize("depth", [0, 3, 37, 40, 99])
def test_a_starter_cut_outside_4_to_36_is_refused(depth):
    state, _ = run(seed_003_state(), SEED_003_BEFORE_PLAY[:2])
    error = refused(state, CutStarter(BOB, depth))
    assert error.code == "invalid_cut_depth" and error.params["min"] == 4
    assert error.params["max"] == 36  # 40 cards left: 4..36 (BSD)


def test_game_over_refuses_everything():
    state, _ = run(seed_003_state(), [Resign(ALICE)])
    for action in [Discard(BOB, cards("10S KC")), Resign(BOB), NextGame(BOB),
                   CallMuggins(BOB), ClaimCount(BOB, 3)]:
        assert refused(state, action).code == "game_over"


def test_claim_and_muggins_codes():
    state = at_play()
    assert refused(state, ClaimCount(BOB, 3)).code == "not_a_claim_phase"
    assert refused(state, CallMuggins(ALICE)).code == "nothing_to_call"


# `InvalidInputError("message", code="the_code", ...)`, the call possibly over several lines.
RAISED = re.compile(r'\b(InvalidInputError|IllegalActionError)\((?:(?!Error\().)*?'
                    r'\bcode="([a-z_0-9]+)"', re.DOTALL)


def test_every_code_raised_is_listed_with_its_error_class():
    # The engine's package, and the state's JSON form (invalid_state) that moved to the games.
    paths = [*Path(engine.__file__).parent.glob("*.py"), Path(state_json.__file__)]
    source = "".join(path.read_text() for path in paths)
    raised = RAISED.findall(source)
    # Every raise names its code (none falls back to the class's default).
    assert len(raised) == len(re.findall(r"raise (InvalidInputError|IllegalActionError)\(",
                                         source)) > 0
    assert {code for _, code in raised} | {"unknown_card", "duplicate_card"} == set(CODES)
    malformed = {code for kind, code in raised if kind == "InvalidInputError"}
    refused_now = {code for kind, code in raised if kind == "IllegalActionError"}
    assert not malformed & refused_now  # each code has one error class
    assert "invalid_claim" in refused_now and "invalid_action" in malformed


def test_malformed_input_and_refused_actions_are_distinct_domain_errors():
    with pytest.raises(InvalidInputError):
        parse_cards(["5X"], field="card")
    with pytest.raises(InvalidInputError):
        apply(at_play(), Play(2, cards("5S")[0]), 0.0)  # no seat 2
    with pytest.raises(IllegalActionError):
        apply(at_play(), Play(ALICE, cards("5S")[0]), 0.0)
    assert issubclass(InvalidInputError, DomainError) and issubclass(DomainError, ValueError)
