"""The app under a real gunicorn with two workers on Redis: metrics add up, logs keep secrets."""

from __future__ import annotations

import json
import pathlib
import random
import re
import threading

import pytest
from prometheus_client.mmap_dict import MmapedDict

from tests.games.helpers import random_action
from tests.ops.gunicorn_server import GunicornServer, metric_value

HUMAN = {"kind": "human"}
COMPUTER = {"kind": "computer", "level": "first"}


@pytest.fixture
def server_on_redis(redis_server, tmp_path):
    servers = []

    def start(**env) -> GunicornServer:
        server = GunicornServer({"CRIBBAGE_REDIS_URL": redis_server.url + "/0", **env},
                                workers=2, threads=1, log_dir=tmp_path)
        servers.append(server)
        return server.start()

    yield start
    for server in servers:
        server.stop()


def pings_by_worker(metrics_dir: pathlib.Path) -> dict[int, float]:
    """Each worker's own count of answered pings, read from its counter_<pid>.db file."""
    counts = {}
    for path in metrics_dir.glob("counter_*.db"):
        pid = int(re.search(r"_(\d+)\.db$", path.name).group(1))
        for key, value, _, _ in MmapedDict.read_all_values_from_file(str(path)):
            _, name, labels, _ = json.loads(key)
            if name == "cribbage_http_requests_total" and labels["route"] == "/v1/ping":
                counts[pid] = counts.get(pid, 0) + value
    return counts


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def test_metrics_add_up_across_two_workers(server_on_redis, tmp_path):
    metrics_dir = tmp_path / "metrics"
    server = server_on_redis(PROMETHEUS_MULTIPROC_DIR=str(metrics_dir),
                             CRIBBAGE_RATE_LIMIT_ENABLED="0")
    status, _, game = server.request("POST", "/v1/games",
                                     {"seats": [HUMAN, COMPUTER], "options": {}})
    assert status == 201
    events = f"/v1/games/{game['game_id']}/events?after={game['game']['last_event']}&wait=1"
    polls = [threading.Thread(target=server.request, args=("GET", events)) for _ in range(2)]
    for poll in polls:
        poll.start()
    for poll in polls:
        poll.join()
    for _ in range(5):
        assert server.request("POST", "/v1/games",
                              {"seats": [HUMAN, COMPUTER], "options": {}})[0] == 201
    # Connections go to whichever worker accepts first: ping until both have answered some.
    pings = 0
    while pings < 20 or len(pings_by_worker(metrics_dir)) < 2 and pings < 500:
        assert server.request("GET", "/v1/ping")[0] == 200
        pings += 1
    by_worker = pings_by_worker(metrics_dir)
    assert set(by_worker) == set(server.worker_pids())
    assert min(by_worker.values()) > 0 and sum(by_worker.values()) == pings
    for _ in range(4):  # whichever worker answers, the figures are the sums of both
        status, _, text = server.request("GET", "/metrics")
        assert status == 200
        assert metric_value(text, "cribbage_http_requests_total",
                            method="GET", route="/v1/ping", status="200") == pings
        assert metric_value(text, "cribbage_http_requests_total", method="GET",
                            route="/v1/games/<game_id>/events", status="200") == 2
        assert metric_value(text, "cribbage_http_request_duration_seconds_count",
                            method="POST", route="/v1/games") == 6
        assert metric_value(text, "cribbage_games_created_total") == 6
    assert server.stop() == 0


def test_metrics_add_up_in_the_directory_gunicorn_makes_itself(server_on_redis):
    # No PROMETHEUS_MULTIPROC_DIR: the master makes one at start-up (service/server/hooks.py).
    server = server_on_redis(PROMETHEUS_MULTIPROC_DIR=None, CRIBBAGE_RATE_LIMIT_ENABLED="0")
    for _ in range(20):
        assert server.request("GET", "/v1/ping")[0] == 200
    for _ in range(4):
        status, _, text = server.request("GET", "/metrics")
        assert status == 200
        assert metric_value(text, "cribbage_http_requests_total",
                            method="GET", route="/v1/ping", status="200") == 20


def test_no_seat_token_or_invite_code_reaches_any_log_line(server_on_redis, tmp_path):
    server = server_on_redis(CRIBBAGE_LOG_LEVEL="DEBUG", CRIBBAGE_ACTION_RATE_LIMIT="3/minute")
    status, _, game = server.request("POST", "/v1/games", {"seats": [HUMAN, HUMAN], "options": {}},
                                     headers={"X-Request-ID": "create-1"})
    assert status == 201
    game_id, tokens = game["game_id"], [game["token"]]
    code = game["invites"][0]["code"]
    secrets = [code]
    status, _, joined = server.request("POST", f"/v1/games/{game_id}/join", {"code": code},
                                       headers={"X-Request-ID": "join-1"})
    assert status == 200
    tokens.append(joined["token"])
    secrets += tokens
    # A second join with the used code, a token in a query string, a token that holds no seat.
    assert server.request("POST", f"/v1/games/{game_id}/join", {"code": code})[0] == 409
    assert server.request("GET", f"/v1/games/{game_id}?token={tokens[0]}&code={code}")[0] == 200
    assert server.request("GET", f"/v1/games/{game_id}",
                          headers=bearer("not-a-seat-token-xyz"))[0] == 403
    secrets.append("not-a-seat-token-xyz")

    rng = random.Random(7)
    statuses = []
    for turn in range(12):
        for token in tokens:
            status, _, body = server.request("GET", f"/v1/games/{game_id}", headers=bearer(token))
            if body["view"]["legal_actions"]:
                action = random_action(body["view"], rng)
                statuses.append(server.request(
                    "POST", f"/v1/games/{game_id}/actions", action,
                    headers={**bearer(token), "X-Request-ID": f"act-{turn}"})[0])
        server.request("GET", f"/v1/games/{game_id}/events?after=0", headers=bearer(tokens[0]))
    assert 200 in statuses and 429 in statuses  # the per-seat limit (and its log lines) ran
    assert server.stop() == 0

    stdout = pathlib.Path(server.stdout_path).read_text()
    stderr = pathlib.Path(server.stderr_path).read_text()
    for secret in secrets:
        assert secret not in stdout and secret not in stderr
    lines = [json.loads(line) for line in (stdout + stderr).splitlines() if line.strip()]
    access = [line for line in lines if line.get("log") == "access"]
    assert {"create-1", "join-1", "act-0"} <= {line["request_id"] for line in access}
    assert all(re.fullmatch(r"[A-Za-z0-9._:@/+=-]{1,128}", line["request_id"])
               for line in access)
    join = next(line for line in access if line["request_id"] == "join-1")
    assert (join["method"], join["path"], join["status"]) == (
        "POST", f"/v1/games/{game_id}/join", 200)
