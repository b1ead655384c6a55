"""Chunked request bodies under the real server: up to 64 KiB read whole, over it a 413 (not a
body cut at the limit), and a request pipelined after either is still answered."""

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


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    started = GunicornServer({"CRIBBAGE_RATE_LIMIT_ENABLED": "0"}, workers=1, threads=None,
                             log_dir=tmp_path_factory.mktemp("gunicorn")).start()
    yield started
    started.stop()


def chunked(body: bytes, chunk: int) -> bytes:
    parts = [body[i:i + chunk] for i in range(0, len(body), chunk)]
    return b"".join(b"%x\r\n%s\r\n" % (len(part), part) for part in parts) + b"0\r\n\r\n"


def exchange(server: GunicornServer, data: bytes) -> list[tuple[int, dict]]:
    """Send `data` on one connection; each response's status and JSON body, until it closes."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(data)
        raw = b""
        while chunk := sock.recv(65536):
            raw += chunk
    responses = []
    while raw:
        head, _, rest = raw.partition(b"\r\n\r\n")
        length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n")
                      if line.lower().startswith(b"content-length:"))
        responses.append((int(head.split()[1]), json.loads(rest[:length])))
        raw = rest[length:]
    return responses


def post_chunked(size: int, chunk: int) -> bytes:
    return (b"POST /v1/show/score HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n" + chunked(SHOW.ljust(size), chunk))


@pytest.mark.parametrize("chunk", [1000, 8192, 65536])
def test_a_chunked_body_of_64_kib_is_read_whole_and_the_next_request_answered(server, chunk):
    (status, body), ping = exchange(server, post_chunked(65536, chunk) + PING)
    assert (status, body["total"], ping) == (200, 29, (200, {"ok": True}))


@pytest.mark.parametrize("size, chunk", [(65537, 1000), (65537, 65536), (1_000_000, 8192)])
def test_a_chunked_body_over_64_kib_is_a_413_and_the_next_request_answered(server, size, chunk):
    assert exchange(server, post_chunked(size, chunk) + PING) == [
        (413, TOO_LARGE), (200, {"ok": True})]
