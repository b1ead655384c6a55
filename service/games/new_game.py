"""A new game's parts from a client's request: its options, its seats and its seed."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import replace

from service.bots import DEFAULT_LEVEL, LEVELS
from service.engine import GameOptions
from service.errors import InvalidInputError

from .players import Player
from .record import Seat

DECK_SEED_LENGTH = 200


def game_seed(deck_seed: str | None) -> bytes:
    """A fresh random game seed; with a client's `deck_seed` (duplicate deals), a pure function
    of it, so every game created with it deals the same cards. It is never stored or shown:
    whoever knows it knows every deal, until the game seed is revealed at the end."""
    if deck_seed is None:
        return secrets.token_bytes(32)
    if not isinstance(deck_seed, str) or not 1 <= len(deck_seed) <= DECK_SEED_LENGTH:
        raise InvalidInputError("option deck_seed: expected a string of 1..200 characters",
                                code="invalid_options", field="deck_seed",
                                allowed="a string of 1..200 characters")
    return hashlib.sha256(b"cribbage deck seed\0" + deck_seed.encode()).digest()


def game_options(options: dict, players: int) -> GameOptions:
    if options.get("players", players) != players:
        raise InvalidInputError(f"{players} seats, but players is {options['players']}",
                                code="invalid_options", field="players", allowed=str(players))
    level = options.get("timeout_level")
    if level is not None and level not in LEVELS:
        raise InvalidInputError(f"no computer level {level!r}", code="invalid_options",
                                field="timeout_level", allowed=", ".join(LEVELS))
    return GameOptions.from_dict({**options, "players": players})


def new_seat(number: int, spec: dict) -> Seat:
    """Seat `number` as a client described it: {"kind": "human"|"computer", "name": str?,
    "level": str?}."""
    kind = spec.get("kind", "human")
    if kind == "computer":
        level = spec.get("level") or DEFAULT_LEVEL
        if level not in LEVELS:
            raise InvalidInputError(f"no computer level {level!r}", code="unknown_level",
                                    field=f"seats[{number}].level", level=level,
                                    allowed=", ".join(LEVELS))
        return Seat("computer", spec.get("name") or f"Computer {number + 1}", level)
    return Seat("human", spec.get("name") or f"Player {number + 1}")


def linked(seat: Seat, player: Player) -> Seat:
    """The seat linked to `player`: the player's token opens it too."""
    return replace(seat, player_id=player.player_id, player_hash=player.key)
