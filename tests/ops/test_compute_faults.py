"""Computer moves survive the compute tier's faults: a compute worker killed mid-job, Redis
restarted, a web worker killed after the human's save. Each game is played over HTTP against
`hard` on a preset deck and its whole event log compared with the same game played with the
searches inline: every computer move applied exactly once, none lost."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
import uuid

import pytest
import redis

from service.api import create_app
from service.compute import ANALYSIS, BACKGROUND, MOVE, ComputeTier
from service.compute.redis_queue import GROUP, RedisJobQueue, stream_key
from service.config import Settings
from tests.games.helpers import first_legal
from tests.ops.gunicorn_server import GunicornServer
from tests.ops.redis_extra import ConfiguredRedisServer

GAME = {"seats": [{"kind": "human", "name": "Ana"}, {"kind": "computer", "level": "hard"}],
        "options": {"deck_seed": "compute faults", "target": 61}}
SERVER_ENV = {"CRIBBAGE_RATE_LIMIT": "1000000/minute",
              "CRIBBAGE_ACTION_RATE_LIMIT": "1000000/minute",
              "CRIBBAGE_TOKEN_RATE_LIMIT": "1000000/minute",
              "CRIBBAGE_COMPUTE_PROCESSES": "0",       # the test runs the compute workers
              "CRIBBAGE_COMPUTER_REPLY_SECONDS": "3",
              "CRIBBAGE_COMPUTE_TIME_LIMIT": "5",
              "CRIBBAGE_DURABILITY": "fsync",
              "PROMETHEUS_MULTIPROC_DIR": None}
PATIENCE = 60.0  # seconds a scripted player keeps retrying one step


class ComputeWorkers:
    """`python -m service.compute` processes of the test's own, to kill and replace."""

    def __init__(self, url: str):
        self.env = {**os.environ, "CRIBBAGE_REDIS_URL": url, "CRIBBAGE_COMPUTE_TIME_LIMIT": "5"}
        self.processes: list[subprocess.Popen] = []

    def start(self) -> subprocess.Popen:
        self.processes.append(subprocess.Popen([sys.executable, "-m", "service.compute"],
                                               env=self.env))
        return self.processes[-1]

    def wait_until_ready(self, url: str) -> None:
        """A job answered: a worker has loaded the search code (a game's first replies
        must come within the bound for its log to be the inline game's)."""
        queue = RedisJobQueue(url, False, {MOVE: 10, ANALYSIS: 10, BACKGROUND: 10})
        try:
            ComputeTier(queue).run("position_value", ((100, 90), 0, 2, None, 121, "standard"),
                                   MOVE, wait=PATIENCE)
        finally:
            queue.close()

    def stop(self) -> None:
        for process in self.processes:
            process.kill()
            process.wait()


class HttpTable:
    """A scripted human over HTTP: its first legal action each turn, each with its own
    Idempotency-Key, retried (same key) on 503s and lost connections."""

    def __init__(self, send):
        self.send = send  # (method, path, body, headers) -> (status, json)

    def request(self, method, path, body=None, token=None, key=None):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        if key:
            headers["Idempotency-Key"] = key
        deadline = time.monotonic() + PATIENCE
        while True:
            try:
                status, data = self.send(method, path, body, headers)
            except OSError:
                status, data = None, None
            if status is not None and status < 500:
                assert status < 300, (method, path, status, data)
                return data
            assert time.monotonic() < deadline, (method, path, status, data)
            time.sleep(0.2)

    def play(self, before_action=lambda number, action: None,
             after_action=lambda number, view: None):
        """The whole game, with the hooks called around each action; its event log without
        the times."""
        created = self.request("POST", "/v1/games", GAME)
        game_id, token = created["game_id"], created["token"]
        view, number = created["game"]["view"], 0
        while view["phase"] != "game_over":
            if not view["legal_actions"]:  # the computer's reply is still to come
                time.sleep(0.1)
                view = self.request("GET", f"/v1/games/{game_id}", token=token)["view"]
                continue
            number, action = number + 1, first_legal(view)
            before_action(number, action)
            view = self.request("POST", f"/v1/games/{game_id}/actions", action, token,
                                key=str(uuid.uuid4()))["view"]
            after_action(number, view)
        events = self.request("GET", f"/v1/games/{game_id}/events?after=0")["events"]
        return [{name: value for name, value in event.items() if name != "time"}
                for event in events]


def _inline_events() -> list[dict]:
    client = create_app({"TESTING": True, "SETTINGS": Settings(rate_limit_enabled=False)}
                        ).test_client()

    def send(method, path, body, headers):
        response = client.open(path, method=method, json=body, headers=headers)
        return response.status_code, response.get_json()

    return HttpTable(send).play()


def _over_http(server: GunicornServer):
    def send(method, path, body, headers):
        status, _, data = server.request(method, path, body, headers)
        return status, data
    return send


@pytest.fixture
def table():
    redis_server = ConfiguredRedisServer().start()
    workers = ComputeWorkers(redis_server.url)
    server = None
    try:
        workers.start()
        workers.wait_until_ready(redis_server.url)
        server = GunicornServer({**SERVER_ENV, "CRIBBAGE_REDIS_URL": redis_server.url},
                                workers=2).start()
        yield redis_server, workers, server
    finally:
        if server is not None:
            server.stop()
        workers.stop()
        redis_server.remove()


def test_a_compute_worker_killed_mid_job_loses_no_computer_move(table):
    redis_server, workers, server = table
    client = redis.Redis.from_url(redis_server.url)
    killed = []

    def kill_mid_job(number, action):
        """From the 3rd action on, until two kills landed mid-job: the worker is killed
        while it holds the reply's job."""
        if number < 3 or len(killed) >= 2:
            return
        worker = workers.processes[-1]

        def watch():
            deadline = time.monotonic() + 2
            while time.monotonic() < deadline:
                if client.xpending(stream_key(0), GROUP)["pending"]:
                    worker.send_signal(signal.SIGKILL)
                    worker.wait()
                    killed.append(number)
                    workers.start()
                    return
        threading.Thread(target=watch, daemon=True).start()

    events = HttpTable(_over_http(server)).play(before_action=kill_mid_job)
    assert len(killed) == 2
    assert events == _inline_events()


def test_redis_restarted_mid_game_loses_no_computer_move(table):
    redis_server, _, server = table

    def restart(number, view):
        if number in (4, 9):
            redis_server.stop()
            redis_server.start()

    assert HttpTable(_over_http(server)).play(after_action=restart) == _inline_events()


def test_a_web_worker_killed_after_the_humans_save_loses_no_computer_move(table):
    _, workers, server = table
    stalled, pending = [], []

    def stall_compute(number, action):
        """The compute worker stops before two of the human's cards (each has a reply)."""
        if action["type"] == "play" and len(stalled) < 2 and number % 2:
            workers.processes[-1].send_signal(signal.SIGSTOP)
            stalled.append(number)

    def kill_web_workers(number, view):
        """The response came after the reply bound, without the computer's reply: the web
        workers die with the reply still to make; then the compute worker goes on."""
        if number in stalled:
            if view["phase"] == "play" and not view["legal_actions"]:
                pending.append(number)
            for pid in server.worker_pids():
                os.kill(pid, signal.SIGKILL)
            workers.processes[-1].send_signal(signal.SIGCONT)

    events = HttpTable(_over_http(server)).play(before_action=stall_compute,
                                                after_action=kill_web_workers)
    assert len(stalled) == 2 and pending == stalled
    assert events == _inline_events()
