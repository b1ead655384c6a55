"""Players: an optional identity over seats, so an app need not keep every seat token.

A player token is a 128-bit secret like a seat token, shown once; the store keeps the player
under the token's SHA-256 (tokens.digest), never the token. A seat created or joined with a
player token is linked to the player: the seat keeps the same digest, so the player token opens
that seat wherever its seat token does (GameTable.open matches both). That is how a player
recovers its seats on a new device: no fresh seat token is issued, so a device that still holds
the old one keeps working, and no new secret is stored anywhere. The player's games (id and
seat, newest first) make its lobby (Players.games_of).

A new token (service.games.accounts) moves the player to the new digest, and leaves a
forwarding document under the old one: `moved_to` the new digest, first beside the whole
document while the move is under way (the old token still opens the player, found under the new
digest), then alone and `closed` (the old token opens nothing). Whoever reads a player by a
digest that seats or a game's result still name follows the forwarding (`current`), so what is
written for the player lands on the one document that is the player's.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from service import engine
from service.ratings import INITIAL, Rating, Stats
from service.store import GameStore, StoredPlayer
from service.webhooks.model import Webhook

from . import tokens
from .caps import LiveGamesCap
from .errors import PlayerBusy, PlayerRefused
from .record import GameRecord, is_over

PLAYER_TTL_SECONDS = 30 * 86400   # a player is kept this long after its last use
MAX_LIVE_GAMES = 100              # games in play one player may sit in
WRITE_ATTEMPTS = 50               # compare-and-set rounds before giving up on a busy player
SETTLED_KEPT = 500                # games whose result a player remembers having counted
MOVES_FOLLOWED = 8                # forwardings followed from a digest to the player's document


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
    ratings: tuple[tuple[str, Rating], ...] = ()  # (format, rating) of the formats played
    stats: tuple[tuple[str, Stats], ...] = ()     # (format, stats) of the formats played
    changes: tuple[tuple[str, int], ...] = ()     # (format, what its last game moved it)
    settled: tuple[str, ...] = ()   # the games whose result is counted, the newest last
    listed: bool = True             # shown on leaderboards
    # Digests whose documents forward to this one and still open it: the old tokens of a
    # rotation cut off before it closed them (the next rotation or the erasure does).
    aliases: tuple[str, ...] = ()

    def rating(self, fmt: str) -> Rating:
        """The player's rating in a format: the initial one (provisional) if never rated."""
        return dict(self.ratings).get(fmt, INITIAL)

    def stats_in(self, fmt: str) -> Stats:
        return dict(self.stats).get(fmt, Stats())

    def change_in(self, fmt: str) -> int:
        """What the player's last rated game of the format moved its displayed rating."""
        return dict(self.changes).get(fmt, 0)

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


LobbyPlace = tuple[bool, float, str, int]   # where a game comes in a player's list


def lobby_place(line: LobbyGame) -> LobbyPlace:
    """Games in play first, then the newest write first (then the newest link first, the
    store's order); the game and seat name it."""
    return (line.ended, -line.updated, line.game_id, line.seat)


def player_owner(player_id: str) -> str:
    """The owner a player stands for among the live-game caps (service.games.caps)."""
    return "player:" + player_id


class Players:
    def __init__(self, store: GameStore, clock: Callable[[], float] = time.time,
                 policy: PlayerPolicy = PlayerPolicy()):
        self.store = store
        self.clock = clock
        self.policy = policy

    def create(self, name: str | None = None) -> NewPlayer:
        """A new player identity; its token is shown once."""
        token = tokens.new_secret()
        player = Player(secrets.token_urlsafe(12), name, tokens.digest(token), self.clock())
        data = json.dumps({"player_id": player.player_id, "name": name,
                           "created": player.created}, separators=(",", ":"))
        self.store.create_player(player.key, data, self.policy.ttl_seconds)
        return NewPlayer(player, token)

    def identify(self, token: str) -> Player:
        """The player a player token stands for; PlayerRefused if none (or it expired)."""
        return self.by_key(tokens.digest(token))

    def by_key(self, key: str, closed: bool = False) -> Player:
        """The player stored under `key` (its token's digest), or that `key` forwards to while
        a move is under way; PlayerRefused if none, or if `key` is closed (unless `closed`:
        the player a closed old key was moved to, for what was queued under it)."""
        found = current(self.store, key, self.policy.ttl_seconds, closed=closed)
        if found is None:
            raise PlayerRefused("this player token is unknown or expired")
        at, stored, aliases = found
        return replace(player_from(at, stored), aliases=aliases)

    def change(self, player: Player, change: Callable[[Player], Player]) -> Player:
        """Save `change(player)` (its name and webhooks) over the player's document with a
        compare-and-set: a change saved meanwhile by another request is read again and
        `change` applied to it, so neither is lost; a player moved meanwhile (a new token) is
        changed where it moved. Returns the player saved."""
        for _ in range(WRITE_ATTEMPTS):
            found = current(self.store, player.key, self.policy.ttl_seconds)
            if found is None:
                raise PlayerRefused("this player token is unknown or expired")
            at, stored, _ = found
            changed = change(player_from(at, stored))
            if self.store.save_player(at, stored.data, player_document(changed),
                                      self.policy.ttl_seconds):
                return changed
        raise PlayerBusy("too many simultaneous changes to this player; retry")

    def stored(self, key: str) -> StoredPlayer | None:
        """The player's document as stored (its use keeps it), where `key` leads (current), or
        None if it expired."""
        found = current(self.store, key, self.policy.ttl_seconds)
        return None if found is None else found[1]

    def games_of(self, player: Player) -> tuple[LobbyGame, ...]:
        """The player's games (as `identify` found them) that have not expired, those in play
        first, then the newest write first. Read only: a deadline that is due shows as
        applied, and is written by the next request to that game."""
        lines, gone = [], []
        found = self.store.load_many([game_id for game_id, _ in player.games])
        for (game_id, seat), game in zip(player.games, found):
            if game is None:
                gone.append((game_id, seat))
            else:
                lines.append(self._lobby_line(game_id, seat, GameRecord.from_json(game.data)))
        if gone:
            self.store.unlink_player_games(player.key, gone)
        return tuple(sorted(lines, key=lambda line: lobby_place(line)[:2]))

    def games_page(self, player: Player, limit: int, after: LobbyPlace | None = None
                   ) -> tuple[tuple[LobbyGame, ...], LobbyPlace | None]:
        """Up to `limit` of the player's games (in games_of's order) after the place `after`,
        and the place of the last one if more follow (None if not). The page goes on after
        the game `after` names; if that game has moved or gone, after the last game that
        came before its place. A game that changed between two pages moves: it may show
        twice, or not at all, as in any list of live things paged by where the last page
        ended."""
        lines = list(self.games_of(player))
        if after is not None:
            named = [number for number, line in enumerate(lines) if lobby_place(line) == after]
            lines = lines[named[0] + 1:] if named else [
                line for line in lines if lobby_place(line)[:2] > after[:2]]
        page = tuple(lines[:limit])
        return page, lobby_place(page[-1]) if len(lines) > limit else None

    def _lobby_line(self, game_id: str, seat: int, record: GameRecord) -> LobbyGame:
        """A count deadline that is due shows as applied; nothing is saved, and no computer is
        asked to move. Only the public parts of the state are read: whose turn, scores,
        sides."""
        state = record.state
        if state.deadline is not None and self.clock() > state.deadline:
            state, _ = engine.expire(state, self.clock())
        to_act = tuple(s for s in engine.to_act(state) if record.seats[s].kind == "human")
        options = state.options
        side_of_seat = tuple(options.side_of(number) for number in range(options.players))
        offer = record.rematch
        return LobbyGame(
            game_id=game_id, seat=seat, phase=state.phase, to_act=to_act,
            your_turn=seat in to_act, scores=state.scores,
            side=side_of_seat[seat], side_of_seat=side_of_seat,
            seats=tuple(enumerate(record.seats)),
            updated=record.updated, ended=is_over(state.phase, options.match),
            rematch_of=record.rematch_of,
            rematch_game_id=None if offer is None or not (offer.open or offer.started)
            else offer.game_id)


def current(store: GameStore, key: str, ttl: int, closed: bool = True
            ) -> tuple[str, StoredPlayer, tuple[str, ...]] | None:
    """The player document `key` leads to: its digest, the document and the digests passed on
    the way; None if there is none (or, with `closed` False, if `key` itself is closed)."""
    passed: list[str] = []
    for _ in range(MOVES_FOLLOWED):
        stored = store.load_player(key, ttl)
        if stored is None:
            return None
        data = json.loads(stored.data)
        if "moved_to" not in data:
            return key, stored, tuple(passed)
        if data.get("closed") and not (closed or passed):
            return None
        passed.append(key)
        key = data["moved_to"]
    return None


def player_document(player: Player) -> str:
    """The player as the store keeps it (its games are kept apart)."""
    return json.dumps({
        "player_id": player.player_id, "name": player.name, "created": player.created,
        "webhooks": [webhook.to_dict() for webhook in player.webhooks],
        "ratings": {fmt: rating.to_dict() for fmt, rating in player.ratings},
        "stats": {fmt: stats.to_dict() for fmt, stats in player.stats},
        "changes": dict(player.changes),
        "settled": list(player.settled[-SETTLED_KEPT:]), "listed": player.listed},
        separators=(",", ":"))


def player_from(key: str, stored: StoredPlayer) -> Player:
    data = json.loads(stored.data)
    return Player(data["player_id"], data["name"], key, data["created"], stored.games,
                  tuple(Webhook.from_dict(webhook) for webhook in data.get("webhooks", ())),
                  tuple((fmt, Rating.from_dict(rating))
                        for fmt, rating in data.get("ratings", {}).items()),
                  tuple((fmt, Stats.from_dict(stats))
                        for fmt, stats in data.get("stats", {}).items()),
                  tuple(data.get("changes", {}).items()),
                  tuple(data.get("settled", ())), data.get("listed", True))
