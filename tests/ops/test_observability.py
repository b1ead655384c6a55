"""Request ids, metrics by route, JSON log lines and the offline docs page, in-process."""

from __future__ import annotations

import io
import json
import logging
import os
import re
import threading
import time

import pytest
from prometheus_client import REGISTRY

from service.api import create_app
from service.config import Settings
from service.store import MemoryGameStore, RedisGameStore
from tests.redis_servers import free_port

HUMAN = {"kind": "human"}
COMPUTER = {"kind": "computer", "level": "first"}


def make_app(store=None, **settings):
    return create_app({"TESTING": True, "GAME_STORE": store or MemoryGameStore(3600),
                       "SETTINGS": Settings(rate_limit_enabled=False, **settings)})


@pytest.fixture
def client():
    return make_app().test_client()


@pytest.fixture
def unreachable_store():
    """A Redis store pointed at a loopback port nothing listens on."""
    return RedisGameStore(f"redis://127.0.0.1:{free_port()}/0", 3600)


def sample(name: str, **labels) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def test_a_plain_request_id_is_echoed_back(client):
    response = client.get("/v1/ping", headers={"X-Request-ID": "checkout-42.a:b"})
    assert response.headers["X-Request-ID"] == "checkout-42.a:b"


@pytest.mark.parametrize("given", ["", "x" * 129, "has space", "quote\"", "line\u2028break"])
def test_a_missing_long_or_odd_request_id_is_replaced_by_a_new_one(client, given):
    headers = {"X-Request-ID": given} if given else {}
    response = client.get("/v1/ping", headers=headers)
    assert re.fullmatch(r"[0-9a-f]{32}", response.headers["X-Request-ID"])


def test_errors_refused_before_any_view_carry_a_request_id_too(client):
    response = client.get("/no/such/path", headers={"X-Request-ID": "r-404"})
    assert (response.status_code, response.headers["X-Request-ID"]) == (404, "r-404")


def test_requests_are_counted_by_route_template_and_status(client):
    route = "/v1/games/<game_id>"
    before = sample("cribbage_http_requests_total", method="GET", route=route, status="404")
    seen_before = sample("cribbage_http_request_duration_seconds_count", method="GET", route=route)
    for game_id in ("AAAAAAAAAAAAAAAA", "BBBBBBBBBBBBBBBB", "CCCCCCCCCCCCCCCC"):
        assert client.get(f"/v1/games/{game_id}").status_code == 404
    assert sample("cribbage_http_requests_total", method="GET", route=route,
                  status="404") == before + 3
    assert sample("cribbage_http_request_duration_seconds_count", method="GET",
                  route=route) == seen_before + 3
    # No raw path ever becomes a label.
    text = client.get("/metrics").get_data(as_text=True)
    assert "AAAAAAAAAAAAAAAA" not in text
    assert 'route="/v1/games/<game_id>"' in text


def test_unknown_paths_share_one_label(client):
    before = sample("cribbage_http_requests_total", method="GET", route="<unmatched>",
                    status="404")
    client.get("/a/b/c")
    client.get("/d")
    assert sample("cribbage_http_requests_total", method="GET", route="<unmatched>",
                  status="404") == before + 2


def test_games_created_and_finished_are_counted(client):
    created = sample("cribbage_games_created_total")
    finished = sample("cribbage_games_finished_total")
    response = client.post("/v1/games", json={"seats": [HUMAN, COMPUTER], "options": {}})
    game = response.get_json()
    assert sample("cribbage_games_created_total") == created + 1
    assert sample("cribbage_games_finished_total") == finished
    resign = client.post(f"/v1/games/{game['game_id']}/actions", json={"type": "resign"},
                         headers={"Authorization": f"Bearer {game['token']}"})
    assert resign.status_code == 200
    assert resign.get_json()["view"]["phase"] == "game_over"
    assert sample("cribbage_games_finished_total") == finished + 1


def test_store_errors_are_counted_by_route(unreachable_store):
    client = make_app(unreachable_store).test_client()
    before = sample("cribbage_store_errors_total", route="/v1/games")
    response = client.post("/v1/games", json={"seats": [HUMAN, COMPUTER], "options": {}})
    assert (response.status_code, response.headers["Retry-After"]) == (503, "1")
    assert sample("cribbage_store_errors_total", route="/v1/games") == before + 1


def test_a_full_store_is_counted_apart_from_an_unreachable_one(dedicated_redis):
    client = make_app(RedisGameStore(dedicated_redis.url, 3600)).test_client()
    dedicated_redis.cli("CONFIG", "SET", "maxmemory", "1")
    full = sample("cribbage_store_full_total", route="/v1/games")
    unreachable = sample("cribbage_store_errors_total", route="/v1/games")
    response = client.post("/v1/games", json={"seats": [HUMAN, COMPUTER], "options": {}})
    assert (response.status_code, response.headers["Retry-After"]) == (503, "30")
    assert sample("cribbage_store_full_total", route="/v1/games") == full + 1
    assert sample("cribbage_store_errors_total", route="/v1/games") == unreachable


METRICS_TOKEN = "a-long-enough-scrape-token"
TOKEN_REQUIRED = {"type": "urn:cribbage:problem:metrics_token_required",
                  "title": "Metrics token required", "status": 401,
                  "detail": "Send the metrics token as Authorization: Bearer <token>",
                  "code": "metrics_token_required"}


@pytest.mark.parametrize("authorization", [None, "", "Bearer", "Bearer wrong-token-of-some-length",
                                           f"Basic {METRICS_TOKEN}", f"Bearer {METRICS_TOKEN}x",
                                           f"Bearer {METRICS_TOKEN[:-1]}"])
def test_with_a_metrics_token_set_metrics_need_it(authorization):
    client = make_app(metrics_token=METRICS_TOKEN).test_client()
    headers = {} if authorization is None else {"Authorization": authorization}
    response = client.get("/metrics", headers=headers)
    assert (response.status_code, response.headers["WWW-Authenticate"], response.mimetype,
            response.get_json(force=True)) == (401, "Bearer", "application/problem+json",
                                               TOKEN_REQUIRED)


def test_with_a_metrics_token_set_a_scrape_bearing_it_gets_the_metrics():
    client = make_app(metrics_token=METRICS_TOKEN).test_client()
    for authorization in (f"Bearer {METRICS_TOKEN}", f"bearer  {METRICS_TOKEN} "):
        response = client.get("/metrics", headers={"Authorization": authorization})
        assert response.status_code == 200
        assert "# TYPE cribbage_http_requests_total counter" in response.get_data(as_text=True)


def test_the_metrics_401_speaks_the_clients_language():
    client = make_app(metrics_token=METRICS_TOKEN).test_client()
    response = client.get("/metrics", headers={"Accept-Language": "es"})
    body = response.get_json(force=True)
    assert (response.status_code, body["title"], body["detail"]) == (
        401, "Token de métricas requerido",
        "Envíe el token de métricas como Authorization: Bearer <token>")


def test_metrics_are_in_the_prometheus_text_format(client):
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "text/plain; version=0.0.4; charset=utf-8"
    text = response.get_data(as_text=True)
    for name in ("cribbage_http_requests_total", "cribbage_http_request_duration_seconds",
                 "cribbage_games_created_total", "cribbage_games_finished_total",
                 "cribbage_store_errors_total", "cribbage_store_full_total"):
        assert f"# TYPE {name} " in text
    openmetrics = client.get("/metrics", headers={"Accept": "application/openmetrics-text"})
    assert openmetrics.headers["Content-Type"].startswith("application/openmetrics-text")
    assert openmetrics.get_data(as_text=True).endswith("# EOF\n")


def test_log_lines_are_json_with_the_request_id(unreachable_store, capfd):
    client = make_app(unreachable_store).test_client()
    capfd.readouterr()
    response = client.get("/readyz", headers={"X-Request-ID": "probe-7"})
    assert response.status_code == 503
    lines = [json.loads(line) for line in capfd.readouterr().err.splitlines() if line]
    (warning,) = [line for line in lines if line["message"].startswith("readiness check")]
    assert list(warning) == ["time", "level", "logger", "pid", "message", "request_id"]
    assert warning["level"] == "warning"
    assert warning["request_id"] == "probe-7"
    assert warning["logger"] == "service.api"
    assert warning["pid"] == os.getpid()
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", warning["time"])


def test_docs_page_loads_everything_from_this_service(client):
    page = client.get("/docs")
    assert page.status_code == 200
    assert page.mimetype == "text/html"
    assert "default-src 'self'" in page.headers["Content-Security-Policy"]
    html = page.get_data(as_text=True)
    assert "http://" not in html and "https://" not in html
    urls = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert len(urls) == 5
    for url in urls:
        assert url.startswith("/docs/")
        assert client.get(url).status_code == 200, url
    init = client.get("/docs/init.js").get_data(as_text=True)
    assert 'url: "/openapi.json"' in init
    assert client.get("/openapi.json").status_code == 200


def test_docs_serve_only_the_assets_the_page_needs(client):
    assert client.get("/docs/assets/index.html").status_code == 404
    assert client.get("/docs/assets/..%2Fpyproject.toml").status_code == 404


# Saturation ---------------------------------------------------------------------------------------
def wait_until(condition, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.01)


def test_a_long_poll_is_timed_apart_from_ordinary_requests(client):
    game = client.post("/v1/games", json={"seats": [HUMAN, COMPUTER]}).get_json()
    route, bearer = "/v1/games/<game_id>/events", {"Authorization": f"Bearer {game['token']}"}
    ordinary = sample("cribbage_http_request_duration_seconds_count", method="GET", route=route)
    waits = sample("cribbage_http_wait_duration_seconds_count", method="GET", route=route)
    waited = sample("cribbage_http_wait_duration_seconds_sum", method="GET", route=route)
    last = client.get(f"/v1/games/{game['game_id']}/events?after=0", headers=bearer).get_json()
    after = last["events"][-1]["number"]
    assert client.get(f"/v1/games/{game['game_id']}/events?after={after}&wait=1",
                      headers=bearer).status_code == 200
    assert sample("cribbage_http_request_duration_seconds_count", method="GET",
                  route=route) == ordinary + 1
    assert sample("cribbage_http_wait_duration_seconds_count", method="GET",
                  route=route) == waits + 1
    # the poll waited its whole second for an event that never came
    assert sample("cribbage_http_wait_duration_seconds_sum", method="GET",
                  route=route) - waited >= 1.0


def test_a_waiting_long_poll_is_a_waiting_client_until_the_game_changes():
    app = make_app()
    game = app.test_client().post("/v1/games", json={"seats": [HUMAN, COMPUTER]}).get_json()
    bearer = {"Authorization": f"Bearer {game['token']}"}
    events = app.test_client().get(f"/v1/games/{game['game_id']}/events?after=0",
                                   headers=bearer).get_json()["events"]
    before = sample("cribbage_waiting_clients")
    answers = []
    poll = threading.Thread(target=lambda: answers.append(app.test_client().get(
        f"/v1/games/{game['game_id']}/events?after={events[-1]['number']}&wait=20",
        headers=bearer)))
    poll.start()
    wait_until(lambda: sample("cribbage_waiting_clients") == before + 1)
    resign = app.test_client().post(f"/v1/games/{game['game_id']}/actions",
                                    json={"type": "resign"}, headers=bearer)
    assert resign.status_code == 200
    poll.join(20)
    assert [answer.status_code for answer in answers] == [200]
    assert sample("cribbage_waiting_clients") == before


def test_a_request_is_in_flight_until_its_body_is_closed():
    app = make_app()
    before = sample("cribbage_http_requests_in_flight")
    environ = {"REQUEST_METHOD": "GET", "PATH_INFO": "/v1/ping", "SERVER_NAME": "localhost",
               "SERVER_PORT": "80", "wsgi.url_scheme": "http", "wsgi.input": io.BytesIO()}
    body = app.wsgi_app(environ, lambda status, headers, exc_info=None: None)
    assert b"".join(body) == b'{"ok":true}'
    assert sample("cribbage_http_requests_in_flight") == before + 1
    body.close()
    assert sample("cribbage_http_requests_in_flight") == before


def test_game_store_operations_are_timed_by_name(client):
    created = sample("cribbage_store_operation_duration_seconds_count", operation="create")
    loaded = sample("cribbage_store_operation_duration_seconds_count", operation="load")
    game = client.post("/v1/games", json={"seats": [HUMAN, COMPUTER]}).get_json()
    client.get(f"/v1/games/{game['game_id']}")
    assert sample("cribbage_store_operation_duration_seconds_count",
                  operation="create") == created + 1
    assert sample("cribbage_store_operation_duration_seconds_count",
                  operation="load") == loaded + 1
