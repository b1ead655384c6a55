"""Waiting clients under the real server (gunicorn's gevent worker): they cost no thread, an
action wakes them across processes, slow or greedy clients cannot hold the server."""

from __future__ import annotations

import json
import socket
import threading
import time

import pytest

from tests.ops.gunicorn_server import GunicornServer

TWO_HUMANS = {"seats": [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bea"}]}
NO_RATE_LIMITS = {"CRIBBAGE_RATE_LIMIT_ENABLED": "0"}
TOO_SLOW = {"type": "urn:cribbage:problem:request_timeout", "title": "Request timeout",
            "status": 408, "detail": "The request body did not arrive in time",
            "code": "request_timeout"}


@pytest.fixture
def servers(tmp_path):
    started = []

    def start(env, workers=1) -> GunicornServer:
        log_dir = tmp_path / str(len(started))
        log_dir.mkdir()
        server = GunicornServer({**NO_RATE_LIMITS, **env}, workers=workers, threads=None,
                                log_dir=log_dir)
        started.append(server)
        return server.start()

    yield start
    for server in started:
        server.stop()


def new_game(server: GunicornServer) -> tuple[str, str]:
    status, _, created = server.request("POST", "/v1/games", TWO_HUMANS)
    assert status == 201
    return created["game_id"], created["token"]


def cut(server: GunicornServer, game_id: str, token: str) -> None:
    status, _, _ = server.request("POST", f"/v1/games/{game_id}/actions",
                                  {"type": "cut_for_deal", "depth": 10},
                                  {"Authorization": f"Bearer {token}"})
    assert status == 200


def open_long_poll(server: GunicornServer, game_id: str, source: str) -> socket.socket:
    """A long poll for the game's next event, sent and left waiting (its reply not yet read)."""
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=30,
                                    source_address=(source, 0))
    sock.sendall(f"GET /v1/games/{game_id}/events?after=1&wait=25 HTTP/1.1\r\n"
                 f"Host: test\r\nConnection: close\r\n\r\n".encode())
    return sock


def read_reply(sock: socket.socket) -> tuple[int, dict]:
    raw = b""
    while chunk := sock.recv(65536):
        raw += chunk
    sock.close()
    head, _, body = raw.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(body)


def test_a_ping_answers_while_200_clients_wait(servers):
    server = servers({})  # the README's serve command: one worker, the embedded store
    game_id, token = new_game(server)
    # At most 64 connections per client address: the waiters come from four addresses.
    waiting = [open_long_poll(server, game_id, f"127.0.0.{2 + n % 4}") for n in range(200)]
    time.sleep(0.5)
    started = time.monotonic()
    assert server.request("GET", "/v1/ping", timeout=5)[:1] == (200,)
    assert time.monotonic() - started < 2.0
    cut(server, game_id, token)
    replies = [read_reply(sock) for sock in waiting]
    assert {status for status, _ in replies} == {200}
    assert {tuple(e["type"] for e in body["events"]) for _, body in replies} == {("dealer_cut",)}


def test_an_action_on_one_server_process_wakes_a_waiter_on_another(servers, redis_server):
    redis = {"CRIBBAGE_REDIS_URL": redis_server.url + "/0"}
    acting, waiting = servers(redis), servers(redis)
    game_id, token = new_game(acting)
    waiter = open_long_poll(waiting, game_id, "127.0.0.1")
    time.sleep(0.5)
    cut(acting, game_id, token)
    started = time.monotonic()
    status, body = read_reply(waiter)
    assert status == 200 and [e["type"] for e in body["events"]] == ["dealer_cut"]
    assert body["state"]["to_act"] == [1]
    assert time.monotonic() - started < 5.0  # pushed: a 25 s wait returns at once


def test_slow_senders_are_cut_off_and_the_server_keeps_answering(servers):
    server = servers({"CRIBBAGE_READ_TIMEOUT": "2"})
    slow_heads = []
    for n in range(40):
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=20,
                                        source_address=(f"127.0.0.{2 + n % 2}", 0))
        sock.sendall(b"GET /v1/ping HTTP/1.1\r\nHost: test\r\n")  # the head never ends
        slow_heads.append(sock)
    slow_body = socket.create_connection(("127.0.0.1", server.port), timeout=20)
    slow_body.sendall(b"POST /v1/show/score HTTP/1.1\r\nHost: test\r\n"
                      b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"hand\"")
    assert server.request("GET", "/v1/ping", timeout=5)[0] == 200
    started = time.monotonic()
    for sock in slow_heads:
        assert sock.recv(65536) == b""  # closed by the server, with nothing said
        sock.close()
    refused = b""
    while chunk := slow_body.recv(65536):
        refused += chunk
    slow_body.close()
    assert refused.upper().startswith(b"HTTP/1.1 408 REQUEST TIMEOUT\r\n")
    assert b'"code": "request_timeout"' in refused
    # keepalive (5 s) bounds a head, CRIBBAGE_READ_TIMEOUT (2 s) a stalled body.
    assert time.monotonic() - started < 10.0
    assert server.request("GET", "/v1/ping", timeout=5)[0] == 200


def trickle(sock: socket.socket, pieces: list[bytes], stop: threading.Event) -> None:
    """Send a piece a second until `stop` is set or the server closes the connection."""
    for piece in pieces:
        if stop.wait(1.0):
            return
        try:
            sock.sendall(piece)
        except OSError:
            return


def read_until_closed(sock: socket.socket) -> bytes:
    raw = b""
    try:
        while chunk := sock.recv(65536):
            raw += chunk
    except ConnectionResetError:  # closed with some of what was sent unread: after its answer
        pass
    return raw


@pytest.mark.parametrize("framing, piece", [(b"Content-Length: 10", b" "),
                                            (b"Transfer-Encoding: chunked", b"1\r\n \r\n")],
                         ids=["sized", "chunked"])
def test_a_body_trickling_in_is_cut_off_at_the_body_deadline(servers, framing, piece):
    """A byte a second keeps every read making progress (CRIBBAGE_READ_TIMEOUT: 30 s), and the
    body would take 10 s: the body's deadline (3 s) answers first."""
    server = servers({"CRIBBAGE_BODY_SECONDS": "3"})
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=20)
    sock.sendall(b"POST /v1/show/score HTTP/1.1\r\nHost: test\r\n"
                 b"Content-Type: application/json\r\n" + framing + b"\r\n\r\n")
    stop = threading.Event()
    sender = threading.Thread(target=trickle, args=(sock, [piece] * 10, stop))
    sender.start()
    raw = read_until_closed(sock)
    stop.set()
    sender.join()
    sock.close()
    head, _, body = raw.partition(b"\r\n\r\n")
    assert head.split(b"\r\n")[0] == b"HTTP/1.1 408 REQUEST TIMEOUT"
    assert b"\r\nConnection: close\r\n" in head
    assert json.loads(body) == TOO_SLOW
    assert server.request("GET", "/v1/ping", timeout=5)[0] == 200


def read_until(sock: socket.socket, wanted: bytes) -> bytes:
    raw = b""
    while wanted not in raw:
        chunk = sock.recv(65536)
        assert chunk, f"closed before {wanted!r}: {raw!r}"
        raw += chunk
    return raw


def test_a_stream_and_a_long_poll_outlive_the_body_deadline(servers):
    """Only the reading of a request's body is bounded, not how long its answer takes: a stream
    goes on past the deadline (1 s) until it ends by itself (CRIBBAGE_STREAM_SECONDS: 4 s)."""
    server = servers({"CRIBBAGE_BODY_SECONDS": "1", "CRIBBAGE_STREAM_SECONDS": "4"})
    game_id, token = new_game(server)
    stream = socket.create_connection(("127.0.0.1", server.port), timeout=20)
    stream.sendall(f"GET /v1/games/{game_id}/stream HTTP/1.1\r\nHost: test\r\n"
                   f"Connection: close\r\n\r\n".encode())
    received = read_until(stream, b"event: snapshot")
    waiter = open_long_poll(server, game_id, "127.0.0.1")
    time.sleep(2.5)  # well past the deadline
    cut(server, game_id, token)
    status, body = read_reply(waiter)
    assert status == 200 and [e["type"] for e in body["events"]] == ["dealer_cut"]
    received += read_until_closed(stream)
    stream.close()
    assert b'"type":"dealer_cut"' in received
    assert received.endswith(b"\r\n0\r\n\r\n")  # its last chunk: ended, not cut


def test_one_client_address_holds_a_bounded_number_of_connections(servers):
    server = servers({"CRIBBAGE_MAX_CONNECTIONS_PER_CLIENT": "3"})
    held = [socket.create_connection(("127.0.0.1", server.port), timeout=10) for _ in range(3)]
    time.sleep(0.3)
    extra = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    raw = b""
    while chunk := extra.recv(65536):
        raw += chunk
    head, _, body = raw.partition(b"\r\n\r\n")
    assert head.split(b"\r\n")[0] == b"HTTP/1.1 429 Too Many Requests"
    assert b"Retry-After: 5" in head
    assert json.loads(body)["code"] == "too_many_connections"
    other_address = socket.create_connection(("127.0.0.1", server.port), timeout=10,
                                             source_address=("127.0.0.2", 0))
    other_address.sendall(b"GET /v1/ping HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
    assert other_address.recv(65536).startswith(b"HTTP/1.1 200")
    for sock in [*held, extra, other_address]:
        sock.close()


def test_a_request_too_large_to_read_gets_a_problem_not_an_html_page(servers):
    server = servers({})
    for request, status, code in [
            (f"GET /v1/games/{'x' * 5000} HTTP/1.1\r\nHost: test\r\n\r\n", 414, "uri_too_long"),
            ("GET /v1/ping HTTP/1.1\r\nHost: test\r\n" + "X-Filler: y\r\n" * 200 + "\r\n",
             431, "header_fields_too_large")]:
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        sock.sendall(request.encode())
        raw = b""
        while chunk := sock.recv(65536):
            raw += chunk
        sock.close()
        head, _, body = raw.partition(b"\r\n\r\n")
        assert head.split(b"\r\n")[0].split(b" ")[1] == str(status).encode()
        assert b"Content-Type: application/problem+json" in head
        assert json.loads(body)["code"] == code and json.loads(body)["status"] == status
