"""Games over HTTP, minus the HTTP: the application service between the API, engine and store."""

from .errors import GameError
from .service import MAX_WAIT, GamesService, Snapshot

__all__ = ["GameError", "GamesService", "MAX_WAIT", "Snapshot"]
