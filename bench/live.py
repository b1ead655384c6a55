"""Live games: what N waiting clients (long polls and streams) cost the server, on Redis.

Starts its own redis-server (or, with `--cluster`, a 3-master Redis Cluster) and gunicorn
(deploy/gunicorn.conf.py, CRIBBAGE_REDIS_URL set, rate limits off) on free loopback ports,
raises its own open-file limit to the hard limit, and stops everything when done (or after
`--max-seconds`, whatever happens). Everything listens on and connects to 127.0.0.0/8 only.

Clients:
- waiters: `--waiters` N, held by `--client-processes` processes (default: one per 8,000),
  each an asyncio loop with one raw socket per waiter and hand-written HTTP/1.1. The games are
  two-human games (created, then the second seat joined with its invite code); each seat of a
  game has one waiter, the seat's token as Authorization. Half the games are followed by long
  polls (GET /v1/games/{id}/events?after=N&wait=25, asked again at once after every reply;
  the first polls' waits are spread over 0..25 s, as if the clients had come at different
  times, so renewals come steadily, not all at once), the other half by streams
  (GET /v1/games/{id}/stream, Server-Sent Events). The server caps
  connections per client address and worker (CRIBBAGE_MAX_CONNECTIONS_PER_CLIENT, default 64):
  the bench keeps that setting and spreads the waiters over source addresses 127.0.0.2,
  127.0.0.3, ... (127.0.1.1, ... past 254), at most 32 waiters on each.
- probes: one process, `--probe-rate` requests/s of each kind, each kind on 2 keep-alive
  connections: GET /v1/ping, and POST /v1/games/{id}/actions in games of a human seat (first
  legal action) against a computer seat of level `first` (as bench/http_games.py). The probes
  are an open loop: each request has the time it is due, and its latency counts from then, so
  a server stall also counts against the requests that were due meanwhile and went late
  (without that, a 400 ms pause would cost one slow request per connection and vanish from
  the p99).
- driver: the same process acts in `--driven` of the waiters' games (half long-poll games,
  half stream games; `--action-rate` actions/s in all, first legal action of the seat to act).

Phases, in order (probes and delivery `--duration` seconds each, idle ones `--idle` seconds):
0. wait until the setup's seats, who joined and left, have been told gone (a sweep of each
game, 45 s after the setup: not an idle cost); 1. probes with no waiter; 2. idle with no waiter; 3. connect the N waiters (every stream has
its snapshot, Redis holds a channel for every game, or that count has stood still for 10 s);
4. probes while they wait; 5. idle while they wait; 6. delivery: the driver acts, each waiter
of a driven game timestamps each event it reads; 7. close the waiters. About 5 minutes for
5,000 waiters; setup and connecting grow with N.

Prints one table:
- ping and action latency p50/p99, none waiting vs N waiting, and the ratio; the machine's
  idle time and the time the hypervisor stole from it during each probe phase (/proc/stat:
  a virtual machine's neighbours can slow a run without showing in its load average), and how
  long the probes' own threads were runnable but waiting for a CPU (/proc/thread-self/schedstat:
  that share of their latencies is the client's, not the server's);
- delivery delay: from the action's response (as the driver reads it) to each waiter of the
  game reading the event, p50/p99/max, long polls and streams apart, and events never read
  (missed). All clients run on this machine and read the same clock (CLOCK_MONOTONIC), so
  times compare across processes; a waiter may read the event before the driver has read its
  response (a negative delay);
- Redis commands per idle waiter per minute: INFO commandstats summed over the Redis
  server(s) before and after the idle phase with N waiters, minus the same with none (every
  command, those a script runs included); and, for long polls and streams apart, the commands
  clients sent (MONITOR during the idle phase, each command told by the game in its key or
  channel; what scripts run is not counted there). 75 s holds exactly three long-poll rounds
  (one read each, plus the channel's SUBSCRIBE and UNSUBSCRIBE when no other request of that
  worker waits on the game) and each stream's one safety re-read;
- server CPU while idle (gunicorn workers, Redis) and the workers' RSS (from /proc) with and
  without the waiters: CPU and memory per 1,000 waiters;
- what the waiters saw: long-poll replies, stream heartbeats and the longest silence on a
  stream, reconnects, refusals (HTTP 429), errors; Redis clients connected (the workers' pools
  and pub/sub connections) and connections Redis refused;
- the workers' full garbage collections (generation 2), none waiting and waiting: how many,
  the longest, their share of the time, and how many of the requests and deliveries slower
  than 50 ms fell during one. For that the bench puts a sitecustomize.py on the server's
  PYTHONPATH that logs each full collection (gc.callbacks); `--no-gc-log` leaves it out;
- the floor: N ready, ping and action p99 within 2x of none waiting, delivery p99 <= 50 ms
  with none missed, at most 1 Redis command of any kind per idle waiter per minute (the
  commandstats figure), the workers' CPU per 1,000 idle waiters under `--cpu-floor` (default
  33 ms/s, read at the live-games issue's close on that day's machine), no answer of 503
  (probes, driver and waiters).

CPU figures move with the machine (this kind's machines have differed by 2x from one day to
the next), so compare versions in one session: `--server-root DIR` serves another checkout's
service and config (run by this environment) under the same bench, e.g. the live-games
issue's close, `git worktree add /tmp/live-close 60a0132` then
`bench/live.py --server-root /tmp/live-close`, and pass its figure as `--cpu-floor`.

`--busy-cores N` runs N loops (`python -c 'while 1: pass'`) for the whole run, the probes with
none waiting included, and kills them at the end: a machine busy with other work. The machine's
load average is printed before and after. `--probe-nice -10` (a diagnostic, root) runs the
probes' threads at that niceness: what is left of their latencies is the server's, not their
own wait for a CPU beside the waiters' client processes. `--log-dir` keeps the server's logs.

Limits: a process may hold as many sockets as its open-file hard limit (the bench and the
gevent workers raise theirs to it), and a gevent worker at most GUNICORN_WORKER_CONNECTIONS
(10,000) connections, so one worker cannot hold 10,000 waiters.

`--worker-class gthread` runs gunicorn's threaded worker (GUNICORN_WORKER_CLASS=gthread,
8 threads) instead of the default gevent one: each waiting client then holds a thread, so about
8 x workers waiters stall every other request. Keep that run small and its timeouts short,
e.g. `--worker-class gthread --workers 2 --waiters 16 --request-timeout 5 --connect-timeout 20
--idle 0 --duration 10`: a request that gets no reply within `--request-timeout` counts as a
timeout and its latency as that long.

    python bench/live.py [--waiters 5000] [--workers W] [--cluster] [--worker-class gthread]
                         [--duration 30] [--idle 75] [--no-gc-log] [--busy-cores N] [--probe-nice N]
                         [--log-dir DIR] [--server-root DIR] [--cpu-floor MS]
"""

from __future__ import annotations

import _thread
import argparse
import asyncio
import http.client
import json
import math
import multiprocessing
import os
import re
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import redis

from service.games.presence import ACTED_WINDOW, GRACE as PRESENCE_GRACE
from tests.games.helpers import first_legal
from tests.ops.gunicorn_server import GunicornServer
from tests.redis_servers import RedisClusterServers, RedisServer

HOST = "127.0.0.1"
PER_ADDRESS = 32            # waiters per source address: under the server's 64 per worker
WAITERS_PER_PROCESS = 8000  # default client processes: one per this many waiters
CONNECTING_AT_ONCE = 200    # connects in flight per client process
SETUP_CONNECTIONS = 16      # keep-alive connections per client process creating games
RETRY_PAUSE = 1.0           # a waiter whose connection failed or closed tries again after this
RETRIES = 5                 # ... at most this many times in a row
STABLE = 10.0               # connected: Redis's channel count has not moved for this long
SLOW = 0.05                 # a request or delivery this slow is looked at against the GC log
GRACE = 3.0                 # after the driver stops, how long deliveries may still arrive
SWEEP_MARGIN = 10.0         # for the sweepers to tell the setup's seats gone, game by game
HUMAN = {"kind": "human"}
# Put on the server's PYTHONPATH (--gc-log): each gunicorn process appends a line per full
# collection (generation 2) to gc-<pid>.log: when it ended, how long it took, its CPU time and
# how many objects it freed.
GC_LOG_SITECUSTOMIZE = """
import gc, os, sys, time
if any("gunicorn" in argument for argument in sys.argv):
    _started = [0.0, 0.0]
    def _collected(phase, info):
        if info["generation"] != 2:
            return
        if phase == "start":
            _started[:] = [time.perf_counter(), time.process_time()]
            return
        wall, cpu = time.perf_counter() - _started[0], time.process_time() - _started[1]
        with open(os.path.join(%r, f"gc-{os.getpid()}.log"), "a") as log:
            log.write(f"{time.monotonic()} {wall} {cpu} {info['collected']}\\n")
    gc.callbacks.append(_collected)
"""


# Small HTTP/1.1 over asyncio streams (setting up games) ------------------------------------------
async def read_response(reader: asyncio.StreamReader) -> tuple[int, dict, bytes]:
    head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1")
    lines = head.split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if name:
            headers[name.strip().lower()] = value.strip()
    if "chunked" in headers.get("transfer-encoding", "").lower():
        body = bytearray()
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
            if size == 0:
                while await reader.readuntil(b"\r\n") != b"\r\n":
                    pass
                break
            body += await reader.readexactly(size)
            await reader.readexactly(2)
        return status, headers, bytes(body)
    return status, headers, await reader.readexactly(int(headers.get("content-length", 0)))


class AsyncConnection:
    def __init__(self, port: int):
        self.port = port
        self.reader = self.writer = None

    async def request(self, method: str, path: str, body=None, headers=None) -> dict:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(HOST, self.port)
        payload = b"" if body is None else json.dumps(body).encode()
        lines = [f"{method} {path} HTTP/1.1", f"Host: {HOST}:{self.port}"]
        lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
        if body is not None:
            lines += ["Content-Type: application/json", f"Content-Length: {len(payload)}"]
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + payload)
        status, response_headers, data = await read_response(self.reader)
        if response_headers.get("connection", "").lower() == "close":
            self.close()
        if status >= 300:
            raise RuntimeError(f"{method} {path}: {status} {data[:300]!r}")
        return json.loads(data)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


# Waiters -----------------------------------------------------------------------------------------
class Waiter(asyncio.Protocol):
    """One long poll or stream on one raw connection, parsed as the bytes come."""

    def __init__(self, owner: ClientProcess, game: dict, seat: int, address: str):
        self.owner = owner
        self.game_id = game["game_id"]
        self.token = game["tokens"][seat]
        self.seat = seat
        self.kind = game["kind"]
        self.after = game["last_event"]
        self.address = address
        self.wait = 25.0  # the first long poll's is spread over 0..25 s by the process
        self.receipts: dict[int, float] = {}  # event number -> when this waiter read it
        self.transport = None
        self.ready = False
        self.closing = False
        self.ended = False
        self.failures = 0
        self.last_byte: float | None = None
        self.max_gap = 0.0
        self.buffer = bytearray()
        self.state = "head"

    async def open(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            await loop.create_connection(lambda: self, HOST, self.owner.port,
                                         local_addr=(self.address, 0))
        except OSError:
            self.owner.counts["connect errors"] += 1
            self.retry()

    def retry(self) -> None:
        self.failures += 1
        if self.closing or self.ended or self.failures > RETRIES:
            if not self.closing and not self.ended:
                self.owner.counts["waiters given up"] += 1
            return
        loop = asyncio.get_running_loop()
        loop.call_later(RETRY_PAUSE, lambda: loop.create_task(self.open()))

    # Connection events
    def connection_made(self, transport) -> None:
        self.transport = transport
        self.buffer.clear()
        self.state = "head"
        self.last_byte = None
        self.send_request()

    def connection_lost(self, exc) -> None:
        self.transport = None
        if self.closing or self.ended:
            return
        self.owner.counts["connections lost"] += 1
        self.retry()

    def send_request(self) -> None:
        if self.kind == "poll":
            path = f"/v1/games/{self.game_id}/events?after={self.after}&wait={self.wait:g}"
            self.wait = 25.0
        else:
            path = f"/v1/games/{self.game_id}/stream?after={self.after}"
        self.transport.write(
            f"GET {path} HTTP/1.1\r\nHost: {HOST}:{self.owner.port}\r\n"
            f"Authorization: Bearer {self.token}\r\n\r\n".encode())
        if self.kind == "poll":
            self.owner.counts["long polls sent"] += 1
            self.now_ready()

    def now_ready(self) -> None:
        if not self.ready:
            self.ready = True
            self.owner.waiter_ready()

    # Parsing
    def data_received(self, data: bytes) -> None:
        now = time.monotonic()
        if self.kind == "stream" and self.last_byte is not None:
            self.max_gap = max(self.max_gap, now - self.last_byte)
        self.last_byte = now
        self.buffer += data
        while self.transport is not None and self.step(now):
            pass

    def step(self, now: float) -> bool:
        buffer = self.buffer
        if self.state == "head":
            end = buffer.find(b"\r\n\r\n")
            if end < 0:
                return False
            lines = bytes(buffer[:end]).decode("latin-1").split("\r\n")
            del buffer[:end + 4]
            self.status = int(lines[0].split()[1])
            headers = {}
            for line in lines[1:]:
                name, _, value = line.partition(":")
                headers[name.strip().lower()] = value.strip().lower()
            self.close_after = headers.get("connection") == "close"
            self.body = bytearray()
            self.events_text = bytearray()
            if "chunked" in headers.get("transfer-encoding", ""):
                self.state = "size"
            else:
                self.state, self.remaining = "length", int(headers.get("content-length", 0))
            return True
        if self.state == "length":
            take = min(self.remaining, len(buffer))
            self.body_part(bytes(buffer[:take]), now)
            del buffer[:take]
            self.remaining -= take
            if self.remaining:
                return False
            self.response_done(now)
            return True
        if self.state == "size":
            end = buffer.find(b"\r\n")
            if end < 0:
                return False
            size = int(bytes(buffer[:end]).split(b";")[0], 16)
            del buffer[:end + 2]
            self.state, self.remaining = ("trailer", 0) if size == 0 else ("chunk", size)
            return True
        if self.state == "chunk":
            take = min(self.remaining, len(buffer))
            if not take:
                return False
            self.body_part(bytes(buffer[:take]), now)
            del buffer[:take]
            self.remaining -= take
            if not self.remaining:
                self.state = "crlf"
            return True
        if self.state == "crlf":
            if len(buffer) < 2:
                return False
            del buffer[:2]
            self.state = "size"
            return True
        if self.state == "trailer":
            end = buffer.find(b"\r\n")
            if end < 0:
                return False
            del buffer[:end + 2]
            if end == 0:
                self.response_done(now)
            return True
        return False

    def body_part(self, part: bytes, now: float) -> None:
        if self.kind == "stream" and self.status == 200:
            self.events_text += part
            while True:
                end = self.events_text.find(b"\n\n")
                if end < 0:
                    break
                message = bytes(self.events_text[:end])
                del self.events_text[:end + 2]
                self.sse_message(message, now)
        else:
            self.body += part

    def sse_message(self, message: bytes, now: float) -> None:
        name = number = data = None
        for line in message.split(b"\n"):
            if line.startswith(b":"):
                self.owner.counts["stream heartbeats"] += 1
                continue
            key, _, value = line.partition(b":")
            value = value[1:] if value.startswith(b" ") else value
            if key == b"id":
                number = int(value)
            elif key == b"event":
                name = value
            elif key == b"data":
                data = value
        if name == b"snapshot":
            self.after = max(self.after, json.loads(data)["last_event"])
            self.failures = 0
            self.now_ready()
        elif name is None and number is not None:
            self.receipts.setdefault(number, now)
            self.after = max(self.after, number)
            self.owner.counts["stream events"] += 1
        elif name == b"end":
            self.ended = True

    def response_done(self, now: float) -> None:
        self.state = "head"
        if self.kind == "poll" and self.status == 200:
            page = json.loads(self.body)
            for event in page["events"]:
                self.receipts.setdefault(event["number"], now)
            self.after = page["last_event"]
            self.failures = 0
            self.owner.counts["long-poll replies" if page["events"] else
                              "long-poll replies, empty"] += 1
            if page["state"]["phase"] == "game_over":
                self.ended = True
        elif self.kind == "stream" and self.status in (200, 204):
            self.owner.counts["streams ended by the server"] += 1
            self.ended = self.ended or self.status == 204
            self.transport.close()
            return
        else:
            self.owner.counts[f"HTTP {self.status}"] += 1
            self.transport.close()
            return
        if self.close_after or self.ended:
            self.transport.close()
        elif not self.closing:
            self.send_request()

    def close(self) -> None:
        self.closing = True
        if self.transport is not None:
            self.transport.abort()


class ClientProcess:
    """The waiters of one process, driven by the controller's commands over a pipe."""

    def __init__(self, conn, port: int, addresses: list[str]):
        self.conn = conn
        self.port = port
        self.addresses = addresses
        self.games: list[dict] = []
        self.waiters: list[Waiter] = []
        self.counts: Counter = Counter()
        self.ready = 0
        self.all_ready: asyncio.Event | None = None

    def waiter_ready(self) -> None:
        self.ready += 1
        if self.ready >= len(self.waiters) and self.all_ready is not None:
            self.all_ready.set()

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            command, *args = await loop.run_in_executor(None, self.conn.recv)
            if command == "exit":
                return
            self.conn.send(await getattr(self, command)(*args))

    async def setup(self, specs: list[tuple[int, str, int]]) -> list[dict]:
        """Create the two-human games [(index, kind, waiters)] and join their second seats."""
        queue = list(specs)
        games: list[dict] = []

        async def worker():
            connection = AsyncConnection(self.port)
            while queue:
                index, kind, waiters = queue.pop()
                created = await connection.request("POST", "/v1/games",
                                                   {"seats": [HUMAN, HUMAN]})
                code = created["invites"][0]["code"]
                joined = await connection.request(
                    "POST", f"/v1/games/{created['game_id']}/join", {"code": code})
                games.append({"index": index, "kind": kind, "waiters": waiters,
                              "game_id": created["game_id"],
                              "tokens": [created["token"], joined["token"]],
                              "last_event": joined["game"]["last_event"]})
            connection.close()

        await asyncio.gather(*(worker() for _ in range(SETUP_CONNECTIONS)))
        self.games = sorted(games, key=lambda game: game["index"])
        return self.games

    async def connect(self, timeout: float) -> dict:
        started = time.monotonic()
        self.all_ready = asyncio.Event()
        self.waiters = [Waiter(self, game, seat, "")
                        for game in self.games for seat in range(game["waiters"])]
        polls = [waiter for waiter in self.waiters if waiter.kind == "poll"]
        for number, waiter in enumerate(self.waiters):
            waiter.address = self.addresses[number % len(self.addresses)]
        for number, waiter in enumerate(polls):
            # Clients that came at different times: renewals spread evenly over the 25 s.
            waiter.wait = round(25 * (number + 1) / len(polls), 2)
        limit = asyncio.Semaphore(CONNECTING_AT_ONCE)

        async def open_one(waiter: Waiter):
            async with limit:
                await waiter.open()

        if not self.waiters:
            self.all_ready.set()
        try:
            await asyncio.wait_for(asyncio.gather(*(open_one(w) for w in self.waiters)), timeout)
            await asyncio.wait_for(self.all_ready.wait(),
                                   max(0.1, timeout - (time.monotonic() - started)))
        except TimeoutError:
            pass
        return {"waiters": len(self.waiters), "ready": self.ready,
                "seconds": time.monotonic() - started}

    async def stats(self) -> dict:
        return dict(self.counts)

    async def receipts(self) -> list[tuple[str, int, str, dict]]:
        return [(w.game_id, w.seat, w.kind, w.receipts) for w in self.waiters if w.receipts]

    async def close(self) -> dict:
        gaps = [w.max_gap for w in self.waiters if w.kind == "stream"]
        open_now = sum(w.transport is not None for w in self.waiters)
        for waiter in self.waiters:
            waiter.close()
        await asyncio.sleep(0.5)
        return {"counts": dict(self.counts), "stream gaps": gaps, "open at close": open_now}


def client_main(conn, port: int, addresses: list[str]) -> None:
    asyncio.run(ClientProcess(conn, port, addresses).run())


# Probes and driver (blocking HTTP, one thread per connection) ------------------------------------
class StatusError(RuntimeError):
    """An answer of status 300 or more."""

    def __init__(self, message: str, status: int):
        super().__init__(message)
        self.status = status


class Client:
    """One keep-alive HTTP/1.1 connection; a fresh one after a timeout or error."""

    def __init__(self, port: int, timeout: float):
        self.port, self.timeout = port, timeout
        self.connection = http.client.HTTPConnection(HOST, port, timeout=timeout)

    def request(self, method: str, path: str, body=None, headers=None) -> dict:
        payload = None if body is None else json.dumps(body)
        headers = {**(headers or {}), **({"Content-Type": "application/json"} if body else {})}
        try:
            self.connection.request(method, path, payload, headers)
            response = self.connection.getresponse()
            data = response.read()
        except BaseException:
            self.reset()
            raise
        if response.status >= 300:
            raise StatusError(f"{method} {path}: {response.status} {data[:300]!r}",
                              response.status)
        return json.loads(data)

    def reset(self) -> None:
        self.connection.close()
        self.connection = http.client.HTTPConnection(HOST, self.port, timeout=self.timeout)


def paced(until: float, interval: float, limit: float):
    """The time each request is due, one every `interval` until `until`: an open loop, so a
    stall delays the requests due behind it, which then go at once (latency counts from when a
    request was due, not from when a stalled client got to send it). A slot more than `limit`
    late is yielded as None: missed."""
    due = time.monotonic()
    while due < until:
        now = time.monotonic()
        if due > now:
            time.sleep(due - now)
        elif now - due > limit:
            yield None
            due += interval
            continue
        yield due
        due += interval


def timed(client: Client, results: dict, kind: str, due: float | None, method: str, path: str,
          body=None, headers=None):
    if due is None:  # so late it was never sent: as long as a timeout
        results[kind].append(client.timeout)
        results["timeouts"][kind] += 1
        return None
    try:
        reply = client.request(method, path, body, headers)
    except TimeoutError:
        reply = None
        results["timeouts"][kind] += 1
    except (OSError, RuntimeError, http.client.HTTPException) as error:
        results["errors"][kind] += 1
        if isinstance(error, StatusError):
            results["statuses"][error.status] += 1
        return None
    done = time.monotonic()
    results[kind].append(done - due)
    results["spans"].append((due, done))
    return reply


def ping_loop(port, until, interval, timeout, results) -> None:
    client = Client(port, timeout)
    for due in paced(until, interval, timeout):
        timed(client, results, "ping", due, "GET", "/v1/ping")


def action_loop(port, until, interval, timeout, results) -> None:
    client = Client(port, timeout)
    seats = [HUMAN, {"kind": "computer", "level": "first"}]
    game_id = view = headers = None
    for due in paced(until, interval, timeout):
        if due is not None and (view is None or view["phase"] == "game_over"):
            try:
                body = client.request("POST", "/v1/games", {"seats": seats})
            except (OSError, RuntimeError, http.client.HTTPException) as error:
                results["errors"]["action"] += 1
                if isinstance(error, StatusError):
                    results["statuses"][error.status] += 1
                continue
            game_id, view = body["game_id"], body["game"]["view"]
            headers = {"Authorization": f"Bearer {body['token']}"}
            continue
        if due is None:
            timed(client, results, "action", None, "POST", "")
            continue
        action = first_legal(view)
        headers["Idempotency-Key"] = f"{game_id}-{view['version']}"
        reply = timed(client, results, "action", due, "POST", f"/v1/games/{game_id}/actions",
                      action, headers)
        if reply is not None:
            view = reply["view"]
        else:
            view = None  # start a new game rather than guess where this one is


def probe(port: int, seconds: float, rate: float, timeout: float,
          nice: int | None = None) -> dict:
    until = time.monotonic() + seconds
    results = {"ping": [], "action": [], "spans": [], "timeouts": Counter(),
               "errors": Counter(), "statuses": Counter(), "cpu wait": 0.0}

    def measured(loop):
        def run(*args):
            if nice is not None:  # this thread only (Linux)
                os.setpriority(os.PRIO_PROCESS, 0, nice)
            waited = thread_wait()
            loop(*args)
            results["cpu wait"] += (thread_wait() - waited) / seconds
        return run

    threads = [threading.Thread(target=measured(loop),
                                args=(port, until, 2 / rate, timeout, results))
               for loop in (ping_loop, ping_loop, action_loop, action_loop)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def thread_wait() -> float:
    """Seconds the calling thread has spent runnable, waiting for a CPU (the probes' own share
    of their latencies)."""
    return int(Path("/proc/thread-self/schedstat").read_text().split()[1]) / 1e9


def drive(port: int, games: list[dict], seconds: float, rate: float, timeout: float) -> dict:
    """Act in `games` in turn, `rate` actions/s: the first legal action of a seat to act."""
    client = Client(port, timeout)
    records, errors = [], Counter()
    state = {game["game_id"]: {"views": {}, "latest": None} for game in games}

    def view_of(game: dict, seat: int) -> dict:
        headers = {"Authorization": f"Bearer {game['tokens'][seat]}"}
        return client.request("GET", f"/v1/games/{game['game_id']}", headers=headers)["view"]

    live = list(games)
    turn = 0
    for due in paced(time.monotonic() + seconds, 1 / rate, timeout):
        if due is None:
            errors["late"] += 1
            continue
        if not live:
            break
        game = live[turn % len(live)]
        turn += 1
        known = state[game["game_id"]]
        try:
            if known["latest"] is None:
                known["latest"] = known["views"][0] = view_of(game, 0)
            latest = known["latest"]
            acting = [seat for seat in latest["to_act"] if seat < len(game["tokens"])]
            if latest["phase"] == "game_over" or not acting:
                live.remove(game)
                continue
            seat = acting[0]
            view = known["views"].get(seat)
            if view is None or view["version"] != latest["version"]:
                view = known["views"][seat] = view_of(game, seat)
            action = first_legal(view)
            headers = {"Authorization": f"Bearer {game['tokens'][seat]}",
                       "Idempotency-Key": f"{game['game_id']}-{seat}-{view['version']}"}
            sent = time.monotonic()
            reply = client.request("POST", f"/v1/games/{game['game_id']}/actions", action,
                                   headers)
            answered = time.monotonic()
        except TimeoutError:
            errors["timeouts"] += 1
            known["latest"] = None
            continue
        except (OSError, RuntimeError, http.client.HTTPException, StopIteration) as error:
            errors["errors"] += 1
            if isinstance(error, StatusError):
                errors[f"HTTP {error.status}"] += 1
            known["latest"] = None
            continue
        records.append((game["game_id"], reply["last_event"], sent, answered))
        known["latest"] = known["views"][seat] = reply["view"]
    return {"records": records, "errors": errors}


def load_main(conn, port: int) -> None:
    while True:
        command, *args = conn.recv()
        if command == "exit":
            return
        conn.send({"probe": probe, "drive": drive}[command](port, *args))


# Servers and measurements ------------------------------------------------------------------------
def raise_open_files() -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


def source_addresses(count: int) -> list[str]:
    """127.0.0.2 ... 127.0.0.254, 127.0.1.1 ... : the loopback addresses a waiter binds to."""
    addresses = []
    for third in range(256):
        for fourth in range(2 if third == 0 else 1, 255):
            addresses.append(f"127.0.{third}.{fourth}")
            if len(addresses) == count:
                return addresses
    raise ValueError("too many waiters")


def machine_times() -> dict[str, int]:
    """The machine's CPU time so far by state (/proc/stat, all cores, clock ticks)."""
    with open("/proc/stat") as stat:
        ticks = [int(value) for value in stat.readline().split()[1:9]]
    return dict(zip(("user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal"),
                    ticks))


def machine_shares(before: dict[str, int], after: dict[str, int]) -> dict[str, float]:
    """Each state's share of the machine's time between two machine_times()."""
    spent = {state: after[state] - before[state] for state in before}
    total = sum(spent.values()) or 1
    return {state: ticks / total for state, ticks in spent.items()}


def proc_rss(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def proc_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def proc_sockets(pid: int) -> int:
    count = 0
    for entry in os.scandir(f"/proc/{pid}/fd"):
        try:
            count += os.readlink(entry.path).startswith("socket:")
        except OSError:
            pass
    return count


class Workers:
    def __init__(self, server: GunicornServer):
        self.server = server

    def pids(self) -> list[int]:
        return self.server.worker_pids()

    def rss(self) -> dict[int, int]:
        return {pid: proc_rss(pid) for pid in self.pids()}

    def cpu(self) -> float:
        return sum(proc_cpu(pid) for pid in self.pids())


class RedisNodes:
    def __init__(self, ports: list[int], cluster: bool):
        self.cluster = cluster
        self.clients = [redis.Redis(host=HOST, port=port, decode_responses=True)
                        for port in ports]
        self.ports = ports

    def commandstats(self) -> Counter:
        total: Counter = Counter()
        for client in self.clients:
            for name, stats in client.info("commandstats").items():
                total[name.removeprefix("cmdstat_")] += stats["calls"]
        return total

    def cpu(self) -> float:
        return sum(float(info["used_cpu_user"]) + float(info["used_cpu_sys"])
                   for info in (client.info("cpu") for client in self.clients))

    def channels(self) -> int:
        if self.cluster:
            return sum(len(client.execute_command("PUBSUB", "SHARDCHANNELS", "cribbage:*"))
                       for client in self.clients)
        return len(self.clients[0].pubsub_channels("cribbage:*"))

    def connected_clients(self) -> tuple[int, int]:
        """Clients connected to the Redis server(s): all of them, and those subscribed."""
        listed = [entry for client in self.clients for entry in client.client_list()]
        subscribed = sum(1 for entry in listed
                         if any(int(entry.get(kind, 0)) for kind in ("sub", "psub", "ssub")))
        return len(listed) - len(self.clients), subscribed  # less the bench's own

    def close(self) -> None:
        for client in self.clients:
            client.close()


MONITOR_LINE = re.compile(rb'^\+[\d.]+ \[\d+ ([^\]]+)\] "([^"]+)"(.*)$')
GAME_IN_KEY = re.compile(rb"cribbage:\{([A-Za-z0-9_-]+)\}")


class Monitor(threading.Thread):
    """MONITOR on one Redis node: the commands clients send, counted by (kind of game, name)."""

    def __init__(self, port: int, kinds: dict[bytes, str]):
        super().__init__(daemon=True)
        self.kinds = kinds
        self.counts: Counter = Counter()
        self.sock = socket.create_connection((HOST, port))
        self.sock.sendall(b"MONITOR\r\n")
        self.file = self.sock.makefile("rb")
        assert self.file.readline().startswith(b"+OK"), "MONITOR refused"
        self.start()

    def run(self) -> None:
        try:
            for line in self.file:
                found = MONITOR_LINE.match(line.rstrip(b"\r\n"))
                if found is None or found.group(1) == b"lua" or found.group(2).lower() == b"info":
                    continue  # what scripts run, and the bench's own reads of the counters
                game = GAME_IN_KEY.search(found.group(3))
                kind = self.kinds.get(game.group(1), "other") if game else "other"
                self.counts[kind, found.group(2).decode().lower()] += 1
        except (OSError, ValueError):
            pass

    def stop(self) -> Counter:
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.join(5)
        self.sock.close()
        return self.counts


def idle(seconds: float, nodes: RedisNodes, workers: Workers, kinds: dict[bytes, str]) -> dict:
    """Nothing happens for `seconds`: what Redis and the workers do meanwhile."""
    monitors = [Monitor(port, kinds) for port in nodes.ports]
    before = nodes.commandstats()
    cpu_workers, cpu_redis = workers.cpu(), nodes.cpu()
    started = time.monotonic()
    time.sleep(seconds)
    elapsed = time.monotonic() - started
    after = nodes.commandstats()
    cpu_workers, cpu_redis = workers.cpu() - cpu_workers, nodes.cpu() - cpu_redis
    by_kind: Counter = Counter()
    for monitor in monitors:
        by_kind.update(monitor.stop())
    commands = after - before
    commands.pop("info", None)  # the bench's own reads of the counters
    commands.pop("monitor", None)
    return {"seconds": elapsed, "commands": commands, "by kind": by_kind,
            "cpu workers": cpu_workers, "cpu redis": cpu_redis}


def gc_pauses(directory: str, pids: list[int]) -> list[tuple[int, float, float, float, int]]:
    """The workers' full collections: (pid, when it ended, wall seconds, CPU seconds, objects
    freed)."""
    pauses = []
    for pid in pids:
        path = Path(directory, f"gc-{pid}.log")
        if path.exists():
            for line in path.read_text().splitlines():
                ended, wall, cpu, freed = line.split()
                pauses.append((pid, float(ended), float(wall), float(cpu), int(freed)))
    return pauses


def during_gc(spans: list[tuple[float, float]], pauses: list) -> int:
    """How many of the (start, end) spans overlap a worker's full collection."""
    return sum(any(ended - wall < end and ended > start for _, ended, wall, *_ in pauses)
               for start, end in spans)


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p / 100))]


class Children:
    """The client processes and the load process, each talked to over a pipe."""

    def __init__(self, port: int, processes: int, addresses: list[str]):
        context = multiprocessing.get_context("fork")
        self.clients, self.processes = [], []
        for number in range(processes):
            mine, theirs = context.Pipe()
            process = context.Process(target=client_main, daemon=True,
                                      args=(theirs, port, addresses[number::processes]))
            process.start()
            self.clients.append(mine)
            self.processes.append(process)
        self.load, theirs = context.Pipe()
        process = context.Process(target=load_main, args=(theirs, port), daemon=True)
        process.start()
        self.processes.append(process)

    def all_clients(self, *command, timeout: float = 600) -> list:
        for conn in self.clients:
            conn.send(command)
        return [self.receive(conn, timeout) for conn in self.clients]

    def ask_load(self, *command, timeout: float = 600):
        self.load.send(command)
        return self.receive(self.load, timeout)

    def receive(self, conn, timeout: float):
        if not conn.poll(timeout):
            raise TimeoutError("a client process did not answer")
        return conn.recv()

    def stop(self) -> None:
        for conn in [*self.clients, self.load]:
            try:
                conn.send(("exit",))
            except OSError:
                pass
        for process in self.processes:
            process.join(5)
            if process.is_alive():
                process.kill()
                process.join()


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


# The run -----------------------------------------------------------------------------------------
def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--waiters", type=int, default=5000, help="waiting clients, N")
    parser.add_argument("--workers", type=int, default=None,
                        help="gunicorn workers (default: the config's, 2 x cores + 1 with Redis)")
    parser.add_argument("--cluster", action="store_true", help="a 3-master Redis Cluster")
    parser.add_argument("--worker-class", default=None,
                        help="GUNICORN_WORKER_CLASS, e.g. gthread (default: the config's gevent "
                             "worker, service.server.worker.CribbageWorker)")
    parser.add_argument("--duration", type=float, default=30,
                        help="seconds of each probe phase and of the delivery phase")
    parser.add_argument("--idle", type=float, default=75,
                        help="seconds of each idle phase (0: none); 75 s holds exactly 3 "
                             "long-poll rounds of 25 s and one stream safety re-read")
    parser.add_argument("--probe-rate", type=float, default=50,
                        help="pings/s and actions/s of the probes")
    parser.add_argument("--driven", type=int, default=40,
                        help="waiters' games the driver acts in (half long-poll, half stream)")
    parser.add_argument("--action-rate", type=float, default=20,
                        help="the driver's actions/s, over all its games")
    parser.add_argument("--client-processes", type=int, default=None,
                        help=f"processes holding the waiters (default: one per "
                             f"{WAITERS_PER_PROCESS:,})")
    parser.add_argument("--request-timeout", type=float, default=10,
                        help="a probe or driver request with no reply in this long is a "
                             "timeout (its latency: this long)")
    parser.add_argument("--connect-timeout", type=float, default=120,
                        help="seconds to connect the waiters and for Redis to hold their "
                             "channels")
    parser.add_argument("--no-gc-log", dest="gc_log", action="store_false",
                        help="do not log the workers' full garbage collections")
    parser.add_argument("--max-seconds", type=float, default=1200,
                        help="stop everything after this long, whatever happens")
    parser.add_argument("--busy-cores", type=int, default=0,
                        help="processes that each keep a core busy (a Python loop) for the "
                             "whole run, probes with none waiting included: a machine busy "
                             "with other work")
    parser.add_argument("--probe-nice", type=int, default=None,
                        help="a diagnostic: the probes' threads at this niceness (-10 needs "
                             "root), to take their own wait for a CPU out of their latencies")
    parser.add_argument("--log-dir", default=None,
                        help="keep the server's stdout and stderr in this folder")
    parser.add_argument("--server-root", default=str(ROOT),
                        help="the checkout whose service and deploy/gunicorn.conf.py to serve")
    parser.add_argument("--cpu-floor", type=float, default=33,
                        help="the floor of the workers' CPU, ms/s per 1,000 idle waiters")
    args = parser.parse_args()

    load_before = os.getloadavg()
    open_files = raise_open_files()
    n = args.waiters
    processes = args.client_processes or max(1, math.ceil(n / WAITERS_PER_PROCESS))
    if n / processes + 100 > open_files:
        parser.error(f"{n} waiters over {processes} processes: more than the open-file limit "
                     f"({open_files}) in one; pass --client-processes")
    addresses = source_addresses(max(processes, math.ceil(n / PER_ADDRESS)))
    games_count = math.ceil(n / 2)
    specs = [(index, "poll" if index % 2 == 0 else "stream",
              2 if 2 * index + 1 < n else n - 2 * index) for index in range(games_count)]

    redis_servers = RedisClusterServers().start() if args.cluster else RedisServer().start()
    ports = ([node.port for node in redis_servers.nodes] if args.cluster
             else [redis_servers.port])
    env = {"CRIBBAGE_REDIS_URL": redis_servers.url,
           "CRIBBAGE_REDIS_CLUSTER": "1" if args.cluster else None,
           "CRIBBAGE_RATE_LIMIT_ENABLED": "0", "CRIBBAGE_MAX_LIVE_GAMES_PER_CLIENT": "0",
           "CRIBBAGE_LOG_LEVEL": "WARNING",
           "GUNICORN_WORKER_CLASS": args.worker_class}
    gc_dir = None
    if args.gc_log:
        gc_dir = tempfile.mkdtemp(prefix="live-bench-gc-")
        Path(gc_dir, "sitecustomize.py").write_text(GC_LOG_SITECUSTOMIZE % gc_dir)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [gc_dir, os.environ.get("PYTHONPATH")]))
    server = GunicornServer(env, workers=args.workers, threads=8, log_dir=args.log_dir,
                            root=args.server_root)
    children = None
    watchdog = None
    busy = []
    nodes = RedisNodes(ports, args.cluster)
    try:
        server.start()
        ready = server.request("GET", "/readyz")[2]
        assert ready["checks"] == {"store": "ok"}, ready
        workers = Workers(server)
        children = Children(server.port, processes, addresses)
        watchdog = threading.Timer(args.max_seconds, _thread.interrupt_main)
        watchdog.daemon = True
        watchdog.start()
        busy = [subprocess.Popen([sys.executable, "-c", "while 1: pass"])
                for _ in range(args.busy_cores)]
        result = run(args, n, specs, processes, addresses, server, workers, nodes, children)
        result["redis version"] = nodes.clients[0].info("server")["redis_version"]
        result["load average"] = (load_before, os.getloadavg())
        result["rejected"] = sum(int(client.info("stats")["rejected_connections"])
                                 for client in nodes.clients)
        if gc_dir is not None:
            result["gc"] = gc_pauses(gc_dir, result["worker pids"])
    finally:
        for process in busy:
            process.kill()
            process.wait()
        if watchdog is not None:
            watchdog.cancel()
        if children is not None:
            children.stop()
        nodes.close()
        server.stop()
        redis_servers.remove()
        if gc_dir is not None:
            shutil.rmtree(gc_dir, ignore_errors=True)
    report(args, result)


def run(args, n, specs, processes, addresses, server, workers, nodes, children) -> dict:
    result: dict = {"n": n, "processes": processes, "addresses": len(addresses),
                    "workers": len(workers.pids())}
    timeout = args.request_timeout
    log(f"creating {len(specs)} two-human games")
    started = time.monotonic()
    shares = [specs[number::processes] for number in range(processes)]
    games: list[dict] = []
    for conn, share in zip(children.clients, shares):
        conn.send(("setup", share))
    for conn in children.clients:
        games += children.receive(conn, 1800)
    result["setup seconds"] = time.monotonic() - started
    kinds = {game["game_id"].encode(): game["kind"] for game in games}
    result["waiters by kind"] = Counter()
    for game in games:
        result["waiters by kind"][game["kind"]] += game["waiters"]

    # The seats just joined are told gone once their presence has lapsed (an action counts
    # for ACTED_WINDOW, then the grace): one sweep of each game, which is setup, not idle cost.
    settled = started + result["setup seconds"] + ACTED_WINDOW + PRESENCE_GRACE + SWEEP_MARGIN
    log(f"waiting {max(settled - time.monotonic(), 0):.0f} s for the setup's seats to be told "
        "gone")
    time.sleep(max(settled - time.monotonic(), 0))
    log("probes, none waiting")
    result["probes started"] = time.monotonic()
    children.ask_load("probe", 1.0, args.probe_rate, timeout, args.probe_nice)  # warm up
    before = machine_times()
    result["probe idle"] = children.ask_load("probe", args.duration, args.probe_rate, timeout,
                                             args.probe_nice)
    result["machine probe idle"] = machine_shares(before, machine_times())
    if args.idle:
        log(f"idle {args.idle:g} s, none waiting")
        result["idle none"] = idle(args.idle, nodes, workers, kinds)
    result["rss none"] = workers.rss()

    log(f"connecting {n} waiters")
    started = result["connect started"] = time.monotonic()
    connected = children.all_clients("connect", args.connect_timeout,
                                     timeout=args.connect_timeout + 30)
    result["ready"] = sum(part["ready"] for part in connected)
    # Until Redis holds a channel for every game, or the count has not moved for 10 s (a
    # gthread server never gets to the waiters it has no thread for).
    channels, deadline = 0, time.monotonic() + args.connect_timeout
    counted = (-1, time.monotonic())
    while time.monotonic() < deadline:
        channels = nodes.channels()
        if channels >= len(games) or time.monotonic() - counted[1] > STABLE:
            break
        if channels != counted[0]:
            counted = (channels, time.monotonic())
        time.sleep(0.5)
    result["connect seconds"] = time.monotonic() - started
    result["channels"], result["games"] = channels, len(games)
    time.sleep(2)
    result["rss waiting"] = workers.rss()
    result["sockets"] = {pid: proc_sockets(pid) for pid in workers.pids()}
    result["redis clients"] = nodes.connected_clients()
    log(f"connected in {result['connect seconds']:.1f} s: {result['ready']} ready, "
        f"{channels} channels for {len(games)} games; probes, {n} waiting")
    before = machine_times()
    result["probe waiting"] = children.ask_load("probe", args.duration, args.probe_rate,
                                                timeout, args.probe_nice)
    result["machine probe waiting"] = machine_shares(before, machine_times())
    if args.idle:
        log(f"idle {args.idle:g} s, {n} waiting")
        result["idle waiting"] = idle(args.idle, nodes, workers, kinds)

    polls = [game for game in games if game["kind"] == "poll"]
    streams = [game for game in games if game["kind"] == "stream"]
    driven = polls[:args.driven // 2] + streams[:args.driven - args.driven // 2]
    log(f"delivery: acting in {len(driven)} games")
    driving = children.ask_load("drive", driven, args.duration, args.action_rate, timeout,
                                timeout=args.duration + 10 * timeout + 60)
    time.sleep(GRACE)
    receipts = [item for part in children.all_clients("receipts") for item in part]
    result["delivery"] = deliveries(driven, driving, receipts)
    log("closing the waiters")
    result["redis clients at the end"] = nodes.connected_clients()
    result["close started"] = time.monotonic()
    result["worker pids"] = workers.pids()
    closed = children.all_clients("close")
    result["counts"] = sum((Counter(part["counts"]) for part in closed), Counter())
    result["stream gaps"] = [gap for part in closed for gap in part["stream gaps"]]
    result["open at close"] = sum(part["open at close"] for part in closed)
    return result


def deliveries(driven: list[dict], driving: dict, receipts: list) -> dict:
    """Each driven action against each waiter of its game: when that waiter read the event."""
    kind_of = {game["game_id"]: game["kind"] for game in driven}
    seats = {game["game_id"]: game["waiters"] for game in driven}
    by_waiter = {(game_id, seat): times for game_id, seat, _, times in receipts}
    delays = {"poll": [], "stream": []}
    spans = []  # (answered, received) of each delivery
    missed = Counter()
    for game_id, last_event, _, answered in driving["records"]:
        for seat in range(seats[game_id]):
            received = by_waiter.get((game_id, seat), {}).get(last_event)
            if received is None:
                missed[kind_of[game_id]] += 1
            else:
                delays[kind_of[game_id]].append(received - answered)
                spans.append((answered, received))
    return {"actions": len(driving["records"]), "errors": driving["errors"], "delays": delays,
            "spans": spans,
            "missed": missed}


# The table ---------------------------------------------------------------------------------------
def checkout_commit(root: str) -> str:
    found = subprocess.run(["git", "-C", root, "rev-parse", "--short", "HEAD"],
                           capture_output=True, text=True)
    return found.stdout.strip() or "an unknown commit"


def report(args, r: dict) -> None:
    n = r["n"]
    ms = 1e3
    worker = args.worker_class or "service.server.worker.CribbageWorker (gevent)"
    if args.worker_class == "gthread":
        worker = "gthread, 8 threads"
    store = "Redis Cluster, 3 masters" if args.cluster else "standalone Redis"
    print(f"bench/live.py: {n:,} waiters ({r['waiters by kind']['poll']:,} long polls, "
          f"{r['waiters by kind']['stream']:,} streams) on {r['games']:,} two-human games; "
          f"gunicorn {worker}, {r['workers']} workers; {store} {r['redis version']}")
    if Path(args.server_root).resolve() != ROOT:
        print(f"server: {args.server_root} at {checkout_commit(args.server_root)}")
    before, after = r["load average"]
    print(f"machine: {os.cpu_count()} cores, load average (1, 5, 15 min) before "
          f"{before[0]:.2f} {before[1]:.2f} {before[2]:.2f}, after {after[0]:.2f} "
          f"{after[1]:.2f} {after[2]:.2f}; busy loops of the bench's own: {args.busy_cores}"
          + ("" if args.probe_nice is None else f"; probes at nice {args.probe_nice}"))
    print(f"clients: {r['processes']} process(es), asyncio raw sockets, spread over "
          f"{r['addresses']} source addresses 127.0.0.2.. (at most {PER_ADDRESS} each; "
          f"CRIBBAGE_MAX_CONNECTIONS_PER_CLIENT left at 64); rate limits off")
    print(f"setup {r['setup seconds']:.0f} s; connected in {r['connect seconds']:.1f} s: "
          f"{r['ready']:,}/{n:,} waiters ready (streams: snapshot read), Redis holds "
          f"{r['channels']:,} game channels for {r['games']:,} games; Redis clients: "
          f"{r['redis clients'][0]} ({r['redis clients'][1]} subscribed); server sockets per "
          f"worker: "
          f"{' '.join(str(count) for count in r['sockets'].values())}")
    print()
    idle_probe, busy_probe = r["probe idle"], r["probe waiting"]
    print(f"latency ({args.probe_rate:g}/s of each, open loop: from when each request was due)")
    print(f"  {'':34} {'none waiting':>13} {f'{n:,} waiting':>16} {'ratio':>9}")
    for kind, label in (("ping", "GET  /v1/ping"), ("action", "POST /v1/games/{id}/actions")):
        for p in (50, 99):
            a, b = percentile(idle_probe[kind], p), percentile(busy_probe[kind], p)
            print(f"  {label:30} p{p:<3} {a * ms:10.1f} ms {b * ms:13.1f} ms {b / a:8.2f}x")
        print(f"  {'':30} n   {len(idle_probe[kind]):11}    {len(busy_probe[kind]):13}    "
              f"  timeouts {idle_probe['timeouts'][kind]}/{busy_probe['timeouts'][kind]}"
              f", errors {idle_probe['errors'][kind]}/{busy_probe['errors'][kind]}")
    quiet, busy = r["machine probe idle"], r["machine probe waiting"]
    print(f"  the machine's time during the probes, none waiting / waiting: idle "
          f"{quiet['idle']:.0%} / {busy['idle']:.0%}, stolen by the hypervisor "
          f"{quiet['steal']:.1%} / {busy['steal']:.1%}; the probes' own threads waited for "
          f"a CPU {idle_probe['cpu wait'] * 1e3:.0f} / {busy_probe['cpu wait'] * 1e3:.0f} ms/s")
    print()
    d = r["delivery"]
    print(f"delivery: action response -> waiter reads the event ({d['actions']} actions in "
          f"{args.driven} games, {args.action_rate:g}/s; driver errors "
          f"{dict(d['errors']) or 0})")
    print(f"  {'':12} {'delivered':>10} {'missed':>7} {'p50':>9} {'p99':>9} {'max':>9}")
    everything = d["delays"]["poll"] + d["delays"]["stream"]
    for label, delays, missed in (("long polls", d["delays"]["poll"], d["missed"]["poll"]),
                                  ("streams", d["delays"]["stream"], d["missed"]["stream"]),
                                  ("all", everything, sum(d["missed"].values()))):
        print(f"  {label:12} {len(delays):10} {missed:7} {percentile(delays, 50) * ms:6.1f} ms"
              f" {percentile(delays, 99) * ms:6.1f} ms {max(delays or [math.nan]) * ms:6.1f} ms")
    print()
    if args.idle:
        report_idle(r, n)
    rss_none, rss_waiting = sum(r["rss none"].values()), sum(r["rss waiting"].values())
    print(f"memory: gunicorn workers' RSS {rss_none / 2**20:.0f} MiB none waiting, "
          f"{rss_waiting / 2**20:.0f} MiB with {n:,}: "
          f"{(rss_waiting - rss_none) / 2**20 / (n / 1000):.1f} MiB per 1,000 waiters "
          f"(per worker MiB: {' '.join(f'{v / 2**20:.0f}' for v in r['rss waiting'].values())})")
    counts = r["counts"]
    gaps = r["stream gaps"]
    print(f"waiters saw: long polls sent {counts['long polls sent']:,}, replies with events "
          f"{counts['long-poll replies']:,}, empty (25 s passed) "
          f"{counts['long-poll replies, empty']:,}; stream events {counts['stream events']:,}, "
          f"heartbeats {counts['stream heartbeats']:,}, longest silence on a stream "
          f"{max(gaps or [0]):.1f} s (median of each stream's longest "
          f"{percentile(gaps, 50):.1f} s)")
    if "gc" in r:
        print("full garbage collections (gen 2) in the workers, count, longest (its CPU time), "
              "share of the workers' time, objects freed (most in one):")
        for label, start, end in (("none waiting", r["probes started"], r["connect started"]),
                                  (f"{n:,} waiting", r["connect started"], r["close started"])):
            pauses = [p for p in r["gc"] if start <= p[1] <= end]
            longest = max(pauses, key=lambda p: p[2], default=(0, 0, 0.0, 0.0, 0))
            share = sum(p[2] for p in pauses) / (end - start) / max(r["workers"], 1)
            freed = [p[4] for p in pauses]
            print(f"  {label:14} {len(pauses):4} in {end - start:4.0f} s, longest "
                  f"{longest[2] * 1e3:5.0f} ms ({longest[3] * 1e3:.0f} ms CPU), {share:.2%}, "
                  f"freed {sum(freed):,} ({max(freed, default=0):,})")
        slow_requests = [span for span in r["probe waiting"]["spans"]
                         if span[1] - span[0] > SLOW]
        slow_deliveries = [span for span in r["delivery"]["spans"] if span[1] - span[0] > SLOW]
        print(f"  of the requests and deliveries slower than {SLOW * 1e3:.0f} ms while waiting, "
              f"those during a full collection: probes {during_gc(slow_requests, r['gc'])}/"
              f"{len(slow_requests)}, deliveries {during_gc(slow_deliveries, r['gc'])}/"
              f"{len(slow_deliveries)}")
    trouble = {key: value for key, value in counts.items()
               if key not in ("long polls sent", "long-poll replies", "long-poll replies, empty",
                              "stream events", "stream heartbeats")}
    print(f"Redis clients: {r['redis clients'][0]:,} once the waiters were connected, "
          f"{r['redis clients at the end'][0]:,} before they closed (the bench's own not counted)")
    if r["rejected"]:
        trouble["connections Redis rejected (maxclients)"] = r["rejected"]
    print(f"trouble: {trouble or 'none'}; waiters still connected at the end "
          f"{r['open at close']:,}/{n:,}")
    floor(r, n, args)


def commands_per_waiter(r: dict, n: int) -> float:
    """Redis commands of every kind per idle waiter per minute: commandstats over the idle
    phase with N waiting, less those of the idle phase with none (scaled to the same time)."""
    none, waiting = r["idle none"], r["idle waiting"]
    scale = waiting["seconds"] / none["seconds"]
    extra = sum(waiting["commands"].values()) - sum(none["commands"].values()) * scale
    return extra / n / (waiting["seconds"] / 60)


def cpu_per_thousand(r: dict, n: int, key: str = "cpu workers") -> float:
    """Seconds of CPU a second per 1,000 idle waiters (idle with N waiting less with none)."""
    none, waiting = r["idle none"], r["idle waiting"]
    return (waiting[key] / waiting["seconds"] - none[key] / none["seconds"]) / (n / 1000)


def answers_503(r: dict) -> int:
    """503s the probes, the driver and the waiters got."""
    return (r["probe idle"]["statuses"][503] + r["probe waiting"]["statuses"][503]
            + r["delivery"]["errors"]["HTTP 503"] + r["counts"]["HTTP 503"])


def report_idle(r: dict, n: int) -> None:
    none, waiting = r["idle none"], r["idle waiting"]
    minutes = waiting["seconds"] / 60
    all_none, all_waiting = sum(none["commands"].values()), sum(waiting["commands"].values())
    print(f"idle {waiting['seconds']:.0f} s, nothing happening      none waiting   {n:,} "
          f"waiting   per idle waiter per minute")
    print(f"  Redis commands (commandstats, all)  {all_none:12,} {all_waiting:14,}   "
          f"{commands_per_waiter(r, n):8.3f}")
    changed = sorted(set(waiting["commands"]) | set(none["commands"]),
                     key=lambda name: -waiting["commands"][name])
    print("    " + ", ".join(f"{name} {none['commands'][name]}/{waiting['commands'][name]}"
                             for name in changed if waiting["commands"][name]
                             or none["commands"][name]))
    kinds = r["waiters by kind"]
    for kind, label in (("poll", "long polls"), ("stream", "streams")):
        sent = Counter({name: count for (k, name), count in waiting["by kind"].items()
                        if k == kind})
        total = sum(sent.values())
        per = total / max(kinds[kind], 1) / minutes
        detail = ", ".join(f"{name} {count / max(kinds[kind], 1) / minutes:.3f}"
                           for name, count in sent.most_common())
        print(f"  sent for {label:10} (MONITOR) {'-':>12} {total:14,}   {per:8.3f}"
              f"  ({detail or 'none'})")
    other = Counter({name: count for (k, name), count in waiting["by kind"].items()
                     if k == "other"})
    other_none = Counter({name: count for (k, name), count in none["by kind"].items()
                          if k == "other"})
    print(f"  sent for no waiter's game (MONITOR) {sum(other_none.values()):12,} "
          f"{sum(other.values()):14,}   ("
          + (", ".join(f"{name} {other_none[name]}/{count}" for name, count in other.most_common())
             or "none") + ")")
    for key, label in (("cpu workers", "CPU, gunicorn workers"), ("cpu redis", "CPU, Redis")):
        a, b = none[key] / none["seconds"], waiting[key] / waiting["seconds"]
        print(f"  {label:35} {a:11.1%} {b:14.1%}   of a core: "
              f"{cpu_per_thousand(r, n, key) * 1e3:.1f} ms/s per 1,000 waiters")
    print()


def floor(r: dict, n: int, args) -> None:
    idle_probe, busy_probe = r["probe idle"], r["probe waiting"]
    ping = percentile(busy_probe["ping"], 99) / percentile(idle_probe["ping"], 99)
    action = percentile(busy_probe["action"], 99) / percentile(idle_probe["action"], 99)
    delays = r["delivery"]["delays"]["poll"] + r["delivery"]["delays"]["stream"]
    delivery = percentile(delays, 99)
    checks = [(f"{n:,} waiters ready", r["ready"] == n and n >= 5000),
              (f"ping p99 {ping:.2f}x <= 2x", ping <= 2),
              (f"action p99 {action:.2f}x <= 2x", action <= 2),
              (f"delivery p99 {delivery * 1e3:.1f} ms <= 50 ms, none missed",
               delivery <= 0.05 and not sum(r["delivery"]["missed"].values()))]
    if args.idle:
        commands, cpu = commands_per_waiter(r, n), cpu_per_thousand(r, n)
        checks += [(f"Redis commands {commands:.3f} per idle waiter per minute <= 1",
                    commands <= 1),
                   (f"workers' CPU {cpu * 1e3:.1f} ms/s per 1,000 idle waiters "
                    f"< {args.cpu_floor:g}", cpu * 1e3 < args.cpu_floor)]
    refused = answers_503(r)
    checks.append((f"answers of 503: {refused}", not refused))
    print("floor: " + "; ".join(f"{text} {'yes' if ok else 'NO'}" for text, ok in checks))


if __name__ == "__main__":
    main()
