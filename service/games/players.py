"""Players: an optional identity over seats, so an app need not keep every seat token.

A player token is a 128-bit secret like a seat token, shown once; the store keeps the player
under the token's SHA-256 (tokens.digest), never the token. A seat created or joined with a
player token is linked to the player: the seat keeps the same digest, so the player token opens
that seat wherever its seat token does (GamesService._open matches both). That is how a player
recovers its seats on a new device: no fresh seat token is issued, so a device that still holds
the old one keeps working, and no new secret is stored anywhere. The player's games (id and
seat, newest first) make its lobby (GamesService.player_games).
"""

from __future__ import annotations

from dataclasses import dataclass

from service.webhooks.model import Webhook

from .caps import LiveGamesCap

PLAYER_TTL_SECONDS = 30 * 86400   # a player is kept this long after its last use
MAX_LIVE_GAMES = 100              # games in play one player may sit in


@dataclass(frozen=True)
class PlayerPolicy:
    ttl_seconds: int = PLAYER_TTL_SECONDS
    max_live_games: int = MAX_LIVE_GAMES   # 0: no cap


@dataclass(frozen=True)
class Player:
    player_id: str
    name: str | None
    key: str            # digest of the player token: the store's key, and the seats' player_hash
    created: float
    games: tuple[tuple[str, int], ...] = ()   # (game id, seat), the newest link first
    webhooks: tuple[Webhook, ...] = ()        # told of every game of the player's seats

    def cap(self, policy: PlayerPolicy) -> list[LiveGamesCap]:
        if not policy.max_live_games:
            return []
        return [LiveGamesCap(player_owner(self.player_id), policy.max_live_games)]


@dataclass(frozen=True)
class NewPlayer:
    player: Player
    token: str          # shown once


@dataclass(frozen=True)
class LobbyGame:
    """One line of a player's lobby: what a list of games shows, as the player's seat sees it."""

    game_id: str
    seat: int
    phase: str
    to_act: tuple[int, ...]
    your_turn: bool
    scores: tuple[int, ...]
    side: int
    side_of_seat: tuple[int, ...]
    seats: tuple          # (number, Seat) of every seat
    updated: float
    ended: bool
    rematch_of: str | None
    rematch_game_id: str | None   # the rematch offered or started after this game


def player_owner(player_id: str) -> str:
    """The owner a player stands for among the live-game caps (service.games.caps)."""
    return "player:" + player_id
