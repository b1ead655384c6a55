"""Computer players: a registry of levels, each a `choose_action(view, seat, rng) -> action`.

`view` is exactly `service.engine.view(state, seat)`, the view a human in that seat gets, so a
computer never knows more than a person would. The returned dict is an action without its
seat (`{"type": "play", "card": "5H"}`); the service adds the seat and applies it.

Levels: "first" (the first legal action, a fixed baseline for tests and benchmarks) and
`service.bots.LEVELS` (easy, medium, hard).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from service import bots
from service.cards import Card
from service.scoring import show_points

ChooseAction = Callable[[dict, int, random.Random], dict]

# Decisions a computer leaves to the people at the table.
HUMAN_DECISIONS = {"next_game", "end_match", "resign"}


def first_legal(view: dict, seat: int, rng: random.Random) -> dict:
    """The first legal action, made concrete: first cards listed, random cuts, a true count."""
    option = next(o for o in view["legal_actions"] if o["type"] not in HUMAN_DECISIONS)
    kind = option["type"]
    if kind in ("cut_for_deal", "cut_starter"):
        return {"type": kind, "depth": None}
    if kind == "discard":
        return {"type": kind, "cards": option["cards"][: option["count"]]}
    if kind == "play":
        return {"type": kind, "card": option["cards"][0]}
    if kind == "claim":
        cards = [Card.parse(text) for text in option["cards"]]
        points = show_points(cards, Card.parse(option["starter"]), crib=option["hand"] == "crib")
        return {"type": kind, "points": points}
    return {"type": kind}


LEVELS: dict[str, ChooseAction] = {"first": first_legal, **bots.LEVELS}
DEFAULT_LEVEL = "medium"


def wants_to_act(view: dict) -> bool:
    """Whether a computer in this seat has a move to make (match decisions are not its)."""
    return any(option["type"] not in HUMAN_DECISIONS for option in view["legal_actions"])
