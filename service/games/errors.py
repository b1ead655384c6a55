"""What the games service refuses, beyond the rules: finding the game, the seat, the version."""

from __future__ import annotations

from service.errors import DomainError, IllegalActionError, InvalidInputError


class GameNotFound(DomainError):
    """No game under this id: never created, or expired after its idle time."""

    code = "game_not_found"


class TokenRequired(DomainError):
    """Acting needs a seat token, and none came."""

    code = "missing_token"


class SeatRefused(DomainError):
    """A credential that opens no seat: a token of no seat (invalid_token), a token acting for
    another seat (not_your_seat), an invite code of no open seat (invalid_invite), a stream
    ticket unknown, used or expired (invalid_ticket)."""


class SeatTaken(IllegalActionError):
    code = "seat_taken"


class VersionMismatch(DomainError):
    """The game is no longer at a version the client named (If-Match)."""

    code = "version_mismatch"


class IdempotencyKeyReused(InvalidInputError):
    code = "idempotency_key_reused"


class GameBusy(DomainError):
    """Too many simultaneous changes to one game: the compare-and-set kept losing."""

    code = "game_busy"


class PlayerBusy(DomainError):
    """Too many simultaneous changes to one player's document: the compare-and-set kept
    losing."""

    code = "player_busy"


class TooManyLiveGames(DomainError):
    """A new game would take its creator past a cap on live games (service.games.caps)."""

    code = "too_many_live_games"


class PlayerRefused(TokenRequired):
    """A player token of no player: never issued, or the player expired (a 401, like a missing
    token: the credential itself is refused)."""

    code = "invalid_player_token"


class AlreadySeated(IllegalActionError):
    """The player holds another seat of this game already: one player token opens one seat."""

    code = "player_already_seated"


class SeekNotFound(DomainError):
    """No seek under this id: never made, or expired (a day after it closed)."""

    code = "seek_not_found"


class SeekRefused(DomainError):
    """The seek is another player's: only its owner cancels it."""

    code = "not_your_seek"
