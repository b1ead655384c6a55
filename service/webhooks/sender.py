"""One webhook POST: to the address the SSRF guard checked, with short timeouts, no redirects
followed and no more of the answer read than RESPONSE_BYTES.

`read_timeout` bounds each wait for the receiver's next bytes (and the TLS handshake);
`answer_timeout` bounds the request and answer in all, so a receiver that answers a byte at a
time cannot hold one of the delivery worker's places (and the deliveries waiting for it) for
hours.
"""

from __future__ import annotations

import http.client
import socket
import ssl
import threading
from dataclasses import dataclass

from . import addresses

RESPONSE_BYTES = 4096
USER_AGENT = "cribbage-webhooks/1"


@dataclass(frozen=True)
class SendPolicy:
    allow_private: bool = False
    ca_file: str = ""              # trust these CAs instead of the system's (tests)
    connect_timeout: float = 3.0
    read_timeout: float = 5.0
    answer_timeout: float = 10.0   # the request and the answer in all, once connected


@dataclass(frozen=True)
class Outcome:
    status: int | None = None      # the receiver's answer, if one came
    error: str | None = None       # why none came, or why the URL was refused

    @property
    def delivered(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


def post(url: str, body: bytes, headers: dict[str, str], policy: SendPolicy) -> Outcome:
    try:
        target = addresses.check(url, policy.allow_private)
    except ValueError as refused:
        return Outcome(error=f"refused: {refused}")
    try:
        connection = _connect(target, policy)
    except (OSError, ssl.SSLError) as failed:
        return Outcome(error=f"connect: {type(failed).__name__}: {failed}"[:300])
    cut_off = _CutOff(connection.sock, policy.answer_timeout)
    try:
        connection.request("POST", target.path, body, {
            "Content-Type": "application/json", **headers, "User-Agent": USER_AGENT})
        response = connection.getresponse()
        response.read(RESPONSE_BYTES)
        return Outcome(status=response.status)
    except (OSError, ValueError, http.client.HTTPException) as failed:
        if cut_off.fired:
            return Outcome(error=f"send: no answer within {policy.answer_timeout:g} s")
        return Outcome(error=f"send: {type(failed).__name__}: {failed}"[:300])
    finally:
        cut_off.cancel()
        connection.close()


class _CutOff:
    """Ends an exchange that takes more than `seconds` in all, however slowly the receiver
    trickles its bytes: shuts the socket, so the read waiting on it returns at once."""

    def __init__(self, sock: socket.socket, seconds: float):
        self.sock = sock
        self.fired = False
        self._timer = threading.Timer(seconds, self._fire)
        self._timer.start()

    def _fire(self) -> None:
        self.fired = True
        try:
            socket.socket.shutdown(self.sock, socket.SHUT_RDWR)  # under any TLS layer
        except OSError:
            pass  # closed meanwhile

    def cancel(self) -> None:
        self._timer.cancel()


def _connect(target: addresses.Target, policy: SendPolicy) -> http.client.HTTPConnection:
    """A connection to a checked address; TLS verifies the certificate for the URL's host."""
    sock = _first_answering(target, policy.connect_timeout)
    sock.settimeout(policy.read_timeout)
    connection = http.client.HTTPConnection(target.host, target.port,
                                            timeout=policy.read_timeout)
    if target.scheme == "https":
        context = ssl.create_default_context(cafile=policy.ca_file or None)
        try:
            sock = context.wrap_socket(sock, server_hostname=target.host)
        except BaseException:
            sock.close()
            raise
    connection.sock = sock
    return connection


def _first_answering(target: addresses.Target, timeout: float) -> socket.socket:
    failure: OSError = OSError(f"{target.host} has no address")
    for address in target.addresses:
        try:
            return socket.create_connection((address, target.port), timeout)
        except OSError as failed:
            failure = failed
    raise failure
