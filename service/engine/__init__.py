"""The rules engine: a pure state machine (state + action + now -> new state + events).

No clock, no randomness beyond the game seed, no I/O: any game replays exactly from its seed,
its actions and the times they were applied at. `view` is the one redaction function: what a
seat may see, as a typed value.
"""
from service.engine.actions import (ACTION_TYPES, Action, CallMuggins, ClaimCount, ClaimItem,
                                    CutForDeal, CutStarter, Discard, EndMatch, NextGame, Play,
                                    Resign)
from service.engine.engine import apply, expire, new_game, start_game
from service.engine.events import Event
from service.engine.legal import (LegalAction, LegalClaim, LegalCut, LegalDiscard,
                                  LegalMatchDecision, LegalMuggins, LegalPlay, legal_actions,
                                  to_act)
from service.engine.options import GameOptions
from service.engine.rules import PHASES
from service.engine.state import GameState
from service.engine.view import SeatView, view, view_event

__all__ = [
    "ACTION_TYPES", "PHASES", "Action", "CallMuggins", "ClaimCount", "ClaimItem", "CutForDeal",
    "CutStarter", "Discard", "EndMatch", "Event", "GameOptions", "GameState", "LegalAction",
    "LegalClaim", "LegalCut", "LegalDiscard", "LegalMatchDecision", "LegalMuggins", "LegalPlay",
    "NextGame", "Play", "Resign", "SeatView", "apply", "expire", "legal_actions", "new_game",
    "start_game", "to_act", "view", "view_event",
]
