"""What one idle waiter costs a gunicorn worker in CPU: a long poll answered empty, a stream's
heartbeat. bench/live.py measures the whole (CPU per 1,000 idle waiters); this splits it.

Starts a redis-server and gunicorn with one worker (deploy/gunicorn.conf.py, rate limits off) on
free loopback ports, then, each for `--seconds`:
- polls: `--polls` clients each asking GET /v1/games/{id}/events?wait=W again at once on a game
  that does not change (W = `--wait`, so many rounds in the window); CPU per long poll;
- streams: `--streams` open event streams on games that do not change; CPU per heartbeat (one
  every 15 s; a stream's once-a-minute re-read falls in the window too).
The worker's CPU comes from /proc. In bench/live.py's idle phase, 5,000 waiters (half long polls
of 25 s, half streams) make 100 long polls and 167 heartbeats a second.

    python bench/waiter_cost.py [--polls 50] [--wait 0.5] [--streams 500] [--seconds 30]
"""

from __future__ import annotations

import argparse
import http.client
import selectors
import socket
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.live import proc_cpu
from tests.ops.gunicorn_server import GunicornServer
from tests.redis_servers import RedisServer

TWO_HUMANS = {"seats": [{"kind": "human"}, {"kind": "human"}]}


def seats(server: GunicornServer, games: int) -> list[tuple[str, str, int]]:
    """(game id, token, last event) of both seats of `games` new two-human games."""
    found = []
    for _ in range(games):
        _, _, created = server.request("POST", "/v1/games", TWO_HUMANS)
        code = created["invites"][0]["code"]
        _, _, joined = server.request("POST", f"/v1/games/{created['game_id']}/join",
                                      {"code": code})
        last = joined["game"]["last_event"]
        found += [(created["game_id"], created["token"], last),
                  (created["game_id"], joined["token"], last)]
    return found


def measure(pid: int, seconds: float, counted) -> tuple[float, int]:
    """The worker's CPU seconds and the count `counted()` moved by over `seconds`."""
    cpu, count = proc_cpu(pid), counted()
    time.sleep(seconds)
    return proc_cpu(pid) - cpu, counted() - count


def polls(server: GunicornServer, pid: int, clients: int, wait: float, seconds: float) -> str:
    stop, answered = threading.Event(), [0]

    def client(game_id: str, token: str, last: int) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        while not stop.is_set():
            connection.request("GET", f"/v1/games/{game_id}/events?after={last}&wait={wait}",
                               headers={"Authorization": f"Bearer {token}"})
            connection.getresponse().read()
            answered[0] += 1

    threads = [threading.Thread(target=client, args=seat)
               for seat in seats(server, (clients + 1) // 2)[:clients]]
    for thread in threads:
        thread.start()
    time.sleep(3)  # every client's game read, subscribed, its seat held
    cpu, count = measure(pid, seconds, lambda: answered[0])
    stop.set()
    for thread in threads:
        thread.join()
    return (f"long polls: {count / seconds:.0f}/s, worker CPU {cpu / seconds:.1%}, "
            f"{cpu / count * 1e3:.2f} ms per long poll")


def streams(server: GunicornServer, pid: int, count: int, seconds: float) -> str:
    selector, heartbeats = selectors.DefaultSelector(), [0]
    for game_id, token, _ in seats(server, (count + 1) // 2)[:count]:
        sock = socket.create_connection(("127.0.0.1", server.port))
        sock.sendall(f"GET /v1/games/{game_id}/stream HTTP/1.1\r\nHost: bench\r\n"
                     f"Authorization: Bearer {token}\r\n\r\n".encode())
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ)
    stop = threading.Event()

    def read() -> None:
        while not stop.is_set():
            for key, _ in selector.select(0.5):
                heartbeats[0] += key.fileobj.recv(65536).count(b": heartbeat")

    reader = threading.Thread(target=read)
    reader.start()
    time.sleep(3)
    cpu, beats = measure(pid, seconds, lambda: heartbeats[0])
    stop.set()
    reader.join()
    for key in list(selector.get_map().values()):
        key.fileobj.close()
    return (f"streams: {count}, {beats} heartbeats in {seconds:.0f} s, worker CPU "
            f"{cpu / seconds:.1%}, {cpu / max(beats, 1) * 1e3:.2f} ms per heartbeat, "
            f"{cpu / seconds / count * 1e6:.0f} us/s per stream")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--polls", type=int, default=50, help="long-poll clients")
    parser.add_argument("--wait", type=float, default=0.5, help="each long poll's wait (s)")
    parser.add_argument("--streams", type=int, default=500, help="open streams")
    parser.add_argument("--seconds", type=float, default=30, help="each window")
    args = parser.parse_args()
    redis = RedisServer().start()
    server = GunicornServer({"CRIBBAGE_REDIS_URL": redis.url, "CRIBBAGE_RATE_LIMIT_ENABLED": "0",
                             "CRIBBAGE_MAX_LIVE_GAMES_PER_CLIENT": "0",
                             "CRIBBAGE_MAX_CONNECTIONS_PER_CLIENT": "0",
                             "CRIBBAGE_LOG_LEVEL": "WARNING"}, workers=1)
    try:
        server.start()
        pid = server.worker_pids()[0]
        print(polls(server, pid, args.polls, args.wait, args.seconds))
        print(streams(server, pid, args.streams, args.seconds))
    finally:
        server.stop()
        redis.remove()


if __name__ == "__main__":
    main()
