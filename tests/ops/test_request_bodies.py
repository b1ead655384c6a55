"""Chunked request bodies under the real server: up to 64 KiB read whole, over it a 413 (not a
body cut at the limit), and a request pipelined after either is still answered; a malformed one
a 400, after which the connection closes."""

from __future__ import annotations

import json
import socket

import pytest

from tests.ops.gunicorn_server import GunicornServer

SHOW = b'{"hand": ["5H", "5D", "5S", "JC"], "starter": "5C"}'
PING = b"GET /v1/ping HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n"
TOO_LARGE = {"type": "urn:cribbage:problem:payload_too_large", "title": "Payload too large",
             "status": 413, "detail": "The request body is larger than 65536 bytes",
             "code": "payload_too_large"}
UNREADABLE = {"type": "urn:cribbage:problem:bad_request", "title": "Bad request", "status": 400,
              "detail": "The request cannot be read", "code": "bad_request"}
CHUNKED_HEAD = (b"POST /v1/show/score HTTP/1.1\r\nHost: test\r\n"
                b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    started = GunicornServer({"CRIBBAGE_RATE_LIMIT_ENABLED": "0"}, workers=1, threads=None,
                             log_dir=tmp_path_factory.mktemp("gunicorn")).start()
    yield started
    started.stop()


def chunked(body: bytes, chunk: int) -> bytes:
    parts = [body[i:i + chunk] for i in range(0, len(body), chunk)]
    return b"".join(b"%x\r\n%s\r\n" % (len(part), part) for part in parts) + b"0\r\n\r\n"


def send(server: GunicornServer, data: bytes, *, then_end: bool = False) -> bytes:
    """Send `data` on one connection (`then_end`: and end the sending side); all the server
    answers until it closes the connection."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(data)
        if then_end:
            sock.shutdown(socket.SHUT_WR)
        raw = b""
        while chunk := sock.recv(65536):
            raw += chunk
    return raw


def responses(raw: bytes) -> list[tuple[int, dict]]:
    """Each response's status and JSON body."""
    found = []
    while raw:
        head, _, rest = raw.partition(b"\r\n\r\n")
        length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n")
                      if line.lower().startswith(b"content-length:"))
        found.append((int(head.split()[1]), json.loads(rest[:length])))
        raw = rest[length:]
    return found


def exchange(server: GunicornServer, data: bytes) -> list[tuple[int, dict]]:
    """Send `data` on one connection; each response's status and JSON body, until it closes."""
    return responses(send(server, data))


def post_chunked(size: int, chunk: int) -> bytes:
    return CHUNKED_HEAD + chunked(SHOW.ljust(size), chunk)


@pytest.mark.parametrize("chunk", [1000, 8192, 65536])
def test_a_chunked_body_of_64_kib_is_read_whole_and_the_next_request_answered(server, chunk):
    (status, body), ping = exchange(server, post_chunked(65536, chunk) + PING)
    assert (status, body["total"], ping) == (200, 29, (200, {"ok": True}))


@pytest.mark.parametrize("size, chunk", [(65537, 1000), (65537, 65536), (1_000_000, 8192)])
def test_a_chunked_body_over_64_kib_is_a_413_and_the_next_request_answered(server, size, chunk):
    assert exchange(server, post_chunked(size, chunk) + PING) == [
        (413, TOO_LARGE), (200, {"ok": True})]


@pytest.mark.parametrize("chunks", [b"zz\r\n", b"3;=\r\nabc\r\n0\r\n\r\n",
                                    b"5\r\nabcdeXX0\r\n\r\n"],
                         ids=["chunk size not hex", "malformed chunk extension",
                              "chunk not ended by CRLF"])
def test_a_malformed_chunked_body_is_a_400_and_the_connection_closes(server, chunks):
    """Where a next request would start is unknown: the one pipelined after is not answered."""
    raw = send(server, CHUNKED_HEAD + chunks + PING)
    assert responses(raw) == [(400, UNREADABLE)]
    assert b"\r\nConnection: close\r\n" in raw.partition(b"\r\n\r\n")[0]


def test_a_chunked_body_cut_short_is_a_400_and_the_connection_closes(server):
    raw = send(server, CHUNKED_HEAD + b"5\r\nabc", then_end=True)
    assert responses(raw) == [(400, UNREADABLE)]
    assert b"\r\nConnection: close\r\n" in raw.partition(b"\r\n\r\n")[0]
