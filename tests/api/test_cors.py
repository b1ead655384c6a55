"""CORS: only the configured origins get CORS headers, on answers, errors and preflights."""

from __future__ import annotations

import pytest

from service.api import create_app
from service.config import Settings, SettingsError
from service.store import MemoryGameStore

APP_ORIGIN = "https://app.example"
EXPOSED = ("ETag, Location, Retry-After, RateLimit, RateLimit-Policy, Content-Language, "
           "Idempotent-Replayed, WWW-Authenticate, Allow, X-Request-ID")
ALLOWED = ("Authorization, Content-Type, If-Match, If-None-Match, Idempotency-Key, "
           "Accept-Language, Last-Event-ID, X-Request-ID")
CORS_HEADERS = ("Access-Control-Allow-Origin", "Access-Control-Expose-Headers",
                "Access-Control-Allow-Methods", "Access-Control-Allow-Headers",
                "Access-Control-Max-Age", "Access-Control-Allow-Credentials")


def client_for(*origins):
    settings = Settings(rate_limit_enabled=False, cors_origins=origins)
    app = create_app({"TESTING": True, "GAME_STORE": MemoryGameStore(600), "SETTINGS": settings})
    return app.test_client()


def cors_headers(response) -> dict:
    return {name: response.headers[name] for name in CORS_HEADERS if name in response.headers}


def test_an_allowed_origin_may_read_the_answer_and_the_headers_a_client_needs():
    response = client_for(APP_ORIGIN, "http://localhost:3000").get(
        "/v1/ping", headers={"Origin": APP_ORIGIN})
    assert response.status_code == 200
    assert cors_headers(response) == {"Access-Control-Allow-Origin": APP_ORIGIN,
                                      "Access-Control-Expose-Headers": EXPOSED}
    assert "Origin" in response.headers["Vary"]


def test_errors_carry_the_cors_headers_too():
    response = client_for(APP_ORIGIN).get("/v1/games/aaaaaaaaaaaaaaaa",
                                           headers={"Origin": APP_ORIGIN})
    assert response.status_code == 404
    assert response.mimetype == "application/problem+json"
    assert cors_headers(response) == {"Access-Control-Allow-Origin": APP_ORIGIN,
                                      "Access-Control-Expose-Headers": EXPOSED}


@pytest.mark.parametrize("origin", ["https://evil.example", "https://app.example:8443",
                                    "http://app.example", "null"])
def test_another_origin_gets_no_cors_header(origin):
    response = client_for(APP_ORIGIN).get("/v1/ping", headers={"Origin": origin})
    assert response.status_code == 200
    assert cors_headers(response) == {}
    assert "Origin" in response.headers["Vary"]  # a cache must not serve it to the app's page


def test_by_default_no_origin_is_allowed():
    client = create_app({"TESTING": True, "GAME_STORE": MemoryGameStore(600),
                         "SETTINGS": Settings(rate_limit_enabled=False)}).test_client()
    response = client.get("/v1/ping", headers={"Origin": APP_ORIGIN})
    assert cors_headers(response) == {}
    preflight = client.options("/v1/games", headers={
        "Origin": APP_ORIGIN, "Access-Control-Request-Method": "POST"})
    assert cors_headers(preflight) == {}


def test_a_preflight_from_an_allowed_origin_names_the_methods_and_headers():
    response = client_for(APP_ORIGIN).options("/v1/games/aaaaaaaaaaaaaaaa/actions", headers={
        "Origin": APP_ORIGIN, "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, content-type, idempotency-key"})
    assert response.status_code == 204
    assert response.get_data() == b""
    assert cors_headers(response) == {
        "Access-Control-Allow-Origin": APP_ORIGIN, "Access-Control-Expose-Headers": EXPOSED,
        "Access-Control-Allow-Methods": "OPTIONS, POST",
        "Access-Control-Allow-Headers": ALLOWED, "Access-Control-Max-Age": "600"}


def test_a_preflight_for_a_stream_allows_last_event_id():
    response = client_for(APP_ORIGIN).options("/v1/games/aaaaaaaaaaaaaaaa/stream", headers={
        "Origin": APP_ORIGIN, "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "last-event-id"})
    assert response.status_code == 204
    assert response.headers["Access-Control-Allow-Methods"] == "GET, OPTIONS"
    assert "Last-Event-ID" in response.headers["Access-Control-Allow-Headers"].split(", ")


def test_a_preflight_from_another_origin_is_not_approved():
    response = client_for(APP_ORIGIN).options("/v1/games", headers={
        "Origin": "https://evil.example", "Access-Control-Request-Method": "POST"})
    assert cors_headers(response) == {}


def test_preflights_are_not_counted_against_the_rate_limit():
    settings = Settings(rate_limit="2/minute", cors_origins=(APP_ORIGIN,))
    client = create_app({"TESTING": True, "GAME_STORE": MemoryGameStore(600),
                         "SETTINGS": settings}).test_client()
    preflight = {"Origin": APP_ORIGIN, "Access-Control-Request-Method": "GET"}
    assert [client.options("/v1/ping", headers=preflight).status_code
            for _ in range(5)] == [204] * 5
    assert [client.get("/v1/ping").status_code for _ in range(3)] == [200, 200, 429]


def test_the_allow_list_is_read_from_the_environment():
    settings = Settings.from_env({"CRIBBAGE_CORS_ORIGINS":
                                  "https://App.example, http://localhost:3000 http://[::1]:8080"})
    assert settings.cors_origins == ("https://app.example", "http://localhost:3000",
                                     "http://[::1]:8080")
    assert Settings.from_env({}).cors_origins == ()


@pytest.mark.parametrize("value", ["*", "https://app.example/", "app.example",
                                   "https://*.example", "ftp://app.example"])
def test_anything_but_an_origin_is_refused_at_start_up(value):
    with pytest.raises(SettingsError) as refused:
        Settings.from_env({"CRIBBAGE_CORS_ORIGINS": value})
    assert str(refused.value) == (f"CRIBBAGE_CORS_ORIGINS: {value!r} is not an origin such as "
                                  "https://app.example or http://localhost:3000")
