"""Computer players: a registry of levels, each a `choose_action(view, seat, rng) -> action`.

`view` is exactly `service.engine.view(state, seat)`, the view a human in that seat gets, so a
computer never knows more than a person would. The returned dict is an action without its
seat (`{"type": "play", "card": "5H"}`); the service adds the seat and applies it.

Built in: "first", the first legal action. More levels come from `service.bots`, which
exposes `LEVELS: dict[str, choose_action]` (easy, medium, hard); they are looked up lazily
so this module works before and without that package.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping

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


BUILT_IN: dict[str, ChooseAction] = {"first": first_legal}


def levels() -> Mapping[str, ChooseAction]:
    """Every level by name: the built-in ones plus those of service.bots, if present."""
    try:
        bots = importlib.import_module("service.bots")
    except ImportError:
        return BUILT_IN
    return {**BUILT_IN, **getattr(bots, "LEVELS", {})}


def default_level() -> str:
    return "medium" if "medium" in levels() else "first"


def wants_to_act(view: dict) -> bool:
    """Whether a computer in this seat has a move to make (match decisions are not its)."""
    return any(option["type"] not in HUMAN_DECISIONS for option in view["legal_actions"])
