"""Settings from the environment, and the one parser the service and gunicorn share."""
import pytest

from service.config import (Settings, SettingsError, default_workers, parse_flag,
                            parse_positive_int, parse_text, usable_cpus)


def test_defaults():
    assert Settings.from_env({}) == Settings(
        redis_url="", redis_cluster=False, game_ttl_seconds=604800, rate_limit="300/minute",
        action_rate_limit="120/minute", rate_limit_enabled=True, log_level="INFO",
        compute="local", compute_processes=usable_cpus())
    assert not Settings.from_env({}).uses_redis


def test_searches_run_beside_the_web_worker_or_through_redis_never_inline_by_default():
    settings = Settings.from_env({})
    assert (settings.compute, settings.compute_processes, settings.compute_time_limit,
            settings.compute_reply_seconds, settings.compute_queue_moves,
            settings.compute_queue_analyses, settings.analysis_cpu_ms_per_minute) == (
        "local", usable_cpus(), 30, 5, 1000, 200, 10000)
    on_redis = Settings.from_env({"CRIBBAGE_REDIS_URL": "redis://127.0.0.1:6390/0",
                                  "CRIBBAGE_COMPUTE_PROCESSES": "0"})
    assert (on_redis.compute, on_redis.compute_processes) == ("redis", 0)
    assert Settings.from_env({"CRIBBAGE_COMPUTE": "Inline"}).compute == "inline"
    with pytest.raises(SettingsError, match="CRIBBAGE_COMPUTE=redis needs CRIBBAGE_REDIS_URL"):
        Settings.from_env({"CRIBBAGE_COMPUTE": "redis"})
    with pytest.raises(SettingsError, match="CRIBBAGE_COMPUTE_PROCESSES of 1 or more"):
        Settings.from_env({"CRIBBAGE_COMPUTE_PROCESSES": "0"})
    with pytest.raises(SettingsError, match="CRIBBAGE_COMPUTE='gpu'"):
        Settings.from_env({"CRIBBAGE_COMPUTE": "gpu"})


def test_every_variable():
    settings = Settings.from_env({
        "CRIBBAGE_REDIS_URL": "redis://127.0.0.1:6390/0", "CRIBBAGE_REDIS_CLUSTER": "1",
        "CRIBBAGE_GAME_TTL_SECONDS": "60", "CRIBBAGE_RATE_LIMIT": "10/second",
        "CRIBBAGE_ACTION_RATE_LIMIT": "5/second", "CRIBBAGE_RATE_LIMIT_ENABLED": "0",
        "CRIBBAGE_LOG_LEVEL": "debug"})
    assert settings == Settings("redis://127.0.0.1:6390/0", True, 60, "10/second", "5/second",
                                False, "DEBUG", compute="redis",
                                compute_processes=usable_cpus())
    assert settings.uses_redis


def test_a_client_may_have_100_live_games_unless_told_and_0_is_no_cap():
    assert Settings.from_env({}).max_live_games_per_client == 100
    for raw, value in (("0", 0), ("5", 5)):
        settings = Settings.from_env({"CRIBBAGE_MAX_LIVE_GAMES_PER_CLIENT": raw})
        assert settings.max_live_games_per_client == value


def test_a_player_lasts_30_days_idle_and_may_sit_in_100_live_games_unless_told():
    settings = Settings.from_env({})
    assert (settings.player_ttl_seconds, settings.max_live_games_per_player) == (2592000, 100)
    settings = Settings.from_env({"CRIBBAGE_PLAYER_TTL_SECONDS": "600",
                                  "CRIBBAGE_MAX_LIVE_GAMES_PER_PLAYER": "0"})
    assert (settings.player_ttl_seconds, settings.max_live_games_per_player) == (600, 0)
    with pytest.raises(SettingsError, match="CRIBBAGE_PLAYER_TTL_SECONDS='0'"):
        Settings.from_env({"CRIBBAGE_PLAYER_TTL_SECONDS": "0"})


def test_the_embedded_store_holds_5000_games_unless_told():
    assert Settings.from_env({}).memory_max_games == 5000
    assert Settings.from_env({"CRIBBAGE_MEMORY_MAX_GAMES": "20"}).memory_max_games == 20


def test_finished_games_expire_after_a_day_unless_told():
    assert Settings.from_env({}).finished_game_ttl_seconds == 86400
    settings = Settings.from_env({"CRIBBAGE_FINISHED_GAME_TTL_SECONDS": "3600"})
    assert settings.finished_game_ttl_seconds == 3600


def test_the_metrics_token_is_read_and_never_shown():
    token = "s3cret-scrape-token-0123"
    settings = Settings.from_env({"CRIBBAGE_METRICS_TOKEN": f" {token} "})
    assert settings.metrics_token == token
    assert token not in repr(settings)


@pytest.mark.parametrize("value", ["short", "has a space in it, long enough", "x" * 201,
                                   "tëken-with-a-non-ascii-letter"])
def test_an_unusable_metrics_token_is_refused_without_repeating_it(value):
    with pytest.raises(SettingsError) as raised:
        Settings.from_env({"CRIBBAGE_METRICS_TOKEN": value})
    assert str(raised.value) == ("CRIBBAGE_METRICS_TOKEN: expected 16 to 200 visible ASCII "
                                 "characters")


@pytest.mark.parametrize("name, value", [
    ("CRIBBAGE_GAME_TTL_SECONDS", "soon"), ("CRIBBAGE_GAME_TTL_SECONDS", "0"),
    ("CRIBBAGE_FINISHED_GAME_TTL_SECONDS", "0"), ("CRIBBAGE_MAX_LIVE_GAMES_PER_CLIENT", "-1"),
    ("CRIBBAGE_MEMORY_MAX_GAMES", "0"),
    ("CRIBBAGE_REDIS_CLUSTER", "maybe"), ("CRIBBAGE_RATE_LIMIT_ENABLED", "2"),
])
def test_bad_values_are_named(name, value):
    with pytest.raises(SettingsError, match=name):
        Settings.from_env({name: value})


@pytest.mark.parametrize("raw", ["1", "true", "yes", "on", "TRUE", "Yes", " on "])
def test_a_flag_is_on_for_1_true_yes_or_on_in_any_case(raw):
    assert parse_flag({"F": raw}, "F", False) is True


@pytest.mark.parametrize("raw", ["0", "false", "no", "off", "FALSE", "No", " off "])
def test_a_flag_is_off_for_0_false_no_or_off_in_any_case(raw):
    assert parse_flag({"F": raw}, "F", True) is False


@pytest.mark.parametrize("env", [{}, {"F": ""}, {"F": "  "}])
def test_an_unset_or_blank_flag_keeps_its_default(env):
    assert parse_flag(env, "F", True) is True
    assert parse_flag(env, "F", False) is False


@pytest.mark.parametrize("raw", ["2", "maybe", "y", "enabled"])
def test_any_other_flag_value_is_refused_with_the_accepted_words(raw):
    with pytest.raises(SettingsError) as raised:
        parse_flag({"CRIBBAGE_RATE_LIMIT_ENABLED": f" {raw} "}, "CRIBBAGE_RATE_LIMIT_ENABLED",
                   True)
    assert str(raised.value) == (f"CRIBBAGE_RATE_LIMIT_ENABLED={raw!r}: expected one of "
                                 "1, true, yes, on or 0, false, no, off")


@pytest.mark.parametrize("raw, value", [("1", 1), ("8", 8), (" 12 ", 12), ("007", 7)])
def test_a_positive_int_is_read_from_decimal_digits(raw, value):
    assert parse_positive_int({"N": raw}, "N", 3) == value


@pytest.mark.parametrize("env", [{}, {"N": ""}, {"N": "  "}])
def test_an_unset_or_blank_positive_int_keeps_its_default(env):
    assert parse_positive_int(env, "N", 3) == 3


@pytest.mark.parametrize("raw", ["0", "00", "-1", "+5", "1.5", "1_000", "five", "\u0665"])
def test_anything_but_a_whole_number_of_1_or_more_is_refused(raw):
    with pytest.raises(SettingsError) as raised:
        parse_positive_int({"WEB_CONCURRENCY": raw}, "WEB_CONCURRENCY", 1)
    assert str(raised.value) == f"WEB_CONCURRENCY={raw!r}: expected a whole number of 1 or more"


def test_text_is_stripped_and_blank_text_keeps_its_default():
    assert parse_text({"T": "  0.0.0.0:9000 "}, "T", "127.0.0.1:8000") == "0.0.0.0:9000"
    assert parse_text({"T": " "}, "T", "127.0.0.1:8000") == "127.0.0.1:8000"
    assert parse_text({}, "T", "127.0.0.1:8000") == "127.0.0.1:8000"


@pytest.mark.parametrize("cpus", [1, 2, 4, 64])
def test_the_embedded_store_defaults_to_one_worker_whatever_the_cpus(cpus):
    assert default_workers({}, cpus) == 1
    assert default_workers({"CRIBBAGE_REDIS_URL": "  "}, cpus) == 1


@pytest.mark.parametrize("cpus, workers", [(1, 3), (2, 5), (5, 11), (6, 12), (64, 12)])
def test_with_redis_the_default_is_two_workers_a_cpu_plus_one_at_most_12(cpus, workers):
    assert default_workers({"CRIBBAGE_REDIS_URL": "redis://127.0.0.1:6379/0"}, cpus) == workers


@pytest.mark.parametrize("raw, mode", [("", "none"), ("none", "none"), (" FSYNC ", "fsync"),
                                       ("replica", "replica")])
def test_durability_is_none_fsync_or_replica(raw, mode):
    env = {"CRIBBAGE_REDIS_URL": "redis://127.0.0.1:6379/0", "CRIBBAGE_DURABILITY": raw}
    assert Settings.from_env(env).durability == mode


def test_an_unknown_durability_is_refused_with_the_modes():
    with pytest.raises(SettingsError) as raised:
        Settings.from_env({"CRIBBAGE_REDIS_URL": "redis://127.0.0.1:6379/0",
                           "CRIBBAGE_DURABILITY": "always"})
    assert str(raised.value) == "CRIBBAGE_DURABILITY='always': expected one of none, fsync, replica"


@pytest.mark.parametrize("mode", ["fsync", "replica"])
def test_a_durable_mode_without_redis_is_refused(mode):
    with pytest.raises(SettingsError) as raised:
        Settings.from_env({"CRIBBAGE_DURABILITY": mode})
    assert str(raised.value) == (f"CRIBBAGE_DURABILITY={mode!r} needs CRIBBAGE_REDIS_URL: the "
                                 "embedded store keeps nothing across a restart")


def test_the_token_limit_proxy_hops_and_cors_origins():
    assert (Settings.from_env({}).token_rate_limit, Settings.from_env({}).trusted_proxy_hops,
            Settings.from_env({}).cors_origins) == ("600/minute", 0, ())
    settings = Settings.from_env({"CRIBBAGE_TOKEN_RATE_LIMIT": "50/minute",
                                  "CRIBBAGE_TRUSTED_PROXY_HOPS": "1",
                                  "CRIBBAGE_CORS_ORIGINS": "https://app.example"})
    assert (settings.token_rate_limit, settings.trusted_proxy_hops, settings.cors_origins) == (
        "50/minute", 1, ("https://app.example",))


def test_the_webhook_settings_are_read_from_the_environment():
    settings = Settings.from_env({"CRIBBAGE_WEBHOOKS_ALLOW_PRIVATE": "yes",
                                  "CRIBBAGE_WEBHOOK_ATTEMPTS": "3",
                                  "CRIBBAGE_WEBHOOK_RETRY_BASE_MS": "250",
                                  "CRIBBAGE_WEBHOOK_IDLE_SECONDS": "5",
                                  "CRIBBAGE_WEBHOOK_CA_FILE": "/etc/test-ca.pem"})
    assert (settings.webhooks_allow_private, settings.webhook_attempts,
            settings.webhook_retry_base_ms, settings.webhook_idle_seconds,
            settings.webhook_ca_file) == (True, 3, 250, 5, "/etc/test-ca.pem")
    defaults = Settings.from_env({})
    assert (defaults.webhooks_allow_private, defaults.webhook_attempts,
            defaults.webhook_retry_base_ms, defaults.webhook_idle_seconds,
            defaults.webhook_ca_file) == (False, 8, 5000, 60, "")
    with pytest.raises(SettingsError, match="CRIBBAGE_WEBHOOK_ATTEMPTS='0'"):
        Settings.from_env({"CRIBBAGE_WEBHOOK_ATTEMPTS": "0"})


def test_the_vapid_key_is_pem_or_base64url_and_never_shown_and_its_subject_a_contact():
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    from service.webhooks.push import VapidKey, new_private_key_text
    raw = new_private_key_text()
    pem = ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption()).decode()
    for key in (raw, pem):
        settings = Settings.from_env({"CRIBBAGE_VAPID_PRIVATE_KEY": key,
                                      "CRIBBAGE_VAPID_SUBJECT": "https://cribbage.example"})
        assert settings.vapid_private_key == key.strip() and key.strip() not in repr(settings)
        assert len(VapidKey.from_text(key, settings.vapid_subject).public_key) == 87
    with pytest.raises(SettingsError, match="CRIBBAGE_VAPID_PRIVATE_KEY: a VAPID private key "
                                            "is 32 bytes") as raised:
        Settings.from_env({"CRIBBAGE_VAPID_PRIVATE_KEY": raw[:-4]})
    assert raw[:-4] not in str(raised.value)
    with pytest.raises(SettingsError, match="CRIBBAGE_VAPID_SUBJECT must be a mailto:"):
        Settings.from_env({"CRIBBAGE_VAPID_SUBJECT": "ops@cribbage.example"})
