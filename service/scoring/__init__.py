"""The scoring core: shows, pegging, claims, the check of a whole play, the vectorised scorer.

Pure functions of cards; no web, storage or clock. `service.scoring.fast` (numpy) is imported
on its own by the code that scores in bulk.
"""
from service.scoring.claims import ClaimCheck, check_claim, nominal_points
from service.scoring.items import ScoreItem
from service.scoring.pegging import PEGGING_KINDS, CountExceededError, PeggingScore, score_pegging
from service.scoring.replay import Replay, ReplayError, replay
from service.scoring.show import SHOW_KINDS, ShowScore, rank_points, score_show, show_points

__all__ = [
    "PEGGING_KINDS", "SHOW_KINDS", "ClaimCheck", "CountExceededError", "PeggingScore", "Replay",
    "ReplayError", "ScoreItem", "ShowScore", "check_claim", "nominal_points", "rank_points",
    "replay", "score_pegging", "score_show", "show_points",
]
