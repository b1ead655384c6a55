"""Settings read from the environment (the README lists every variable with its default)."""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Mapping


class SettingsError(ValueError):
    """An environment variable holds a value the service cannot use."""


@dataclass(frozen=True, slots=True)
class Settings:
    redis_url: str = ""
    redis_cluster: bool = False
    game_ttl_seconds: int = 604800
    rate_limit: str = "300/minute"
    action_rate_limit: str = "120/minute"
    rate_limit_enabled: bool = True
    log_level: str = "INFO"
    stream_seconds: float = 3600.0

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """Read the CRIBBAGE_* variables; unset or empty ones keep their defaults."""
        env = os.environ if environ is None else environ
        defaults = cls()

        def text(name: str, default: str) -> str:
            return env.get(name, "").strip() or default

        return cls(
            redis_url=text("CRIBBAGE_REDIS_URL", defaults.redis_url),
            redis_cluster=_flag(env, "CRIBBAGE_REDIS_CLUSTER", defaults.redis_cluster),
            game_ttl_seconds=_positive_int(env, "CRIBBAGE_GAME_TTL_SECONDS",
                                           defaults.game_ttl_seconds),
            rate_limit=text("CRIBBAGE_RATE_LIMIT", defaults.rate_limit),
            action_rate_limit=text("CRIBBAGE_ACTION_RATE_LIMIT", defaults.action_rate_limit),
            rate_limit_enabled=_flag(env, "CRIBBAGE_RATE_LIMIT_ENABLED",
                                     defaults.rate_limit_enabled),
            log_level=text("CRIBBAGE_LOG_LEVEL", defaults.log_level).upper(),
            stream_seconds=_positive_int(env, "CRIBBAGE_STREAM_SECONDS",
                                         int(defaults.stream_seconds)),
        )

    @property
    def uses_redis(self) -> bool:
        return bool(self.redis_url)


_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def _flag(env: Mapping[str, str], name: str, default: bool) -> bool:
    raw = env.get(name, "").strip().lower()
    if not raw:
        return default
    if raw in _TRUE:
        return True
    if raw in _FALSE:
        return False
    raise SettingsError(f"{name}={raw!r}: expected 1 or 0")


def _positive_int(env: Mapping[str, str], name: str, default: int) -> int:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise SettingsError(f"{name}={raw!r}: expected a whole number of seconds") from None
    if value <= 0:
        raise SettingsError(f"{name}={raw!r}: must be positive")
    return value
