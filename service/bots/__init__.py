"""Computer players and the analysis they share with the API.

`LEVELS` maps each level name to `choose(view, seat, rng) -> action dict`, the form the games
service looks up (service.games.computer); `choose_action(level, view, seat, rng)` is the same
with the level as an argument.
"""
from functools import partial

from service.bots.players import LEVELS as LEVEL_NAMES
from service.bots.players import choose_action

LEVELS = {level: partial(choose_action, level) for level in LEVEL_NAMES}

__all__ = ["LEVELS", "choose_action"]
