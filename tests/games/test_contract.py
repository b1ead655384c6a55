"""The games contract in openapi.yaml against the engine: every event type it can emit has its
schema, every action and legal action type too, and what played games produce fits them."""

from __future__ import annotations

import ast
import pathlib
import random

import pytest
import yaml
from openapi_schema_validator import OAS30Validator

from service.api.games.bodies import view_body
from service.api.openapi import openapi_yaml
from service.engine import (ACTION_TYPES, Abort, GameOptions, abandon, apply, expire, time_out,
                            view)
from service.engine.engine import start_game
from service.games.event_log import public_event
from service.simulation.random_games import random_action

SERVICE = pathlib.Path(__file__).resolve().parents[2] / "service"
EVENT_SOURCES = ("engine", "games")  # where game events are made: the rules and the table
EMITTERS = {"emit", "Event"}
# The one call that emits a type given by its caller: Draft.emit itself.
FORWARDING = {("engine/state.py", "type_")}


@pytest.fixture(scope="module")
def components():
    return yaml.safe_load(openapi_yaml())["components"]


def validator(components, name: str) -> OAS30Validator:
    return OAS30Validator({"components": components, "$ref": f"#/components/schemas/{name}"})


def union_types(components, name: str) -> set[str]:
    return set(components["schemas"][name]["discriminator"]["mapping"])


def emitted_types(sources=EVENT_SOURCES) -> set[str]:
    """The event types named in the source: the first argument of every emit(...) and
    Event(...) call in the packages `sources` (of service/)."""
    types = set()
    for path in (path for source in sources for path in (SERVICE / source).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not (isinstance(node, ast.Call) and node.args and _called(node) in EMITTERS):
                continue
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                types.add(first.value)
            else:  # a type the scan cannot see: only the known forwarding call may do this
                where = (path.relative_to(SERVICE).as_posix(), ast.unparse(first))
                assert where in FORWARDING, where
    return types


def _called(call: ast.Call) -> str | None:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)


def test_every_event_type_the_engine_emits_is_documented(components):
    assert union_types(components, "Event") == emitted_types()
    for type_, ref in components["schemas"]["Event"]["discriminator"]["mapping"].items():
        schema = components["schemas"][ref.rsplit("/", 1)[1]]
        assert schema["properties"]["type"]["enum"] == [type_]
        assert {"number", "time", "type"} <= set(schema["required"])


def test_every_action_and_legal_action_type_has_its_schema(components):
    assert union_types(components, "Action") == set(ACTION_TYPES)
    assert union_types(components, "LegalAction") == set(ACTION_TYPES) - {"resign", "abort"}


GAMES = [GameOptions(target=61), GameOptions(players=3, target=61),
         GameOptions(players=4, teams="2x2", counting="manual", muggins="call"),
         GameOptions(players=6, teams="3x2", counting="manual", muggins="auto",
                     count_time_limit=30, target=61),
         GameOptions(players=5, counting="manual", muggins="call", count_time_limit=15,
                     match=True, target=61),
         GameOptions(players=3, target=61, turn_time_limit=10)]


def test_played_games_fit_the_event_and_view_schemas(components):
    """Every event (as each seat and a spectator see it) and views of random games, some
    resigning, validate; together the games show every event type of the engine and every
    legal action type."""
    events, views = validator(components, "Event"), validator(components, "View")
    rng = random.Random(7)
    seen_events, seen_legal = set(), set()
    for game, options in enumerate(GAMES * 3):
        seats = (None, *range(options.players))
        state, produced = start_game(options, bytes([game]))
        number, now, action = 0, 0.0, True
        while action is not None:
            for event in produced:
                number += 1
                seen_events.add(event.type)
                for seat in seats:
                    data = {"number": number, "time": "2026-11-25T10:04:05.678Z",
                            **public_event(event, seat)}
                    assert not [error.message for error in events.iter_errors(data)], data
            body = view_body(view(state, rng.choice(seats)), now)
            assert not [error.message for error in views.iter_errors(body)], body
            seen_legal.update(legal["type"] for legal in body["legal_actions"])
            now += 1.0
            if state.deadline is not None and rng.random() < 0.1:
                now = state.deadline + 1.0
            state, produced = expire(state, now)
            action = random_action(state, rng, resign_rate=0.002 * (game % 3))
            if (action is not None and action.type != "muggins"
                    and state.turn_deadline is not None and rng.random() < 0.1):
                now = state.turn_deadline + 1.0  # the seat runs out of time
                state, more = time_out(state, action.seat, now, _timed_out_move(action, rng))
                produced = produced + more
            elif action is not None:
                state, more = apply(state, action, now)
                produced = produced + more
        for seat in seats:
            body = view_body(view(state, seat), now)
            assert not [error.message for error in views.iter_errors(body)], body
    for _, ended in (apply(start_game(GAMES[0], b"abort")[0], Abort(1), 0.0),
                     abandon(start_game(GAMES[1], b"abandon")[0], 0.0)):
        seen_events.update(event.type for event in ended)
        for event in ended:
            data = {"number": 1, "time": None, **public_event(event, None)}
            assert not [error.message for error in events.iter_errors(data)], data
    assert seen_events == emitted_types(["engine"])
    assert seen_legal == set(ACTION_TYPES) - {"resign", "abort"}


def _timed_out_move(action, rng: random.Random):
    """What a timed-out seat's game does: a computer's move, or (a time in four) a forfeit."""
    if action.type in ("next_game", "end_match") or rng.random() < 0.25:
        return None
    return action
