"""GameError: everything the games service refuses, with an HTTP status and a stable code."""

from __future__ import annotations


class GameError(Exception):
    """A refused request. `status` is the HTTP status, `code` names the problem for clients
    and message catalogues, `params` fill the message."""

    def __init__(self, status: int, code: str, message: str, **params):
        super().__init__(message)
        self.status = status
        self.code = code
        self.params = params


def not_found(game_id: str) -> GameError:
    return GameError(404, "game_not_found", f"there is no game {game_id}", game_id=game_id)
