"""What must hold for every stored game after any fault: nothing half-written, nothing lost."""

from __future__ import annotations

import json

from service.games.record import GameRecord
from service.store import GameNotFound, GameStore
from tests.engine.helpers import all_cards

SCORING_EVENT_KEY = "scores"


def check_stored_game(store: GameStore, game_id: str) -> int:
    """Raise AssertionError unless the stored game is whole; return its stored version.

    Whole means: the document and the event log were written together (the record counts
    exactly the events stored), all 52 cards are accounted for, and the scores are the ones
    the last scoring event announced.
    """
    stored = store.load(game_id)
    record = GameRecord.from_json(stored.data)
    state = record.state
    events = [json.loads(text) for text in store.events(game_id, 0)]
    assert len(events) == record.events, (game_id, len(events), record.events)
    cards = all_cards(state)
    assert len(cards) == 52 and len(set(cards)) == 52, (game_id, len(cards))
    announced = [event["public"][SCORING_EVENT_KEY] for event in events
                 if SCORING_EVENT_KEY in event["public"]]
    expected = announced[-1] if announced else [0] * len(state.scores)
    if not state.options.match:
        assert list(state.scores) == expected, (game_id, state.scores, expected)
    return stored.version


def check_all_games(store: GameStore, game_ids) -> dict[str, int]:
    """Every game's stored version, after checking each one (missing games are left out)."""
    versions = {}
    for game_id in game_ids:
        try:
            versions[game_id] = check_stored_game(store, game_id)
        except GameNotFound:
            continue
    return versions
