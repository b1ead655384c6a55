"""Post-game analysis rebuilt from a game's events: hard's own decisions are its best, a known
bad discard loses exactly what the discard analysis says."""
from __future__ import annotations

import json
import random

import pytest

from service.bots import LEVELS
from service.bots.discard import analyse_discard
from service.bots.game_analysis import analyse_hand, split_hands
from service.cards import Card
from service.engine import Event, GameOptions, apply, start_game, to_act, view


def played(options: GameOptions, seed: bytes, levels: list[str], first_dealer: int = 1):
    """A whole game between computer levels, and its events as the store keeps them."""
    state, events = start_game(options, seed, first_dealer)
    rng = random.Random(0)
    while not state.over:
        seat = to_act(state)[0]
        state, produced = apply(state, LEVELS[levels[seat]].choose(view(state, seat), rng), 0.0)
        events += produced
    return state, [Event.from_dict(json.loads(json.dumps(event.to_dict()))) for event in events]


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(card) for card in text.split())


def test_a_known_bad_discard_loses_what_the_discard_analysis_says():
    """Seat 0 ("first") throws 8H 7C, a fifteen, into the dealer's crib."""
    options = GameOptions(target=61)
    _, events = played(options, b"coach0", ["first", "hard"])
    first_hand = split_hands(options, events)[0]
    discard = analyse_hand(options, first_hand)[0]
    assert (discard.seat, discard.kind, discard.chosen) == (0, "discard", cards("8H 7C"))
    ranked = analyse_discard(discard.held, players=2, own_crib=False)
    chosen = next(option for option in ranked if set(option.discard) == set(discard.chosen))
    assert discard.best == ranked[0].discard
    assert discard.points_lost == ranked[0].net - chosen.net
    assert round(discard.points_lost, 4) == 11.1285


@pytest.mark.parametrize("options, levels", [
    (GameOptions(), ["easy", "hard"]),
    (GameOptions(target=61), ["hard", "medium"]),
    (GameOptions(players=3, target=61), ["hard", "first", "easy"]),
    (GameOptions(players=4, teams="2x2", target=61), ["medium", "hard", "easy", "hard"]),
    (GameOptions(players=5, target=61), ["hard", "easy", "medium", "first", "hard"]),
    (GameOptions(players=6, teams="2x3", target=61),
     ["hard", "medium", "easy", "hard", "first", "easy"]),
])
def test_every_decision_hard_made_is_the_one_the_analysis_calls_best(options, levels):
    """The positions rebuilt from the events are the ones `hard` saw: same analysis, same
    choice, nothing lost in chance to win whatever the points; a costly choice of another level
    costs chance to win in every layout."""
    _, events = played(options, b"coach-hard", levels)
    hands = split_hands(options, events)
    decisions = [d for hand in hands for d in analyse_hand(options, hand)]
    hard = [d for d in decisions if levels[d.seat] == "hard"]
    assert hard and {d.kind for d in hard} == {"discard", "play"}
    assert [d.best for d in hard] == [d.chosen for d in hard]
    assert {d.win_chance_lost for d in hard} == {0.0}
    assert all(d.points_lost >= 0 for d in decisions)
    assert all(0 <= d.win_chance_lost < 1 for d in decisions)
    assert any(d.win_chance_lost > 0 for d in decisions if levels[d.seat] != "hard")


def test_the_log_splits_into_hands_with_their_scores_and_every_hand_of_a_finished_game_is_over():
    options = GameOptions(target=61, start_scores=(40, 30))
    state, events = played(options, b"coach-split", ["first", "first"])
    hands = split_hands(options, events)
    assert [hand.hand_number for hand in hands] == list(range(1, state.hand_number + 1))
    assert hands[0].scores == (40, 30) and all(hand.finished for hand in hands)
    assert hands[1].scores == tuple(next(e.public["scores"] for e in reversed(hands[0].events)
                                         if "scores" in e.public))


def test_a_hand_whose_show_has_not_ended_is_not_finished():
    options = GameOptions(target=61)
    state, events = start_game(options, b"coach-open", 0)
    state, produced = apply(state, LEVELS["first"].choose(view(state, 1), random.Random(0)), 0.0)
    assert [hand.finished for hand in split_hands(options, events + produced)] == [False]


@pytest.mark.parametrize("options, win_known", [
    (GameOptions(players=3, target=241, start_scores=(225, 220, 215)), True),
    (GameOptions(players=3, target=301, start_scores=(285, 280, 275)), False),
    (GameOptions(target=301, start_scores=(250, 40)), False),   # the other side needs 261
    (GameOptions(target=301, start_scores=(285, 280)), True),
])
def test_win_chance_lost_is_given_within_the_win_tables_reach(options, win_known):
    """A discard's points lost valued in chance to win: with two players while no side needs
    more than 241 points, in other layouts in games to at most 241 (their tables are built for
    the target). A discard that loses nothing loses no chance, whatever the reach (outside
    the two-player endgame, where chances rank the discards)."""
    _, events = played(options, b"coach-reach", ["first", "medium", "hard"][:options.players])
    first_hand = analyse_hand(options, split_hands(options, events)[0])
    discards = [d for d in first_hand if d.kind == "discard"]
    if options.players > 2:
        assert all(d.win_chance_lost == 0.0 for d in discards if d.points_lost == 0)
    known = [d.win_chance_lost is not None for d in discards if d.points_lost > 0]
    assert set(known) == {win_known}
