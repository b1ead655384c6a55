"""Caps on live games: whom a new game counts against, and how many live games each may have.

An owner names who created a game: today `address:<digest>` for the client's address (the
API's CRIBBAGE_MAX_LIVE_GAMES_PER_CLIENT); players (issue 15) add `player:<id>` with a cap of
their own, by passing one more LiveGamesCap. A game counts against its owners from its
creation until it is finished, or, abandoned, until the store's idle expiry has passed since
its creation (GameStore.claim_live_game). A seat token needs no cap of its own: it holds one
seat of one game, and creating a game takes none.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass


@dataclass(frozen=True)
class LiveGamesCap:
    owner: str
    limit: int


def address_owner(address: str) -> str:
    """The owner a client address stands for; the store keeps a digest, not the address."""
    return "address:" + hashlib.sha256(address.encode()).hexdigest()[:32]
