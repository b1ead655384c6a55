"""The rules engine: a pure state machine (state + action + now -> new state + events).

No clock, no randomness beyond the game seed, no I/O: any game replays exactly from its seed,
its actions and the times they were applied at. `view` is the one redaction function: what a
seat may see, as a typed value.
"""
from service.engine.actions import (ACTION_TYPES, Abort, Action, CallMuggins, ClaimCount,
                                    ClaimItem, CutForDeal, CutStarter, Discard, EndMatch,
                                    NextGame, Play, Resign)
from service.engine.engine import abandon, apply, expire, new_game, start_game, time_out
from service.engine.events import Event
from service.engine.legal import (LegalAction, LegalClaim, LegalCut, LegalDiscard,
                                  LegalMatchDecision, LegalMuggins, LegalPlay, legal_actions,
                                  to_act)
from service.engine.options import GameOptions
from service.engine.outcome import can_abort
from service.engine.rules import PHASES
from service.engine.state import GameState
from service.engine.view import SeatView, view, view_event

__all__ = [
    "ACTION_TYPES", "PHASES", "Abort", "Action", "CallMuggins", "ClaimCount", "ClaimItem",
    "CutForDeal", "CutStarter", "Discard", "EndMatch", "Event", "GameOptions", "GameState",
    "LegalAction", "LegalClaim", "LegalCut", "LegalDiscard", "LegalMatchDecision",
    "LegalMuggins", "LegalPlay", "NextGame", "Play", "Resign", "SeatView", "abandon", "apply",
    "can_abort", "expire", "legal_actions", "new_game", "start_game", "time_out", "to_act",
    "view", "view_event",
]
