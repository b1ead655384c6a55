"""The compute tier under load (issue 26): what `hard` players cost everyone else.

Every search (computer moves, hints, analyses) runs in compute processes, never on a web
worker's event loop. This bench checks that from outside: while K clients play whole games
against `hard`, other clients' /livez and event deliveries should stay as fast as with nobody
playing. Everything listens on and connects to 127.0.0.0/8 only; each phase is bounded in time
and the whole run stops by itself after `--max-seconds`.

Servers (tests/ops/gunicorn_server.py: a real gunicorn with deploy/gunicorn.conf.py; request
rate limits and the live-games cap off, CRIBBAGE_RATE_LIMIT_ENABLED=0 and
CRIBBAGE_MAX_LIVE_GAMES_PER_CLIENT=0; the analyses' CPU budget stays on, it does not depend on
them):
- A: as `scripts/serve` starts it: no CRIBBAGE_REDIS_URL, so the embedded store, one web worker
  and CRIBBAGE_COMPUTE=local (CRIBBAGE_COMPUTE_PROCESSES compute processes beside it, by
  default one per usable CPU);
- B: on Redis (tests/redis_servers.py: a redis-server on a free port), `--web-workers` web
  workers (3) and `--compute-processes` compute workers (2; `python -m service.compute`, started
  by gunicorn's master) fed through Redis Streams.

Clients, each on its own keep-alive connection(s) and source address (127.0.0.2 ... on
loopback, so that per-address limits and the 64-connections-per-address cap apply to each
apart):
- livez: GET /livez, `--livez-rate` a second, open loop (latency counts from when each request
  was due, so a stall counts against every request due meanwhile), from 127.0.0.2;
- delivery: a two-human game from 127.0.0.3: one connection long-polls
  GET /v1/games/{id}/events?after=N&wait=25 with seat 0's token while another acts (the first
  legal action of the seat to act, `--delivery-rate` a second, each after the previous one was
  delivered); delivery = from sending the action to the long poll's response carrying its
  event (5 s if it never came: missed). A new game when one ends;
- load: K clients, each from its own address 127.0.1.x, play games against `hard` one after
  another (a human seat, always the first legal action, tests/games/helpers.py first_legal,
  each with an Idempotency-Key; a new game at game_over), each action at least
  `--action-interval` s after the player's previous one: by default 0.5 s, the pace of the
  per-seat action limit a server as shipped applies (CRIBBAGE_ACTION_RATE_LIMIT, 120 a minute),
  the fastest any player plays there. Flat out, a 2-core server's web tier, not the search, is
  what saturates (about 160-250 actions/s against `hard`), and every latency grows with it: a
  capacity window per server measures that, with no floor. When the computer's reply did not
  come within the action's wait (5 s) and was left to the sweeper, the client long-polls the
  game's events until its turn comes ("waited" below). Spread over up to 4 processes. The
  players are independent people: each starts at its own moment within the first interval
  (seeded by its address), so their actions are spread over each interval as many players'
  are. Started at the same instant they stay in step and act in bursts of K at once: with
  `--in-step` (a diagnostic), 64 actions come in the same few milliseconds twice a second, and
  a probe that lands behind a burst waits for all of it;

Phases, each `--duration` seconds (60: 1,200 livez and 600 deliveries, so that a p99 is not
the second-slowest of 200 deliveries, which moved by 2x from one 20 s run to the next), with
the idle baseline measured just before each loaded one
(the machine is shared: every ratio compares two back-to-back windows of the same run):
- A, for each K of `--ks` (4 16 64): idle (livez + delivery only), then K players;
- B, for each K of `--redis-ks` (16 64): the same on the Redis server;
- C: actions/s against hard per usable CPU, from A and B, paced and flat out (a window of
  `--capacity-k` players after each server's pairs; before the compute tier: 181 actions/s in all
  on this 2-core machine, bench/http_games.py, action p99 355 ms);
- D (server A): livez idle (10 s), then two POST /v1/analysis/position at once from one address
  (127.0.0.4, no token: charged to the address), {"scores": [0, 0], "dealer": 0, "players": 2,
  "target": 1000} and the same with 999, each building its tables from scratch: livez while
  they run vs idle, and how long each took with its status;
- E (server A): the idle baseline (`--e-duration` s: livez, and a cheap discard analysis `--analysis-rate` a
  second from 127.0.0.5 with a bearer token of its own), then the same while a costly client
  (127.0.0.6, another bearer token, `--costly-connections` connections) sends position analyses
  with targets 900, 901, ... (a new table each) as fast as its CPU budget allows, for
  `--e-duration` seconds: after a 429 it sleeps its Retry-After (to the phase's end at most).
  The budget counts per wall-clock minute, so the costly client starts just after a minute
  begins (E waits up to a minute for it). Counts its 200s and 429s, checks each 429's code
  (cpu_budget_exhausted) and the `cpu` policy in the RateLimit headers of each of its answers.

Floors (PASS/FAIL): livez and delivery p99 within 2x of idle at every K of A and B; in D livez
p99 within 2x; in E livez and the other client's analysis p99 within 2x, and the 429s right.

Noise: before each idle baseline the bench waits (at most `--quiet-wait` s) for the rest of the
machine to use less than `--quiet-below` cores; a pair during which it used more than
`--noisy-above` in either window is measured again (`--retries`), every attempt is printed and
the floor judges the least disturbed one. Each row shows the load average (/proc/loadavg,
start-end of the window) and the CPU in cores (CPU seconds / wall seconds) of the web workers,
the compute processes, Redis, the bench's own clients and everything else on the machine
(/proc/stat less this run's processes: the other engineers' work), and how long the web
workers were runnable but waiting for a CPU (/proc/PID/schedstat); below each loaded row, the
computer moves' compute jobs (from /metrics: search CPU, run time and wait per job) against the
compute processes' CPU per job, the web workers' CPU per action, and how long the probes' own
threads waited for a CPU (their share of the latencies).

Diagnostics (none changes service code):
- `--profile`: the web workers sample their Python stacks on their CPU time (a SIGPROF timer
  set by a sitecustomize.py on the server's PYTHONPATH) and each loaded row prints where their
  CPU went;
- `--gevent-monitor 0.02`: gevent's monitor thread in the web workers
  (GEVENT_MONITOR_THREAD_ENABLE, GEVENT_MAX_BLOCKING_TIME) reports each time the event loop ran
  one greenlet longer than that without switching, with its stack; the bench counts them;
- `--renice-compute 10 19`: each K's pair once per nice value of the compute processes, moved
  from SCHED_IDLE (their default) to the normal policy;
- `--probe-nice -10`: the probes' threads at a higher priority (root), to take the clients' own
  wait for a CPU out of their latencies;
- `--rounds N`: N pairs per K.

    python bench/compute_load.py [--ks 4 16 64] [--redis-ks 16 64] [--duration 60] [--only A B D E]
                                 [--action-interval 0.5] [--capacity-k 16]
                                 [--quick] [--in-step] [--profile] [--gevent-monitor 0.02]

About 20 minutes by default (up to 30 s of waiting for quiet before each pair, a minute at
most to align E); `--quick` (K=4 in A and B, 6 s phases, E for 20 s) about 3.
"""

from __future__ import annotations

import _thread
import argparse
import atexit
import http.client
import json
import math
import multiprocessing
import os
import random
import shutil
import socket
import sys
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from service.config import usable_cpus  # noqa: E402
from tests.games.helpers import HUMAN_DECISIONS, first_legal  # noqa: E402
from tests.ops.gunicorn_server import GunicornServer, metric_value  # noqa: E402
from tests.redis_servers import RedisServer  # noqa: E402

HOST = "127.0.0.1"
LIVEZ_ADDRESS = "127.0.0.2"
DELIVERY_ADDRESS = "127.0.0.3"
D_ADDRESS = "127.0.0.4"
ANALYSIS_ADDRESS = "127.0.0.5"
COSTLY_ADDRESS = "127.0.0.6"
HUMAN = {"kind": "human"}
VS_HARD = [HUMAN, {"kind": "computer", "level": "hard"}]
REQUEST_TIMEOUT = 30.0   # an action waits up to 5 s for the computers; analyses up to 35 s
DELIVERY_WAIT = 5.0      # an event not read this long after its action is missed
IDLE_RECONNECT = 4.0     # the server closes keep-alive connections idle for 5 s
START_DELAY = 0.5        # processes of a phase start together this long after it is set up
LOAD_PROCESSES = 4
# D's idle window: its loaded one lasts while the two analyses run (3-6 s), and a p99 of many
# more idle samples than loaded ones would be judged against what is nearly a maximum.
D_IDLE_SECONDS = 10.0
BEFORE_ACTIONS = 181     # actions/s against hard before the compute tier (issue 26)
# A seat may act 120 times a minute on a server as shipped (CRIBBAGE_ACTION_RATE_LIMIT, off in
# these servers so that a refusal never stalls a player): the fastest a player plays it.
ACTION_INTERVAL = 60 / 120
BEFORE_P99_MS = 355
D_BODY = {"scores": [0, 0], "dealer": 0, "players": 2, "target": 1000}
CARDS = [rank + suit for rank in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q",
                                  "K") for suit in "CDHS"]
# Put on the server's PYTHONPATH with --profile: each gunicorn worker (not the master, not the
# compute processes, not gunicorn's other children) samples its own Python stack every 5 ms of
# its CPU time (ITIMER_PROF, in the kernel's ticks: 10 ms at HZ=100) and appends the counts of
# the stacks seen to prof-<pid>.txt every second.
PROFILE_SITECUSTOMIZE = """
import os, signal, sys, time
from collections import Counter
if any("gunicorn" in argument for argument in sys.argv):
    _master = os.getpid()
    _sleep = time.sleep  # before gevent patches it
    def _start():
        # Only gunicorn's workers: not what a worker forks to run a compute process (a SIGPROF
        # timer outlives exec, and kills a process that does not handle the signal).
        if os.getppid() != _master:
            return
        counts = Counter()
        def sample(signum, frame):
            stack = []
            while frame is not None and len(stack) < 60:
                code = frame.f_code
                stack.append(f"{code.co_filename}:{code.co_name}:{code.co_firstlineno}")
                frame = frame.f_back
            counts[";".join(reversed(stack))] += 1
        def flush():
            path = os.path.join(%r, f"prof-{os.getpid()}.txt")
            while True:
                _sleep(1)
                taken = dict(counts)
                counts.clear()
                with open(path, "a") as out:
                    now = time.monotonic()
                    for stack, count in taken.items():
                        out.write(f"{now} {count} {stack}\\n")
        signal.signal(signal.SIGPROF, sample)
        signal.setitimer(signal.ITIMER_PROF, 0.005, 0.005)
        try:
            from gevent import monkey
            start = monkey.get_original("_thread", "start_new_thread")
        except ImportError:
            import _thread
            start = _thread.start_new_thread
        start(flush, ())
    os.register_at_fork(after_in_child=_start)
"""


# HTTP --------------------------------------------------------------------------------------------
class Reply:
    def __init__(self, status: int, headers: dict[str, str], data):
        self.status, self.headers, self.data = status, headers, data


class Client:
    """One keep-alive HTTP/1.1 connection from `address`; a new one after an error, or before a
    request when it has been idle long enough for the server to have closed it."""

    def __init__(self, port: int, address: str, timeout: float = REQUEST_TIMEOUT):
        self.port, self.address, self.timeout = port, address, timeout
        self.connection = self._connect()
        self.used = time.monotonic()

    def _connect(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection(HOST, self.port, timeout=self.timeout,
                                          source_address=(self.address, 0))

    def reset(self) -> None:
        self.connection.close()
        self.connection = self._connect()

    def request(self, method: str, path: str, body=None, headers=None) -> Reply:
        if time.monotonic() - self.used > IDLE_RECONNECT:
            self.reset()
        payload = None if body is None else json.dumps(body)
        headers = {**(headers or {}), **({"Content-Type": "application/json"} if body else {})}
        try:
            self.connection.request(method, path, payload, headers)
            response = self.connection.getresponse()
            raw = response.read()
        except BaseException:
            self.reset()
            raise
        finally:
            self.used = time.monotonic()
        response_headers = {name.lower(): value for name, value in response.getheaders()}
        data = raw
        if "json" in response_headers.get("content-type", ""):
            data = json.loads(raw)
        if response_headers.get("connection", "").lower() == "close":
            self.reset()
        return Reply(response.status, response_headers, data)

    def close(self) -> None:
        self.connection.close()


def call(client: Client, errors: Counter, label: str, method: str, path: str, body=None,
         headers=None) -> Reply | None:
    """The reply of a request answered 2xx; None after counting anything else in `errors`."""
    try:
        reply = client.request(method, path, body, headers)
    except TimeoutError:
        errors[f"{label} timeout"] += 1
        return None
    except (OSError, http.client.HTTPException) as error:
        errors[f"{label} {type(error).__name__}"] += 1
        return None
    if not 200 <= reply.status < 300:
        code = reply.data.get("code") if isinstance(reply.data, dict) else None
        errors[f"{label} {reply.status}" + (f" {code}" if code else "")] += 1
        return None
    return reply


def sleep_until(moment: float) -> None:
    delay = moment - time.monotonic()
    if delay > 0:
        time.sleep(delay)


def paced(start: float, until: float, interval: float):
    """When each request is due, one every `interval` from `start` until `until`: an open
    loop, so a stall delays the requests due behind it, which then go at once."""
    due = start
    while due < until:
        sleep_until(due)
        yield due
        due += interval


def percentile(values, p: float) -> float:
    if not values:
        return math.nan
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p / 100))]


# Probes: /livez, a game's deliveries, another client's analyses -----------------------------------
def livez_loop(port: int, start: float, until: float, rate: float, out: dict) -> None:
    client = Client(port, LIVEZ_ADDRESS)
    for due in paced(start, until, 1 / rate):
        fresh = client.connection.sock is None
        if call(client, out["errors"], "livez", "GET", "/livez") is not None:
            out["livez"].append((due, time.monotonic() - due))
            if fresh:  # a connection opened for this request
                out["livez connects"].append(time.monotonic() - due)
    client.close()


class Delivery:
    """A two-human game: one connection acts, the other long-polls seat 0's events."""

    def __init__(self, port: int, start: float, until: float, rate: float, out: dict,
                 nice: int | None = None):
        self.port, self.start, self.until, self.rate, self.out = port, start, until, rate, out
        self.nice = nice
        self.changed = threading.Condition()
        self.game: dict | None = None       # the game the waiter follows
        self.waiter: Client | None = None
        self.received: dict[tuple[str, int], float] = {}  # (game, event number) -> read at

    def run(self) -> None:
        waiter = threading.Thread(target=measured(self.wait_loop, self.out, self.nice),
                                  daemon=True)
        waiter.start()
        self.drive()
        with self.changed:
            self.game = None
            self.changed.notify_all()
        waiter.join(self.until - time.monotonic() + 30)

    def wait_loop(self) -> None:
        client = self.waiter = Client(self.port, DELIVERY_ADDRESS, timeout=40)
        while time.monotonic() < self.until:
            with self.changed:
                while self.game is None or self.game["over"]:
                    if time.monotonic() >= self.until:
                        client.close()
                        return
                    self.changed.wait(0.5)
                game = self.game
            wait = max(1, min(25, math.ceil(self.until - time.monotonic())))
            errors: Counter = Counter()
            reply = call(client, errors, "events", "GET",
                         f"/v1/games/{game['id']}/events?after={game['after']}&wait={wait}",
                         headers={"Authorization": f"Bearer {game['tokens'][0]}"})
            now = time.monotonic()
            if reply is None:
                if not game["over"]:  # else the driver cut it short: it left the game
                    self.out["errors"].update(errors)
                    time.sleep(0.2)
                continue
            page = reply.data
            with self.changed:
                for event in page["events"]:
                    self.received.setdefault((game["id"], event["number"]), now)
                game["after"] = max(game["after"], page["last_event"])
                if page["state"]["phase"] == "game_over":
                    game["over"] = True
                self.changed.notify_all()
        client.close()

    def new_game(self, client: Client) -> dict | None:
        errors = self.out["errors"]
        created = call(client, errors, "delivery create", "POST", "/v1/games",
                       {"seats": [HUMAN, HUMAN]})
        if created is None:
            return None
        game_id = created.data["game_id"]
        joined = call(client, errors, "delivery join", "POST", f"/v1/games/{game_id}/join",
                      {"code": created.data["invites"][0]["code"]})
        if joined is None:
            return None
        game = {"id": game_id, "tokens": [created.data["token"], joined.data["token"]],
                "views": {1: joined.data["game"]["view"]}, "latest": joined.data["game"]["view"],
                "after": joined.data["game"]["last_event"], "over": False}
        with self.changed:
            self.game = game
            self.changed.notify_all()
        return game

    def abandon(self, game: dict | None) -> None:
        """Leave `game` (an error, or nobody to act): the waiter stops following it."""
        if game is None:
            return
        with self.changed:
            game["over"] = True
            self.changed.notify_all()
        connection = self.waiter.connection if self.waiter is not None else None
        if connection is not None and connection.sock is not None:
            try:
                connection.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def drive(self) -> None:
        client = Client(self.port, DELIVERY_ADDRESS)
        errors, delays = self.out["errors"], self.out["delivery"]
        sleep_until(self.start)
        game = None
        for _ in paced(self.start, self.until, 1 / self.rate):
            if game is None or game["latest"]["phase"] == "game_over":
                game = self.new_game(client)
                if game is None:
                    continue
            latest = game["latest"]
            seat = next((s for s in latest["to_act"] if s < 2), None)
            if seat is None:
                self.abandon(game)
                game = None
                continue
            view = game["views"].get(seat)
            auth = {"Authorization": f"Bearer {game['tokens'][seat]}"}
            if view is None or view["version"] != latest["version"]:
                read = call(client, errors, "delivery read", "GET", f"/v1/games/{game['id']}",
                            headers=auth)
                if read is None:
                    self.abandon(game)
                    game = None
                    continue
                view = game["views"][seat] = read.data["view"]
            headers = {**auth, "Idempotency-Key": f"{game['id']}-{seat}-{view['version']}"}
            sent = time.monotonic()
            reply = call(client, errors, "delivery act", "POST",
                         f"/v1/games/{game['id']}/actions", first_legal(view), headers)
            if reply is None:
                self.abandon(game)
                game = None
                continue
            number = reply.data["last_event"]
            with self.changed:
                key = (game["id"], number)
                self.changed.wait_for(lambda key=key: key in self.received, DELIVERY_WAIT)
                received = self.received.get(key)
            if received is None:
                self.out["missed"] += 1
                delays.append((sent, DELIVERY_WAIT))
            else:
                delays.append((sent, received - sent))
            game["latest"] = game["views"][seat] = reply.data["view"]
        client.close()


def analysis_loop(port: int, start: float, until: float, rate: float, out: dict) -> None:
    """Another client's cheap analyses: a random two-player discard, its own bearer token."""
    client = Client(port, ANALYSIS_ADDRESS)
    rng = random.Random(26)
    headers = {"Authorization": "Bearer bench-compute-load-other-client"}
    for due in paced(start, until, 1 / rate):
        body = {"hand": rng.sample(CARDS, 6), "own_crib": rng.random() < 0.5}
        if call(client, out["errors"], "discard analysis", "POST", "/v1/analysis/discard",
                body, headers) is not None:
            out["analysis"].append((due, time.monotonic() - due))
    client.close()


def probe(port: int, start: float, until: float, rates: dict) -> dict:
    """The other clients for one phase: livez, and a game's deliveries and/or analyses."""
    out = {"livez": [], "livez connects": [], "delivery": [], "analysis": [], "missed": 0,
           "errors": Counter()}
    threads = [threading.Thread(target=livez_loop,
                                args=(port, start, until, rates["livez"], out))]
    if rates.get("delivery"):
        threads.append(threading.Thread(
            target=Delivery(port, start, until, rates["delivery"], out, rates.get("nice")).run))
    if rates.get("analysis"):
        threads.append(threading.Thread(target=analysis_loop,
                                        args=(port, start, until, rates["analysis"], out)))
    out["probe wait"] = 0.0
    for thread in threads:
        thread.run = measured(thread.run, out, rates.get("nice"))
        thread.start()
    for thread in threads:
        thread.join()
    return out


def thread_wait() -> float:
    """Seconds the calling thread has spent runnable, waiting for a CPU."""
    return int(Path("/proc/thread-self/schedstat").read_text().split()[1]) / 1e9


def measured(run, out: dict, nice: int | None = None):
    """`run`, adding the time its thread waited for a CPU to out["probe wait"]: the probes'
    own share of their latencies, on a machine whose CPUs the server keeps busy. With `nice`,
    the thread runs at that priority (Linux: a thread's own)."""
    def wrapper():
        if nice is not None:
            os.setpriority(os.PRIO_PROCESS, 0, nice)
        waited = thread_wait()
        try:
            run()
        finally:
            out["probe wait"] += thread_wait() - waited
    return wrapper


# Load: K clients playing against hard ------------------------------------------------------------
def has_action(view: dict) -> bool:
    return any(option["type"] not in HUMAN_DECISIONS for option in view["legal_actions"])


def play_loop(port: int, address: str, start: float, until: float, interval: float,
              out: dict) -> None:
    """Games against hard, one after another, from `start`; each action at least `interval` s
    after the player's previous one (0: flat out)."""
    client = Client(port, address)
    sent = 0.0
    errors = out["errors"]
    sleep_until(start)
    while time.monotonic() < until:
        created = call(client, errors, "create", "POST", "/v1/games", {"seats": VS_HARD})
        if created is None:
            time.sleep(0.2)
            continue
        out["created"] += 1
        game_id, view = created.data["game_id"], created.data["game"]["view"]
        last_event = created.data["game"]["last_event"]
        auth = {"Authorization": f"Bearer {created.data['token']}"}
        while view is not None and time.monotonic() < until:
            if view["phase"] == "game_over":
                out["games"].append(time.monotonic())
                break
            if not has_action(view):
                # The computer's reply was left to the sweeper: wait for the turn to come.
                out["waited"] += 1
                wait = max(1, min(5, math.ceil(until - time.monotonic())))
                call(client, errors, "events", "GET",
                     f"/v1/games/{game_id}/events?after={last_event}&wait={wait}", headers=auth)
                read = call(client, errors, "read", "GET", f"/v1/games/{game_id}",
                            headers=auth)
                view = None if read is None else read.data["view"]
                last_event = last_event if read is None else read.data["last_event"]
                continue
            headers = {**auth, "Idempotency-Key": f"{game_id}-{view['version']}"}
            sleep_until(sent + interval)
            sent = time.monotonic()
            reply = call(client, errors, "act", "POST", f"/v1/games/{game_id}/actions",
                         first_legal(view), headers)
            done = time.monotonic()
            if reply is None:
                view = None  # start a new game rather than guess where this one is
                continue
            out["actions"].append((done, done - sent))
            view, last_event = reply.data["view"], reply.data["last_event"]
    client.close()


def load(port: int, addresses: list[str], start: float, until: float, interval: float,
         in_step: bool) -> dict:
    """The players of `addresses`, each from its own moment in [start, start + interval) (all
    at `start` when `in_step`)."""
    out = {"actions": [], "games": [], "created": 0, "waited": 0, "errors": Counter()}
    threads = [threading.Thread(target=play_loop, args=(
                   port, address, start + (0 if in_step else random.Random(address).uniform(
                       0, interval)), until, interval, out))
               for address in addresses]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return out


def load_addresses(k: int) -> list[str]:
    """127.0.1.1 ... 127.0.1.254, 127.0.2.1 ...: one source address per playing client."""
    return [f"127.0.{1 + number // 254}.{1 + number % 254}" for number in range(k)]


# D and E: analyses -------------------------------------------------------------------------------
def position(client: Client, target: int, headers: dict | None = None) -> dict:
    started = time.monotonic()
    try:
        reply = client.request("POST", "/v1/analysis/position", {**D_BODY, "target": target},
                               headers)
    except (OSError, http.client.HTTPException) as error:
        return {"target": target, "status": type(error).__name__, "started": started,
                "seconds": time.monotonic() - started, "headers": {}, "code": None}
    code = reply.data.get("code") if isinstance(reply.data, dict) else None
    return {"target": target, "status": reply.status, "started": started,
            "seconds": time.monotonic() - started, "headers": reply.headers, "code": code}


def two_positions(port: int, rate: float, settle: float, nice: int | None) -> dict:
    """D: POST /v1/analysis/position to 1000 and to 999 at once from one address, /livez from
    another until both have answered (and `settle` seconds either side)."""
    out = {"livez": [], "errors": Counter(), "probe wait": 0.0}
    results: list[dict] = []
    finished = threading.Event()
    start = time.monotonic() + START_DELAY

    def livez_until_done() -> None:
        client = Client(port, LIVEZ_ADDRESS)
        for due in paced(start, start + 600, 1 / rate):
            if finished.is_set() and due > finished.ended + settle:
                break
            if call(client, out["errors"], "livez", "GET", "/livez") is not None:
                out["livez"].append((due, time.monotonic() - due))
        client.close()

    def ask(target: int) -> None:
        client = Client(port, D_ADDRESS, timeout=120)
        sleep_until(start + settle)
        results.append(position(client, target))
        client.close()

    prober = threading.Thread(target=measured(livez_until_done, out, nice))
    prober.start()
    askers = [threading.Thread(target=ask, args=(target,)) for target in (1000, 999)]
    for thread in askers:
        thread.start()
    for thread in askers:
        thread.join()
    finished.ended = time.monotonic()
    finished.set()
    prober.join()
    out["analyses"] = sorted(results, key=lambda result: -result["target"])
    out["window"] = (start + settle, finished.ended)
    return out


def costly(port: int, start: float, until: float, connections: int) -> dict:
    """E: position analyses to 900, 901, ... as fast as the CPU budget allows."""
    targets = iter(range(900, 999))
    lock = threading.Lock()
    results: list[dict] = []

    def loop() -> None:
        client = Client(port, COSTLY_ADDRESS, timeout=120)
        headers = {"Authorization": "Bearer bench-compute-load-costly-client"}
        sleep_until(start)
        while time.monotonic() < until:
            with lock:
                target = next(targets, None)
            if target is None:
                break
            result = position(client, target, headers)
            results.append(result)
            if result["status"] == 429:
                retry = float(result["headers"].get("retry-after", 1))
                sleep_until(min(time.monotonic() + retry, until))
            elif result["status"] != 200:
                time.sleep(0.5)
        client.close()

    threads = [threading.Thread(target=loop) for _ in range(connections)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return {"results": results}


# CPU and load average ----------------------------------------------------------------------------
TICK = os.sysconf("SC_CLK_TCK")


def proc_cpu(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK


def children(pid: int) -> list[int]:
    found = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for task in tasks:
        try:
            found += [int(child) for child in
                      Path(f"/proc/{pid}/task/{task}/children").read_text().split()]
        except OSError:
            pass
    return found


def descendants(pid: int) -> list[int]:
    found, queue = [], [pid]
    while queue:
        current = queue.pop()
        found.append(current)
        queue += children(current)
    return found


def is_compute(pid: int) -> bool:
    try:
        return b"service.compute" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


def run_queue_wait(pid: int) -> float:
    """Seconds the process's main thread has spent runnable but waiting for a CPU."""
    try:
        return int(Path(f"/proc/{pid}/schedstat").read_text().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0


def system_busy() -> float:
    """CPU seconds every CPU of the machine has spent busy (not idle, not waiting on I/O)."""
    fields = [int(value) for value in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    user, nice, system, _idle, _iowait, irq, softirq, steal = fields[:8]
    return (user + nice + system + irq + softirq + steal) / TICK


def load_average() -> float:
    return float(Path("/proc/loadavg").read_text().split()[0])


class Meter:
    """CPU of the server's roles, of this run's own processes and of everything else."""

    def __init__(self, server: GunicornServer, redis_pid: int | None = None):
        self.server, self.redis_pid = server, redis_pid

    def sample(self) -> dict:
        master = self.server.process.pid
        tree = descendants(master)
        compute = [pid for pid in tree if is_compute(pid)]
        web = [pid for pid in children(master) if pid not in compute]
        ours = sum(proc_cpu(pid) for pid in descendants(os.getpid()))
        server = sum(proc_cpu(pid) for pid in tree)
        redis_cpu = proc_cpu(self.redis_pid) if self.redis_pid else 0.0
        return {"time": time.monotonic(), "load": load_average(),
                "web": sum(proc_cpu(pid) for pid in web),
                "compute": sum(proc_cpu(pid) for pid in compute),
                "redis": redis_cpu, "bench": ours - server - redis_cpu,
                "others": system_busy() - ours,
                "web wait": sum(run_queue_wait(pid) for pid in web),
                "web pids": web, "compute pids": compute}

    @staticmethod
    def between(before: dict, after: dict) -> dict:
        seconds = after["time"] - before["time"]
        cores = {key: (after[key] - before[key]) / seconds
                 for key in ("web", "compute", "redis", "bench", "others", "web wait")}
        return {**cores, "load": (before["load"], after["load"]), "seconds": seconds}


# Phases ------------------------------------------------------------------------------------------
class Runner:
    def __init__(self, pool: ProcessPoolExecutor, server: GunicornServer, meter: Meter, args):
        self.pool, self.server, self.meter, self.args = pool, server, meter, args

    def phase(self, k: int, seconds: float, rates: dict, costly_connections: int = 0,
              interval: float | None = None) -> dict:
        """One window of `seconds`: the probes, with K players (an action each every
        `interval` s at most; --action-interval by default) and/or the costly client."""
        interval = self.args.action_interval if interval is None else interval
        port = self.server.port
        # The players start a second early so that the window holds no ramp (their first
        # games created, their first moves).
        lead = 1.0 if k else 0.0
        start = time.monotonic() + START_DELAY + lead
        until = start + seconds
        self.renice()
        log_offset = self.log_size()
        addresses = load_addresses(k)
        shares = [addresses[number::LOAD_PROCESSES] for number in range(LOAD_PROCESSES)]
        loads = [self.pool.submit(load, port, share, start - lead, until, interval,
                                  self.args.in_step)
                 for share in shares if share]
        spender = (self.pool.submit(costly, port, start, until, costly_connections)
                   if costly_connections else None)
        probes = self.pool.submit(probe, port, start, until, rates)
        sleep_until(start)
        before = self.meter.sample()
        jobs_before = self.jobs()
        sleep_until(until)
        after = self.meter.sample()
        jobs_after = self.jobs()
        result = probes.result(timeout=seconds + 120)
        result["cpu"] = Meter.between(before, after)
        result["jobs"] = {key: jobs_after[key] - jobs_before[key] for key in jobs_after}
        result["window"] = (start, until)
        parts = [future.result(timeout=seconds + 120) for future in loads]
        result["load"] = {"actions": [latency for part in parts
                                      for done, latency in part["actions"]
                                      if start <= done <= until],
                          "games": sum(start <= done <= until for part in parts
                                       for done in part["games"]),
                          "created": sum(part["created"] for part in parts),
                          "waited": sum(part["waited"] for part in parts),
                          "errors": sum((part["errors"] for part in parts), Counter())}
        if spender is not None:
            result["costly"] = spender.result(timeout=seconds + 300)["results"]
        result["k"], result["seconds"], result["interval"] = k, seconds, interval
        if self.args.profile_dir:
            result["profile"] = read_profile(self.args.profile_dir, start, until,
                                             before["web pids"])
        if self.args.gevent_monitor:
            result["blocked"] = blocked_reports(self.server.stderr_path, log_offset)
        return result

    def jobs(self) -> dict:
        """The computer moves' compute jobs so far, from /metrics: how many, their CPU, run time
        and wait (queue and transport)."""
        try:
            text = self.server.request("GET", "/metrics")[2]
        except OSError:
            text = ""
        if not isinstance(text, str):
            text = ""
        return {"count": metric_value(text, "cribbage_compute_jobs_total", kind="advance",
                                      outcome="done"),
                "cpu": metric_value(text, "cribbage_compute_job_cpu_seconds_sum",
                                    kind="advance"),
                "run": metric_value(text, "cribbage_compute_job_run_seconds_sum",
                                    kind="advance"),
                "wait": metric_value(text, "cribbage_compute_job_wait_seconds_sum",
                                     priority="move")}

    def renice(self) -> None:
        """--renice-compute: an experiment, the compute processes back in the normal policy
        (they start in SCHED_IDLE) at another niceness."""
        if getattr(self, "nice", None) is None:
            return
        for pid in self.meter.sample()["compute pids"]:
            try:
                os.sched_setscheduler(pid, os.SCHED_OTHER, os.sched_param(0))
                os.setpriority(os.PRIO_PROCESS, pid, self.nice)
            except OSError:
                pass

    def log_size(self) -> int:
        try:
            return self.server.stderr_path.stat().st_size
        except OSError:
            return 0

    def settle(self) -> dict:
        """Wait (at most --quiet-wait seconds) until the rest of the machine uses less than
        --quiet-below of a core over 3 s: other engineers' tests come and go."""
        started = time.monotonic()
        while True:
            before = self.meter.sample()
            time.sleep(3)
            others = Meter.between(before, self.meter.sample())["others"]
            waited = time.monotonic() - started
            if others < self.args.quiet_below or waited >= self.args.quiet_wait:
                log(f"others use {others:.2f} cores (waited {waited:.0f} s)")
                return {"others": others, "waited": waited, "below": self.args.quiet_below}

    def games(self, label: str, ks: list[int]) -> list[tuple[dict, dict]]:
        rates = {"livez": self.args.livez_rate, "delivery": self.args.delivery_rate,
                 "nice": self.args.probe_nice}
        log(f"{label}: warming up (4 players, 5 s)")
        self.phase(4, 5, rates)
        pairs = []
        for k in ks:
            for _ in range(self.args.rounds):
                for nice in self.args.renice_compute or [None]:
                    self.nice = nice
                    pairs += self.pair(label, k, rates, nice)
        return pairs

    def capacity(self, label: str) -> dict:
        """--capacity-k players flat out, no floor: the actions/s the server carries."""
        rates = {"livez": self.args.livez_rate, "delivery": self.args.delivery_rate,
                 "nice": self.args.probe_nice}
        self.settle()
        log(f"{label}: {self.args.capacity_k} players against hard flat out "
            f"{self.args.duration:g} s")
        return self.phase(self.args.capacity_k, self.args.duration, rates, interval=0)

    def pair(self, label: str, k: int, rates: dict, nice: int | None) -> list:
        """Idle, then K players; again (--retries) if the rest of the machine was busy."""
        attempts = []
        for _ in range(1 + self.args.retries):
            quiet = self.settle()
            log(f"{label}: idle {self.args.duration:g} s")
            idle = self.phase(0, self.args.duration, rates)
            idle["quiet"] = quiet
            log(f"{label}: {k} players against hard {self.args.duration:g} s"
                + ("" if nice is None else f", compute processes at nice {nice}"))
            busy = self.phase(k, self.args.duration, rates)
            busy["nice"] = nice
            attempts.append((idle, busy))
            if noise((idle, busy)) <= self.args.noisy_above:
                break
            log(f"{label}: the rest of the machine used {noise((idle, busy)):.2f} cores in a "
                "window: noisy")
        # The pair judged: the one the rest of the machine disturbed least.
        judged = min(attempts, key=noise)
        for pair in attempts:
            pair[1]["judged"] = pair is judged
        return attempts

    def warm_compute(self) -> None:
        """Have the compute processes running (a local pool starts them on its first job), at
        --renice-compute's last NICE if given."""
        self.server.request("POST", "/v1/analysis/discard",
                            {"hand": ["5H", "5S", "JD", "6C", "4H", "KS"], "own_crib": False},
                            {"Authorization": "Bearer bench-compute-load-warm-up"})
        self.nice = (self.args.renice_compute or [None])[-1]
        self.renice()

    def two_positions(self) -> tuple[dict, dict]:
        self.warm_compute()
        quiet = self.settle()
        log(f"D: idle {D_IDLE_SECONDS:g} s")
        idle = self.phase(0, D_IDLE_SECONDS, {"livez": self.args.livez_rate,
                                              "nice": self.args.probe_nice})
        idle["quiet"] = quiet
        log("D: two position analyses (targets 1000 and 999) at once")
        self.renice()
        before = self.meter.sample()
        busy = self.pool.submit(two_positions, self.server.port, self.args.livez_rate,
                                1.0, self.args.probe_nice).result(timeout=900)
        busy["cpu"] = Meter.between(before, self.meter.sample())
        return idle, busy

    def costly(self) -> tuple[dict, dict]:
        rates = {"livez": self.args.livez_rate, "analysis": self.args.analysis_rate,
                 "nice": self.args.probe_nice}
        self.warm_compute()
        quiet = self.settle()
        # The CPU budget counts per wall-clock minute (service/compute/budget.py): start the
        # costly client just after a window begins, so that E sees the budget spent, not a
        # window ending half-way.
        starts = time.time() + self.args.e_duration + 2 * START_DELAY + 0.5
        delay = (-starts) % 60 + 0.5
        log(f"E: {delay:.0f} s until the costly client can start at a budget window's start")
        time.sleep(delay)
        log(f"E: idle {self.args.e_duration:g} s")  # as long as the costly window
        idle = self.phase(0, self.args.e_duration, rates)
        idle["quiet"] = quiet
        log(f"E: a costly client for {self.args.e_duration:g} s")
        busy = self.phase(0, self.args.e_duration, rates, self.args.costly_connections)
        return idle, busy


def noise(pair: tuple[dict, dict]) -> float:
    """The most CPU the rest of the machine used in either window of an idle/loaded pair."""
    return max(row["cpu"]["others"] for row in pair)


def blocked_reports(path: Path, offset: int) -> Counter:
    """gevent's monitor thread (--gevent-monitor): how often a web worker's event loop went
    longer than GEVENT_MAX_BLOCKING_TIME without switching, by the innermost frames of the
    blocked stack."""
    try:
        with open(path, "rb") as log_file:
            log_file.seek(offset)
            text = log_file.read().decode("utf-8", "replace")
    except OSError:
        return Counter()
    found: Counter = Counter()
    for report in text.split("appears to be blocked")[1:]:
        stack = report.split("Blocked Stack", 1)[-1].split("\n\n", 1)[0]
        frames = [line.strip() for line in stack.splitlines() if line.strip().startswith("File")]
        found[" <- ".join(short(frame.replace('File "', "").replace('", line ', ":"))
                          for frame in reversed(frames[-4:]))] += 1
    return found


def read_profile(directory: str, start: float, until: float, pids: list[int]) -> Counter:
    stacks: Counter = Counter()
    for pid in pids:
        path = Path(directory, f"prof-{pid}.txt")
        if not path.exists():
            continue
        for line in path.read_text().splitlines():
            when, count, stack = line.split(" ", 2)
            # each line holds the second of samples before `when`
            if start + 1 <= float(when) <= until + 0.5:
                stacks[stack] += int(count)
    return stacks


# Report ------------------------------------------------------------------------------------------
MS = 1e3


def latencies(pairs) -> list[float]:
    return [latency for _, latency in pairs]


def fmt_errors(errors: Counter) -> str:
    return ", ".join(f"{name} x{count}" for name, count in errors.most_common()) or "none"


def ratio(loaded: float, idle: float) -> float:
    return loaded / idle if idle else math.inf


def cpu_text(cpu: dict, redis: bool) -> str:
    text = f"web {cpu['web']:.2f}  compute {cpu['compute']:.2f}  "
    if redis:
        text += f"redis {cpu['redis']:.2f}  "
    return (text + f"bench {cpu['bench']:.2f}  others {cpu['others']:.2f}; web workers waited "
                   f"for a CPU {cpu['web wait'] * MS:.0f} ms/s")


def report_games(title: str, pairs, redis: bool, args) -> list[tuple[str, bool]]:
    print(title)
    print(f"  {'':8} {'load avg':>11} {'livez ms':>15} {'delivery ms':>15} {'p99 / idle':>15}"
          f" {'playing against hard':>37}  CPU, cores")
    print(f"  {'':8} {'start-end':>11} {'p50':>7} {'p99':>7} {'p50':>7} {'p99':>7} "
          f"{'livez':>7} {'deliv':>7} {'act/s':>7} {'act p50':>7} {'act p99':>7} "
          f"{'games':>5} {'waited':>6}")
    checks = []
    for idle, busy in pairs:
        k = busy["k"]
        base = {"livez": percentile(latencies(idle["livez"]), 99),
                "delivery": percentile(latencies(idle["delivery"]), 99)}
        name = f"K={k}" + ("" if busy.get("nice") is None else f" n{busy['nice']}")
        for label, row in (("idle", idle), (name, busy)):
            live, deliv = latencies(row["livez"]), latencies(row["delivery"])
            load_ = row["load"]
            actions = load_["actions"]
            cells = (f"  {label:8} {row['cpu']['load'][0]:5.2f}-{row['cpu']['load'][1]:<5.2f}"
                     f" {percentile(live, 50) * MS:7.1f} {percentile(live, 99) * MS:7.1f}"
                     f" {percentile(deliv, 50) * MS:7.1f} {percentile(deliv, 99) * MS:7.1f}")
            if row is busy:
                cells += (f" {ratio(percentile(live, 99), base['livez']):6.2f}x"
                          f" {ratio(percentile(deliv, 99), base['delivery']):6.2f}x"
                          f" {len(actions) / row['seconds']:7.1f}"
                          f" {percentile(actions, 50) * MS:7.1f}"
                          f" {percentile(actions, 99) * MS:7.1f}"
                          f" {load_['games']:5} {load_['waited']:6}")
            else:
                cells += f" {'':7} {'':7} {'':7} {'':7} {'':7} {'':5} {'':6}"
            print(cells + "  " + cpu_text(row["cpu"], redis))
        errors = busy["errors"] + busy["load"]["errors"]
        print(f"  {'':8} {quiet_text(idle)}; samples idle/K={k}: livez {len(idle['livez'])}/"
              f"{len(busy['livez'])}, deliveries {len(idle['delivery'])}/{len(busy['delivery'])}"
              f" (missed {idle['missed']}/{busy['missed']}); actions "
              f"{len(busy['load']['actions'])}, games created {busy['load']['created']}")
        print(f"  {'':8} errors (non-2xx) idle: {fmt_errors(idle['errors'])}; K={k}: "
              f"{fmt_errors(errors)}")
        jobs, rate = busy["jobs"], len(busy["load"]["actions"]) / busy["seconds"]
        count = jobs["count"] or math.nan
        print(f"  {'':8} computer moves: {jobs['count']:.0f} compute jobs "
              f"({jobs['count'] / busy['seconds']:.1f}/s), per job: search CPU "
              f"{jobs['cpu'] / count * MS:.1f} ms, run {jobs['run'] / count * MS:.1f} ms, wait "
              f"{jobs['wait'] / count * MS:.1f} ms; compute processes' CPU per job "
              f"{busy['cpu']['compute'] * busy['seconds'] / count * MS:.1f} ms; web workers' CPU "
              f"per action {(busy['cpu']['web'] - idle['cpu']['web']) / rate * MS:.1f} ms "
              f"(above idle)")
        print(f"  {'':8} the probes' own threads waited for a CPU idle/K={k}: "
              f"{idle['probe wait'] / idle['seconds'] * MS:.0f}/"
              f"{busy['probe wait'] / busy['seconds'] * MS:.0f} ms/s")
        connects = [row["livez connects"] for row in (idle, busy)]
        print(f"  {'':8} livez on a new connection idle/K={k}: {len(connects[0])}/"
              f"{len(connects[1])} (slowest {max(connects[0] or [0]) * MS:.0f}/"
              f"{max(connects[1] or [0]) * MS:.0f} ms)")
        live_ratio = ratio(percentile(latencies(busy["livez"]), 99), base["livez"])
        deliv_ratio = ratio(percentile(latencies(busy["delivery"]), 99), base["delivery"])
        if busy.get("judged", True):
            checks.append((f"{name} livez p99 {live_ratio:.2f}x", live_ratio <= 2))
            checks.append((f"{name} delivery p99 {deliv_ratio:.2f}x", deliv_ratio <= 2))
        else:
            print(f"  {'':8} (not judged: the rest of the machine used {noise((idle, busy)):.2f} "
                  f"cores in a window; the floor judges the least disturbed attempt of K={k})")
        if "blocked" in busy:
            for label, row in (("idle", idle), (f"K={k}", busy)):
                print(f"  {'':8} gevent monitor, loop blocked > {args.gevent_monitor * MS:.0f} "
                      f"ms, {label}: {sum(row['blocked'].values())} reports")
                for stack, count in row["blocked"].most_common(6):
                    print(f"  {'':10} {count:4} x {stack}")
        if "profile" in busy:
            report_profile(busy["profile"])
    print("  floor, p99 within 2x of idle: " + "; ".join(
        f"{text} {'PASS' if ok else 'FAIL'}" for text, ok in checks))
    print()
    return checks


def quiet_text(idle: dict) -> str:
    quiet = idle.get("quiet")
    if quiet is None:
        return "no wait for quiet"
    return (f"before idle: the rest of the machine used {quiet['others']:.2f} cores (waited "
            f"{quiet['waited']:.0f} s for under {quiet['below']:g})")


def short(frame: str) -> str:
    return frame.replace(str(ROOT) + "/", "").split("site-packages/")[-1]


def report_profile(stacks: Counter, top: int = 15) -> None:
    total = sum(stacks.values())
    if not total:
        print("    profile: no samples")
        return
    own: Counter = Counter()
    inclusive: Counter = Counter()
    for stack, count in stacks.items():
        frames = stack.split(";")
        own[frames[-1]] += count
        for frame in set(frames):
            inclusive[frame] += count
    print(f"    web workers' CPU profile ({total} samples on their CPU time): self time")
    for frame, count in own.most_common(top):
        print(f"      {count / total:6.1%}  {short(frame)}")
    print("    inclusive (service/ code only)")
    shown = 0
    for frame, count in inclusive.most_common():
        if "/service/" in frame and shown < top:
            print(f"      {count / total:6.1%}  {short(frame)}")
            shown += 1


def report_throughput(rows: list[tuple[str, dict]]) -> None:
    """C: the actions/s each server carried, flat out (its capacity) and paced."""
    cpus = usable_cpus()
    print(f"C. actions/s against hard per usable CPU ({cpus} usable CPUs; before the compute "
          f"tier: {BEFORE_ACTIONS} actions/s in all = {BEFORE_ACTIONS / 2:.1f} per core on the "
          f"2-core machine, action p99 {BEFORE_P99_MS} ms, bench/http_games.py)")
    for label, busy in rows:
        actions = busy["load"]["actions"]
        rate = len(actions) / busy["seconds"]
        pace = ("flat out" if not busy["interval"]
                else f"an action each {busy['interval']:g} s at most")
        nice = "" if busy.get("nice") is None else f" nice {busy['nice']}"
        print(f"  {label:48} K={busy['k']:<3}{nice} {pace:>29}: {rate:6.1f} actions/s = "
              f"{rate / cpus:6.1f} per CPU; action p50 {percentile(actions, 50) * MS:.1f} ms, "
              f"p99 {percentile(actions, 99) * MS:.1f} ms; web workers {busy['cpu']['web']:.2f} "
              f"cores, compute {busy['cpu']['compute']:.2f}; the rest of the machine "
              f"{busy['cpu']['others']:.2f} cores"
              + ("" if busy.get("judged", True) else " (noisy, not judged)"))
    print()


def report_two_positions(idle: dict, busy: dict) -> list[tuple[str, bool]]:
    start, end = busy["window"]
    during = [latency for due, latency in busy["livez"] if start <= due <= end]
    base = percentile(latencies(idle["livez"]), 99)
    print("D. two POST /v1/analysis/position at once from 127.0.0.4 ({\"scores\": [0, 0], "
          "\"dealer\": 0, \"players\": 2, \"target\": 1000} and 999), /livez from 127.0.0.2")
    print(f"  idle      load avg {idle['cpu']['load'][0]:.2f}-{idle['cpu']['load'][1]:.2f}: "
          f"livez p50 {percentile(latencies(idle['livez']), 50) * MS:.1f} ms, p99 "
          f"{base * MS:.1f} ms (n {len(idle['livez'])}); CPU {cpu_text(idle['cpu'], False)}")
    live_ratio = ratio(percentile(during, 99), base)
    print(f"  analyses  load avg {busy['cpu']['load'][0]:.2f}-{busy['cpu']['load'][1]:.2f}: "
          f"livez p50 {percentile(during, 50) * MS:.1f} ms, p99 {percentile(during, 99) * MS:.1f}"
          f" ms (n {len(during)}, over the {end - start:.1f} s until both answered), "
          f"{live_ratio:.2f}x idle; CPU {cpu_text(busy['cpu'], False)}")
    for result in busy["analyses"]:
        print(f"    target {result['target']}: HTTP {result['status']}"
              f"{' ' + result['code'] if result['code'] else ''} in {result['seconds']:.2f} s")
    print(f"  the probe's own thread waited for a CPU idle/analyses: "
          f"{idle['probe wait'] / idle['seconds'] * MS:.0f}/"
          f"{busy['probe wait'] / busy['cpu']['seconds'] * MS:.0f} ms/s")
    print(f"  {quiet_text(idle)}; errors: {fmt_errors(idle['errors'] + busy['errors'])}")
    checks = [(f"D livez p99 {live_ratio:.2f}x", live_ratio <= 2)]
    print("  floor: " + "; ".join(f"{t} {'PASS' if ok else 'FAIL'}" for t, ok in checks))
    print()
    return checks


def report_costly(idle: dict, busy: dict, args) -> list[tuple[str, bool]]:
    results = busy["costly"]
    statuses = Counter(result["status"] for result in results)
    refusals = [result for result in results if result["status"] == 429]
    codes_ok = all(result["code"] == "cpu_budget_exhausted" for result in refusals)
    with_policy = [result for result in results if isinstance(result["status"], int)
                   and '"cpu"' in result["headers"].get("ratelimit-policy", "")
                   and '"cpu"' in result["headers"].get("ratelimit", "")]
    answered = [result for result in results if isinstance(result["status"], int)]
    print(f"E. a costly client (127.0.0.6, its own bearer token, {args.costly_connections} "
          f"connection(s)): POST /v1/analysis/position to 900, 901, ... for "
          f"{args.e_duration:g} s, sleeping Retry-After after a 429; meanwhile another client's "
          f"discard analyses ({args.analysis_rate:g}/s, 127.0.0.5, another token) and /livez")
    print(f"  costly client: {statuses.get(200, 0)} x 200, {statuses.get(429, 0)} x 429, "
          f"others { {s: c for s, c in statuses.items() if s not in (200, 429)} or 'none'}; "
          f"429 codes {Counter(result['code'] for result in refusals) or 'none'}; "
          f"`cpu` policy in RateLimit-Policy and RateLimit on {len(with_policy)}/{len(answered)}"
          f" answers")
    for result in results:
        limit = result["headers"].get("ratelimit", "")
        print(f"    +{result['started'] - busy['window'][0]:5.1f} s target {result['target']}: "
              f"HTTP {result['status']}{' ' + result['code'] if result['code'] else ''} in "
              f"{result['seconds']:.2f} s; RateLimit: {limit or '-'}"
              + (f"; Retry-After {result['headers'].get('retry-after')}"
                 if result["status"] == 429 else ""))
    checks = []
    print(f"  {'':10} {'load avg':>11} {'livez ms':>15} {'analysis ms':>15}  CPU, cores")
    for label, row in (("idle", idle), ("costly", busy)):
        live, mine = latencies(row["livez"]), latencies(row["analysis"])
        print(f"  {label:10} {row['cpu']['load'][0]:5.2f}-{row['cpu']['load'][1]:<5.2f}"
              f" {percentile(live, 50) * MS:7.1f} {percentile(live, 99) * MS:7.1f}"
              f" {percentile(mine, 50) * MS:7.1f} {percentile(mine, 99) * MS:7.1f}  "
              f"{cpu_text(row['cpu'], False)}  (n {len(live)}, {len(mine)}; errors "
              f"{fmt_errors(row['errors'])})")
    print(f"  the probes' own threads waited for a CPU idle/costly: "
          f"{idle['probe wait'] / idle['seconds'] * MS:.0f}/"
          f"{busy['probe wait'] / busy['seconds'] * MS:.0f} ms/s; {quiet_text(idle)}")
    for name in ("livez", "analysis"):
        value = ratio(percentile(latencies(busy[name]), 99), percentile(latencies(idle[name]), 99))
        checks.append((f"E {name} p99 {value:.2f}x", value <= 2))
    checks.append((f"E 429s are cpu_budget_exhausted ({len(refusals)})", bool(refusals)
                   and codes_ok))
    checks.append(("E cpu policy on every answer", len(with_policy) == len(answered) > 0))
    print("  floor: " + "; ".join(f"{t} {'PASS' if ok else 'FAIL'}" for t, ok in checks))
    print()
    return checks


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] load {load_average():.2f}  {message}",
          file=sys.stderr, flush=True)


# Main --------------------------------------------------------------------------------------------
BASE_ENV = {"CRIBBAGE_RATE_LIMIT_ENABLED": "0", "CRIBBAGE_MAX_LIVE_GAMES_PER_CLIENT": "0",
            "CRIBBAGE_LOG_LEVEL": "WARNING", "CRIBBAGE_REDIS_CLUSTER": None}


def server_env(args, extra: dict) -> dict:
    # Each server's compute processes start from an empty table shelf: D and E measure builds.
    tables = tempfile.mkdtemp(prefix="compute-load-tables-")
    atexit.register(shutil.rmtree, tables, ignore_errors=True)
    env = {**BASE_ENV, "CRIBBAGE_TABLE_DIR": tables, **extra}
    if args.gevent_monitor:
        env.update({"GEVENT_MONITOR_THREAD_ENABLE": "true",
                    "GEVENT_MAX_BLOCKING_TIME": str(args.gevent_monitor)})
    if args.profile_dir:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [args.profile_dir,
                                                          os.environ.get("PYTHONPATH")]))
    return env


def run_a(pool, args, results: dict) -> None:
    server = GunicornServer(server_env(args, {"CRIBBAGE_REDIS_URL": None,
                                              "CRIBBAGE_COMPUTE_PROCESSES": None}),
                            workers=None, threads=None, log_dir=args.log_dir)
    try:
        server.start()
        meter = Meter(server)
        results["a workers"] = len(meter.sample()["web pids"])
        runner = Runner(pool, server, meter, args)
        if "A" in args.only:
            results["A"] = runner.games("A", args.ks)
            results["A capacity"] = runner.capacity("A")
            results["a compute"] = len([p for p in descendants(server.process.pid)
                                        if is_compute(p)])
        if "D" in args.only:
            results["D"] = runner.two_positions()
        if "E" in args.only:
            results["E"] = runner.costly()
    finally:
        server.stop()


def run_b(pool, args, results: dict) -> None:
    redis = RedisServer().start()
    env = server_env(args, {"CRIBBAGE_REDIS_URL": redis.url,
                            "CRIBBAGE_COMPUTE_PROCESSES": str(args.compute_processes)})
    server = GunicornServer(env, workers=args.web_workers, threads=None, log_dir=args.log_dir)
    try:
        server.start()
        ready = server.request("GET", "/readyz")[2]
        assert ready["checks"]["store"] == "ok", ready
        meter = Meter(server, redis.process.pid)
        runner = Runner(pool, server, meter, args)
        results["B"] = runner.games("B", args.redis_ks)
        results["B capacity"] = runner.capacity("B")
        results["b compute"] = len([p for p in descendants(server.process.pid)
                                    if is_compute(p)])
    finally:
        server.stop()
        redis.remove()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ks", type=int, nargs="+", default=[4, 16, 64],
                        help="players against hard in A (one phase each)")
    parser.add_argument("--redis-ks", type=int, nargs="+", default=[16, 64],
                        help="players against hard in B")
    parser.add_argument("--duration", type=float, default=60,
                        help="seconds of each phase of A and B, idle and loaded, and of the "
                             "capacity windows")
    parser.add_argument("--e-duration", type=float, default=30,
                        help="seconds of E's costly client")
    parser.add_argument("--only", nargs="+", default=["A", "B", "D", "E"],
                        choices=["A", "B", "D", "E"], help="the parts to run (C comes from A, B)")
    parser.add_argument("--action-interval", type=float, default=ACTION_INTERVAL,
                        help="each player's actions at least this many seconds apart (0: flat "
                             "out); by default the pace of the per-seat action limit as shipped")
    parser.add_argument("--in-step", action="store_true",
                        help="every player starts at the same instant, so that they act in "
                             "bursts of K (a diagnostic)")
    parser.add_argument("--capacity-k", type=int, default=16,
                        help="players flat out in each server's capacity window (no floor)")
    parser.add_argument("--web-workers", type=int, default=3, help="B's gunicorn workers")
    parser.add_argument("--compute-processes", type=int, default=2,
                        help="B's compute workers (CRIBBAGE_COMPUTE_PROCESSES)")
    parser.add_argument("--livez-rate", type=float, default=20, help="GET /livez a second")
    parser.add_argument("--delivery-rate", type=float, default=10,
                        help="actions a second in the delivery probe's game")
    parser.add_argument("--analysis-rate", type=float, default=4,
                        help="E: the other client's discard analyses a second")
    parser.add_argument("--costly-connections", type=int, default=1,
                        help="E: the costly client's connections (analyses in flight)")
    parser.add_argument("--quiet-below", type=float, default=0.25,
                        help="before each idle baseline, wait until the rest of the machine "
                             "uses less than this many cores ...")
    parser.add_argument("--quiet-wait", type=float, default=30,
                        help="... for at most this many seconds")
    parser.add_argument("--rounds", type=int, default=1,
                        help="idle/loaded pairs per K (each pair's ratio is a check)")
    parser.add_argument("--retries", type=int, default=1,
                        help="measure a pair again (at most this many times) when the rest of "
                             "the machine used more than --noisy-above cores in either window; "
                             "the floor judges the least disturbed attempt")
    parser.add_argument("--noisy-above", type=float, default=0.3)
    parser.add_argument("--renice-compute", type=int, nargs="+", default=None, metavar="NICE",
                        help="an experiment: each K's pair once with the compute processes "
                             "in the normal policy at each NICE (they start in SCHED_IDLE); D "
                             "and E with the last")
    parser.add_argument("--probe-nice", type=int, default=None, metavar="NICE",
                        help="run the probes' threads at NICE (below 0 needs root): take the "
                             "clients' own wait for a CPU out of their latencies")
    parser.add_argument("--gevent-monitor", type=float, default=None, metavar="SECONDS",
                        help="run the web workers with gevent's monitor thread "
                             "(GEVENT_MAX_BLOCKING_TIME=SECONDS) and count its reports")
    parser.add_argument("--profile", action="store_true",
                        help="sample the web workers' stacks on their CPU time")
    parser.add_argument("--quick", action="store_true",
                        help="a smoke run: K=4 in A and B, 6 s phases, E for 20 s")
    parser.add_argument("--max-seconds", type=float, default=1200,
                        help="stop everything after this long, whatever happens")
    args = parser.parse_args()
    if args.quick:
        args.ks, args.redis_ks, args.duration, args.e_duration = [4], [4], 6, 20
        args.capacity_k = 4

    args.log_dir = tempfile.mkdtemp(prefix="compute-load-logs-") if args.gevent_monitor else None
    args.profile_dir = None
    if args.profile:
        args.profile_dir = tempfile.mkdtemp(prefix="compute-load-profile-")
        Path(args.profile_dir, "sitecustomize.py").write_text(
            PROFILE_SITECUSTOMIZE % args.profile_dir)
    watchdog = threading.Timer(args.max_seconds, _thread.interrupt_main)
    watchdog.daemon = True
    watchdog.start()
    results: dict = {"load at start": Path("/proc/loadavg").read_text().split()[:3]}
    log(f"uptime load averages {' '.join(results['load at start'])}")
    started = time.monotonic()
    context = multiprocessing.get_context("fork")
    pool = ProcessPoolExecutor(LOAD_PROCESSES + 2, mp_context=context)
    finished = False
    try:
        list(pool.map(time.sleep, [0.2] * (LOAD_PROCESSES + 2)))  # start every process now
        if {"A", "D", "E"} & set(args.only):
            run_a(pool, args, results)
        if "B" in args.only:
            run_b(pool, args, results)
        finished = True
    finally:
        watchdog.cancel()
        if finished:
            pool.shutdown()
        else:  # interrupted (or --max-seconds): stop the clients where they are
            processes = list((getattr(pool, "_processes", None) or {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                process.kill()
        for directory in (args.profile_dir, args.log_dir):
            if directory:
                shutil.rmtree(directory, ignore_errors=True)
    report(args, results, time.monotonic() - started)


def report(args, results: dict, seconds: float) -> None:
    print()
    print(f"bench/compute_load.py: {usable_cpus()} usable CPUs; load averages at the start "
          f"{' '.join(results['load at start'])}, at the end "
          f"{' '.join(Path('/proc/loadavg').read_text().split()[:3])}; {seconds:.0f} s; "
          f"phases of {args.duration:g} s; livez {args.livez_rate:g}/s from 127.0.0.2, "
          f"delivery {args.delivery_rate:g} actions/s in a two-human game from 127.0.0.3; "
          f"request rate limits and the live-games cap off; players act at most every "
          f"{args.action_interval:g} s, flat out in the capacity windows, "
          f"{'all starting at once (--in-step)' if args.in_step else 'each from its own moment'}")
    print()
    checks = []
    if "A" in results:
        checks += report_games(
            f"A. as scripts/serve starts it: embedded store, {results['a workers']} web worker, "
            f"CRIBBAGE_COMPUTE=local, {results['a compute']} compute processes", results["A"],
            False, args)
    if "B" in results:
        b_label = (f"Redis, {args.web_workers} web workers, {results['b compute']} compute "
                   f"processes")
        checks += report_games(
            f"B. {b_label} (CRIBBAGE_COMPUTE=redis, CRIBBAGE_COMPUTE_PROCESSES="
            f"{args.compute_processes}; the count includes the supervisor)", results["B"],
            True, args)
    if "A" in results or "B" in results:
        servers = (("A", "A (embedded store, 1 web worker, local compute)"),
                   ("B", f"B (Redis, {args.web_workers} web workers)"))
        report_throughput([(label, busy) for key, label in servers
                           for busy in [busy for _, busy in results.get(key, [])]
                           + ([results[f"{key} capacity"]] if f"{key} capacity" in results
                              else [])])
    if "D" in results:
        checks += report_two_positions(*results["D"])
    if "E" in results:
        checks += report_costly(*results["E"], args)
    failed = [text for text, ok in checks if not ok]
    print(f"floors: {len(checks) - len(failed)}/{len(checks)} PASS"
          + (f"; FAIL: {'; '.join(failed)}" if failed else ""))


if __name__ == "__main__":
    main()
