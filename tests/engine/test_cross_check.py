"""The engine's play agrees with service/replay.py, written independently from the same rules:
for every hand of random games in every layout, the same cards by the same seats give the same
points per seat, the same goes and the same resets."""
import random

import pytest

from service.cards import Card
from service.engine import GameOptions, apply, new_game
from service.simulation.random_games import random_action
from service.scoring.replay import replay
from tests.engine.test_properties import LAYOUTS


def hands_played(options: GameOptions, seed: bytes, rng: random.Random):
    """Yield the public events of each hand whose play was completed."""
    state = new_game(options, seed)
    hand = []
    while (action := random_action(state, rng)) is not None:
        state, events = apply(state, action, 0.0)
        for event in events:
            if event.type == "dealt":
                hand = []
            hand.append(event)
            if event.type == "show_scored" and event.public["hand"] == "crib":
                yield state.options.players, hand


@pytest.mark.parametrize("players, teams", LAYOUTS)
def test_play_agrees_with_the_reference_replay(players, teams):
    rng = random.Random(players * 10 + len(teams or ""))
    options = GameOptions(players=players, teams=teams, target=1000)
    checked = 0
    for number in range(3):
        for players_, events in hands_played(options, b"cross %d" % number, rng):
            dealer = events[0].public["dealer"]
            plays = [e.public for e in events if e.type == "card_played"]
            reference = replay(players_, dealer, [Card.parse(p["card"]) for p in plays],
                               [p["seat"] for p in plays])
            assert [p.points for p in reference.plays] == [p["points"] for p in plays]
            assert [p.count for p in reference.plays] == [p["count"] for p in plays]
            totals = [0] * players_
            for event in events:
                if event.type in ("card_played", "last_card", "count_reset"):
                    totals[event.public["seat"]] += event.public["points"]
            assert list(reference.totals) == totals
            assert [r.count for r in reference.resets] == [
                e.public["count"] for e in events if e.type == "count_reset"]
            assert sorted((p.seat, p.count) for p in reference.passes) == sorted(
                (e.public["seat"], e.public["count"]) for e in events if e.type == "go")
            checked += 1
            if checked >= 60:
                return
    assert checked >= 60
