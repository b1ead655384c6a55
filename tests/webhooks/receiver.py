"""A real HTTP(S) receiver on loopback for the webhook tests, with its own signature check; one
that never answers; and a test CA made with the openssl command."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import socket
import ssl
import subprocess
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


@dataclass(frozen=True)
class Received:
    path: str
    headers: dict[str, str]
    body: bytes

    @property
    def payload(self) -> dict:
        return json.loads(self.body)

    @property
    def delivery_id(self) -> str:
        return self.headers["webhook-id"]


def verified(received: Received, key: bytes) -> bool:
    """The Standard Webhooks check a receiver makes, written from the specification: HMAC-SHA256
    with the key over "<webhook-id>.<webhook-timestamp>.<body>", one of the `v1,` signatures."""
    message = (f"{received.headers['webhook-id']}.{received.headers['webhook-timestamp']}."
               .encode() + received.body)
    expected = base64.b64encode(hmac.new(key, message, hashlib.sha256).digest()).decode()
    given = [part.split(",", 1)[1] for part in received.headers["webhook-signature"].split()
             if part.startswith("v1,")]
    return any(hmac.compare_digest(expected, signature) for signature in given)


class Receiver:
    """Answers each POST with the next of `statuses` (then 204), and keeps what came; while
    `holding` is set, it keeps each request waiting (a receiver that hangs)."""

    def __init__(self, statuses=(), tls: ssl.SSLContext | None = None):
        self.statuses = list(statuses)
        self.holding = threading.Event()
        self.held = 0          # requests that came while holding
        self.arrivals: list[tuple[float, bytes]] = []   # (perf_counter, body): for benches
        self.received: list[Received] = []
        self.arrived = threading.Condition()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                if receiver.holding.is_set():
                    with receiver.arrived:
                        receiver.held += 1
                        receiver.arrived.notify_all()
                    while receiver.holding.is_set():
                        threading.Event().wait(0.05)
                    return  # the sender is gone: nothing received
                with receiver.arrived:
                    receiver.received.append(Received(
                        self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                    receiver.arrivals.append((time.perf_counter(), body))
                    status = receiver.statuses.pop(0) if receiver.statuses else 204
                    receiver.arrived.notify_all()
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        if tls is not None:
            self.server.socket = tls.wrap_socket(self.server.socket, server_side=True)
        self.scheme = "https" if tls is not None else "http"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def wait_for(self, condition, timeout: float = 30.0) -> bool:
        """Wait until `condition()` holds; False if it does not within `timeout`."""
        with self.arrived:
            return self.arrived.wait_for(condition, timeout)

    def url(self, path: str = "/hook", host: str = "127.0.0.1") -> str:
        return f"{self.scheme}://{host}:{self.server.server_address[1]}{path}"

    def __enter__(self) -> Receiver:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()


def make_test_ca(directory: Path) -> tuple[Path, ssl.SSLContext]:
    """A CA of the test's own and a certificate it signs for localhost and 127.0.0.1: the CA
    file for the sender, and the receiver's TLS context."""
    def run(*args: str) -> None:
        subprocess.run(["openssl", *args], check=True, capture_output=True, cwd=directory)

    run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem",
        "-days", "1", "-subj", "/CN=cribbage test CA")
    run("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr",
        "-subj", "/CN=localhost")
    (directory / "san.ext").write_text("subjectAltName=DNS:localhost,IP:127.0.0.1\n")
    run("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
        "-CAcreateserial", "-out", "server.pem", "-days", "1", "-extfile", "san.ext")
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(directory / "server.pem", directory / "server.key")
    return directory / "ca.pem", context


class SilentReceiver:
    """Accepts every connection, reads what comes and never answers: a receiver that hangs
    with the connection open. `open` counts the connections held now, `most_open` the most
    held at once: a connection counts until its sender closes it, which a new connection's
    arrival checks first (a sender that closes one and then opens the next never counts two)."""

    def __init__(self):
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.most_open = 0
        self.changed = threading.Condition()
        self._open: set[socket.socket] = set()
        self._connections: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def open(self) -> int:
        return len(self._open)

    def url(self, path: str = "/hook", host: str = "127.0.0.1") -> str:
        return f"http://{host}:{self.listener.getsockname()[1]}{path}"

    def wait_for(self, condition, timeout: float = 30.0) -> bool:
        with self.changed:
            return self.changed.wait_for(condition, timeout)

    def _accept(self) -> None:
        while True:
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return  # closed
            with self.changed:
                self._open.difference_update([held for held in self._open if _ended(held)])
                self._connections.append(connection)
                self._open.add(connection)
                self.most_open = max(self.most_open, len(self._open))
                self.changed.notify_all()
            threading.Thread(target=self._hold, args=(connection,), daemon=True).start()

    def _hold(self, connection: socket.socket) -> None:
        try:
            while connection.recv(4096):
                pass  # the request, never answered
        except OSError:
            pass  # reset by the sender, or closed by close()
        with self.changed:
            self._open.discard(connection)
            self.changed.notify_all()

    def close(self) -> None:
        """Close the listener and every connection: a sender waiting on one fails at once."""
        try:
            self.listener.shutdown(socket.SHUT_RDWR)  # wakes accept(), which close() would not
        except OSError:
            pass  # closed already
        self.listener.close()
        with self.changed:
            for connection in self._connections:
                try:
                    connection.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass  # the sender closed it already
                connection.close()

    def __enter__(self) -> SilentReceiver:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _ended(connection: socket.socket) -> bool:
    """Whether the sender has closed the connection: what it sent is read, without waiting."""
    try:
        while connection.recv(4096, socket.MSG_DONTWAIT):
            pass
        return True
    except BlockingIOError:
        return False
    except OSError:
        return True
