"""Settings read from the environment (docs/guides/operations.md lists every variable with its
default).

The parsers here are the only ones: Settings.from_env and deploy/gunicorn.conf.py both use them,
so a variable reads the same whichever of the two reads it.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

TRUE_WORDS = ("1", "true", "yes", "on")
FALSE_WORDS = ("0", "false", "no", "off")
MAX_DEFAULT_WORKERS = 12
# What a game write must reach before it is acknowledged (service/store/durability.py).
DURABILITY_MODES = ("none", "fsync", "replica")
# Where searches run (service/compute): in the caller (the library and the tests only), in
# compute processes beside the web worker, or in compute workers fed through Redis.
COMPUTE_MODES = ("inline", "local", "redis")
# Where `mkdocs build` writes the documentation site in a checkout (an installed package has none).
CHECKOUT_SITE = Path(__file__).resolve().parents[1] / "site"
_WHOLE_NUMBER = re.compile(r"[0-9]+")
_TOKEN = re.compile(r"[\x21-\x7e]{16,200}")
_ORIGIN = re.compile(r"https?://([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(:[0-9]{1,5})?")


class SettingsError(ValueError):
    """An environment variable holds a value the service cannot use."""


def parse_text(env: Mapping[str, str], name: str, default: str) -> str:
    """The variable's value without surrounding blanks; `default` when it is unset or blank."""
    return env.get(name, "").strip() or default


def parse_flag(env: Mapping[str, str], name: str, default: bool) -> bool:
    """1, true, yes or on; 0, false, no or off (any case); `default` when unset or blank."""
    raw = parse_text(env, name, "")
    if not raw:
        return default
    if raw.lower() in TRUE_WORDS:
        return True
    if raw.lower() in FALSE_WORDS:
        return False
    raise SettingsError(f"{name}={raw!r}: expected one of {', '.join(TRUE_WORDS)} "
                        f"or {', '.join(FALSE_WORDS)}")


def parse_choice(env: Mapping[str, str], name: str, default: str,
                 choices: tuple[str, ...]) -> str:
    """One of `choices` (any case); `default` when unset or blank."""
    raw = parse_text(env, name, default)
    if raw.lower() not in choices:
        raise SettingsError(f"{name}={raw!r}: expected one of {', '.join(choices)}")
    return raw.lower()


def parse_positive_int(env: Mapping[str, str], name: str, default: int) -> int:
    """A whole number of 1 or more, in decimal digits; `default` when unset or blank."""
    return parse_whole_number(env, name, default, minimum=1)


def parse_whole_number(env: Mapping[str, str], name: str, default: int,
                       minimum: int = 0) -> int:
    """A whole number of `minimum` or more, in decimal digits; `default` when unset or blank."""
    raw = parse_text(env, name, "")
    if not raw:
        return default
    if not _WHOLE_NUMBER.fullmatch(raw) or int(raw) < minimum:
        raise SettingsError(f"{name}={raw!r}: expected a whole number of {minimum} or more")
    return int(raw)


def parse_origins(env: Mapping[str, str], name: str) -> tuple[str, ...]:
    """Browser origins (`https://app.example`, `http://localhost:3000`), separated by commas or
    blanks; none when unset or blank. An origin is a scheme, a host and perhaps a port: no
    path, no wildcard."""
    origins = tuple(part.lower() for part in re.split(r"[,\s]+", parse_text(env, name, ""))
                    if part)
    for origin in origins:
        if not _ORIGIN.fullmatch(origin):
            raise SettingsError(f"{name}: {origin!r} is not an origin such as "
                                "https://app.example or http://localhost:3000")
    return origins


def parse_token(env: Mapping[str, str], name: str) -> str:
    """A secret of 16 to 200 visible ASCII characters (what a Bearer header carries); empty when
    unset or blank. A refusal does not repeat the value."""
    raw = parse_text(env, name, "")
    if raw and not _TOKEN.fullmatch(raw):
        raise SettingsError(f"{name}: expected 16 to 200 visible ASCII characters")
    return raw


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
    finished_game_ttl_seconds: int = 86400
    max_live_games_per_client: int = 100
    memory_max_games: int = 5000
    metrics_token: str = field(default="", repr=False)
    durability: str = "none"
    token_rate_limit: str = "600/minute"
    trusted_proxy_hops: int = 0
    cors_origins: tuple[str, ...] = ()
    player_ttl_seconds: int = 2592000
    max_live_games_per_player: int = 100
    sweep_seconds: float = 1.0  # how often each server process applies due deadlines; 0: never
    webhooks_allow_private: bool = False
    webhook_attempts: int = 8
    webhook_retry_base_ms: int = 5000
    webhook_ca_file: str = ""
    webhook_idle_seconds: int = 60
    compute: str = "inline"
    compute_processes: int = 1
    compute_time_limit: int = 30
    compute_reply_seconds: int = 5
    compute_queue_moves: int = 1000
    compute_queue_analyses: int = 200
    analysis_cpu_ms_per_minute: int = 10000
    table_dir: str = ""        # "": cribbage-tables-<uid> in the temporary directory
    table_shelf_mb: int = 64   # the win-model tables kept for every compute process, at most
    webhook_concurrency: int = 50     # deliveries a process holds, under way or waiting
    webhook_per_destination: int = 4  # under way at once to one scheme://host:port
    vapid_private_key: str = field(default="", repr=False)  # "": made once, kept in the store
    vapid_subject: str = "mailto:push@cribbage.invalid"
    docs_site: str = str(CHECKOUT_SITE)  # the built site served at /docs/manual/; "": none

    def __post_init__(self):
        if not self.vapid_subject.startswith(("mailto:", "https://")):
            raise SettingsError("CRIBBAGE_VAPID_SUBJECT must be a mailto: or https:// contact "
                                "for the push services")
        if self.vapid_private_key:
            from service.webhooks.push import VapidKey  # cryptography only where push is set
            try:
                VapidKey.from_text(self.vapid_private_key, self.vapid_subject)
            except ValueError as error:
                raise SettingsError(f"CRIBBAGE_VAPID_PRIVATE_KEY: {error}") from None
        if self.durability != "none" and not self.redis_url:
            raise SettingsError(f"CRIBBAGE_DURABILITY={self.durability!r} needs "
                                "CRIBBAGE_REDIS_URL: the embedded store keeps nothing across "
                                "a restart")
        if self.compute == "redis" and not self.redis_url:
            raise SettingsError("CRIBBAGE_COMPUTE=redis needs CRIBBAGE_REDIS_URL: its jobs go "
                                "through Redis")
        if self.compute == "local" and self.compute_processes < 1:
            raise SettingsError("CRIBBAGE_COMPUTE=local needs CRIBBAGE_COMPUTE_PROCESSES of 1 "
                                "or more")

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """Read the CRIBBAGE_* variables; unset or empty ones keep their defaults."""
        env = os.environ if environ is None else environ
        defaults = cls()
        return cls(
            redis_url=parse_text(env, "CRIBBAGE_REDIS_URL", defaults.redis_url),
            redis_cluster=parse_flag(env, "CRIBBAGE_REDIS_CLUSTER", defaults.redis_cluster),
            game_ttl_seconds=parse_positive_int(env, "CRIBBAGE_GAME_TTL_SECONDS",
                                                defaults.game_ttl_seconds),
            rate_limit=parse_text(env, "CRIBBAGE_RATE_LIMIT", defaults.rate_limit),
            action_rate_limit=parse_text(env, "CRIBBAGE_ACTION_RATE_LIMIT",
                                         defaults.action_rate_limit),
            token_rate_limit=parse_text(env, "CRIBBAGE_TOKEN_RATE_LIMIT",
                                        defaults.token_rate_limit),
            rate_limit_enabled=parse_flag(env, "CRIBBAGE_RATE_LIMIT_ENABLED",
                                          defaults.rate_limit_enabled),
            trusted_proxy_hops=parse_whole_number(env, "CRIBBAGE_TRUSTED_PROXY_HOPS",
                                                  defaults.trusted_proxy_hops),
            cors_origins=parse_origins(env, "CRIBBAGE_CORS_ORIGINS"),
            log_level=parse_text(env, "CRIBBAGE_LOG_LEVEL", defaults.log_level).upper(),
            stream_seconds=parse_positive_int(env, "CRIBBAGE_STREAM_SECONDS",
                                              int(defaults.stream_seconds)),
            finished_game_ttl_seconds=parse_positive_int(
                env, "CRIBBAGE_FINISHED_GAME_TTL_SECONDS", defaults.finished_game_ttl_seconds),
            max_live_games_per_client=parse_whole_number(
                env, "CRIBBAGE_MAX_LIVE_GAMES_PER_CLIENT", defaults.max_live_games_per_client),
            memory_max_games=parse_positive_int(env, "CRIBBAGE_MEMORY_MAX_GAMES",
                                                defaults.memory_max_games),
            metrics_token=parse_token(env, "CRIBBAGE_METRICS_TOKEN"),
            durability=parse_choice(env, "CRIBBAGE_DURABILITY", defaults.durability,
                                    DURABILITY_MODES),
            player_ttl_seconds=parse_positive_int(env, "CRIBBAGE_PLAYER_TTL_SECONDS",
                                                  defaults.player_ttl_seconds),
            max_live_games_per_player=parse_whole_number(
                env, "CRIBBAGE_MAX_LIVE_GAMES_PER_PLAYER", defaults.max_live_games_per_player),
            sweep_seconds=parse_whole_number(env, "CRIBBAGE_SWEEP_SECONDS",
                                             int(defaults.sweep_seconds)),
            webhooks_allow_private=parse_flag(env, "CRIBBAGE_WEBHOOKS_ALLOW_PRIVATE",
                                              defaults.webhooks_allow_private),
            webhook_attempts=parse_positive_int(env, "CRIBBAGE_WEBHOOK_ATTEMPTS",
                                                defaults.webhook_attempts),
            webhook_retry_base_ms=parse_positive_int(env, "CRIBBAGE_WEBHOOK_RETRY_BASE_MS",
                                                     defaults.webhook_retry_base_ms),
            webhook_ca_file=parse_text(env, "CRIBBAGE_WEBHOOK_CA_FILE",
                                       defaults.webhook_ca_file),
            webhook_idle_seconds=parse_positive_int(env, "CRIBBAGE_WEBHOOK_IDLE_SECONDS",
                                                    defaults.webhook_idle_seconds),
            compute=parse_choice(env, "CRIBBAGE_COMPUTE",
                                 "redis" if parse_text(env, "CRIBBAGE_REDIS_URL", "") else "local",
                                 COMPUTE_MODES),
            compute_processes=parse_whole_number(env, "CRIBBAGE_COMPUTE_PROCESSES",
                                                 usable_cpus()),
            compute_time_limit=parse_positive_int(env, "CRIBBAGE_COMPUTE_TIME_LIMIT",
                                                  defaults.compute_time_limit),
            compute_reply_seconds=parse_whole_number(env, "CRIBBAGE_COMPUTER_REPLY_SECONDS",
                                                     defaults.compute_reply_seconds),
            compute_queue_moves=parse_positive_int(env, "CRIBBAGE_COMPUTE_QUEUE_MOVES",
                                                   defaults.compute_queue_moves),
            compute_queue_analyses=parse_positive_int(env, "CRIBBAGE_COMPUTE_QUEUE_ANALYSES",
                                                      defaults.compute_queue_analyses),
            analysis_cpu_ms_per_minute=parse_positive_int(
                env, "CRIBBAGE_ANALYSIS_CPU_MS_PER_MINUTE", defaults.analysis_cpu_ms_per_minute),
            table_dir=parse_text(env, "CRIBBAGE_TABLE_DIR", defaults.table_dir),
            table_shelf_mb=parse_whole_number(env, "CRIBBAGE_TABLE_SHELF_MB",
                                              defaults.table_shelf_mb),
            webhook_concurrency=parse_positive_int(env, "CRIBBAGE_WEBHOOK_CONCURRENCY",
                                                   defaults.webhook_concurrency),
            webhook_per_destination=parse_positive_int(env, "CRIBBAGE_WEBHOOK_PER_DESTINATION",
                                                       defaults.webhook_per_destination),
            vapid_private_key=parse_text(env, "CRIBBAGE_VAPID_PRIVATE_KEY",
                                         defaults.vapid_private_key),
            vapid_subject=parse_text(env, "CRIBBAGE_VAPID_SUBJECT", defaults.vapid_subject),
            docs_site=parse_text(env, "CRIBBAGE_DOCS_SITE", defaults.docs_site),
        )

    @property
    def uses_redis(self) -> bool:
        return bool(self.redis_url)


def default_workers(env: Mapping[str, str], cpus: int) -> int:
    """gunicorn's worker count when WEB_CONCURRENCY is unset: 1 with the embedded store, whose
    games live inside one process; with Redis, 2 x `cpus` + 1, at most 12."""
    if not parse_text(env, "CRIBBAGE_REDIS_URL", ""):
        return 1
    return min(2 * cpus + 1, MAX_DEFAULT_WORKERS)


def usable_cpus() -> int:
    """The CPUs this process may run on (in a container, the cpuset, not the host's count)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1
