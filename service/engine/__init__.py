"""The rules engine: a pure state machine (state + action + now -> new state + events).

No clock, no randomness beyond the game seed, no I/O: any game replays exactly from its seed,
its actions and the times they were applied at.
"""
from service.engine.actions import (ACTION_TYPES, CallMuggins, ClaimCount, ClaimItem, CutForDeal,
                                    CutStarter, Discard, EndMatch, NextGame, Play, Resign,
                                    action_from_dict)
from service.engine.deal import deal_from
from service.engine.engine import apply, expire, new_game, start_game
from service.engine.errors import IllegalActionError, InvalidInputError, RuleError
from service.engine.events import Event
from service.engine.options import GameOptions
from service.engine.state import PHASES, GameState
from service.engine.views import view, view_event

__all__ = [
    "ACTION_TYPES", "PHASES", "CallMuggins", "ClaimCount", "ClaimItem", "CutForDeal", "CutStarter",
    "Discard", "EndMatch", "Event", "GameOptions", "GameState", "IllegalActionError",
    "InvalidInputError", "NextGame", "Play", "Resign", "RuleError", "action_from_dict", "apply",
    "deal_from", "expire", "new_game", "start_game", "view", "view_event",
]
