"""Settings from the environment."""
import pytest

from service.config import Settings, SettingsError


def test_defaults():
    assert Settings.from_env({}) == Settings(
        redis_url="", redis_cluster=False, game_ttl_seconds=604800, rate_limit="300/minute",
        action_rate_limit="120/minute", rate_limit_enabled=True, log_level="INFO")
    assert not Settings.from_env({}).uses_redis


def test_every_variable():
    settings = Settings.from_env({
        "CRIBBAGE_REDIS_URL": "redis://127.0.0.1:6390/0", "CRIBBAGE_REDIS_CLUSTER": "1",
        "CRIBBAGE_GAME_TTL_SECONDS": "60", "CRIBBAGE_RATE_LIMIT": "10/second",
        "CRIBBAGE_ACTION_RATE_LIMIT": "5/second", "CRIBBAGE_RATE_LIMIT_ENABLED": "0",
        "CRIBBAGE_LOG_LEVEL": "debug"})
    assert settings == Settings("redis://127.0.0.1:6390/0", True, 60, "10/second", "5/second",
                                False, "DEBUG")
    assert settings.uses_redis


@pytest.mark.parametrize("name, value", [
    ("CRIBBAGE_GAME_TTL_SECONDS", "soon"), ("CRIBBAGE_GAME_TTL_SECONDS", "0"),
    ("CRIBBAGE_REDIS_CLUSTER", "maybe"), ("CRIBBAGE_RATE_LIMIT_ENABLED", "2"),
])
def test_bad_values_are_named(name, value):
    with pytest.raises(SettingsError, match=name):
        Settings.from_env({name: value})
