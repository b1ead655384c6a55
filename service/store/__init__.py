"""Game storage: the GameStore interface and its Redis and in-memory implementations."""

from .base import (
    DeliveryLog,
    GameExists,
    GameNotFound,
    GameStore,
    QueuedEntry,
    StoredGame,
    StoredPlayer,
    StoreError,
    StoreFull,
    StoreUnavailable,
    VersionConflict,
)
from .memory import MemoryGameStore
from .redis_store import RedisGameStore


def open_store(redis_url: str | None, cluster: bool, ttl_seconds: int,
               finished_ttl_seconds: int | None = None,
               memory_max_games: int | None = None,
               durability: str = "none") -> GameStore:
    """The Redis store when a URL is configured, else the embedded in-memory store."""
    if redis_url:
        return RedisGameStore(redis_url, ttl_seconds, cluster=cluster,
                              finished_ttl_seconds=finished_ttl_seconds, durability=durability)
    return MemoryGameStore(ttl_seconds, finished_ttl_seconds=finished_ttl_seconds,
                           max_games=memory_max_games)


__all__ = [
    "DeliveryLog",
    "GameExists",
    "GameNotFound",
    "GameStore",
    "MemoryGameStore",
    "QueuedEntry",
    "RedisGameStore",
    "StoreError",
    "StoreFull",
    "StoreUnavailable",
    "StoredGame",
    "StoredPlayer",
    "VersionConflict",
    "open_store",
]
