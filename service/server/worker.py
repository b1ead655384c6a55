"""The gunicorn worker: gevent, so that a client waiting for its turn costs a greenlet and a
socket, not a thread; plus what keeps slow or greedy clients from holding the server.

- A request's head must arrive within gunicorn's `keepalive` seconds (gunicorn's gevent worker
  already bounds every head read by it); every later read or write on the connection must make
  progress within CRIBBAGE_READ_TIMEOUT seconds (default 30: more than a stream's heartbeat
  interval, so a live stream never trips it), or the connection is closed.
- One client address holds at most `max_connections_per_client` connections per worker
  process (CRIBBAGE_MAX_CONNECTIONS_PER_CLIENT, 0 for no cap: behind a proxy every client
  shares its address); past that a new connection gets a 429 and is closed.
"""
from __future__ import annotations

import os
import resource
from collections import Counter

from gunicorn.workers.ggevent import GeventWorker

from service.config import parse_positive_int, parse_whole_number

_REFUSAL = (b'{"type":"urn:cribbage:problem:too_many_connections","title":"Too many '
            b'connections","status":429,"code":"too_many_connections"}')
TOO_MANY_CONNECTIONS = (
    b"HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/problem+json\r\n"
    b"Connection: close\r\nRetry-After: 5\r\nContent-Length: %d\r\n\r\n%s"
    % (len(_REFUSAL), _REFUSAL))


class CribbageWorker(GeventWorker):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.max_connections_per_client = parse_whole_number(
            os.environ, "CRIBBAGE_MAX_CONNECTIONS_PER_CLIENT", 64)
        self.read_timeout = parse_positive_int(os.environ, "CRIBBAGE_READ_TIMEOUT", 30)
        self.connections_by_client: Counter[str] = Counter()

    def init_process(self):
        # Thousands of waiting clients need as many file descriptors: take all the hard limit.
        _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        super().init_process()

    def handle(self, listener, client, addr):
        host = addr[0] if isinstance(addr, tuple) else str(addr)
        cap = self.max_connections_per_client
        if cap and self.connections_by_client[host] >= cap:
            try:
                client.sendall(TOO_MANY_CONNECTIONS)
            finally:
                client.close()
            return
        self.connections_by_client[host] += 1
        try:
            client.settimeout(self.read_timeout)
            # GeventWorker.handle would make the socket blocking again: skip to its parent.
            super(GeventWorker, self).handle(listener, client, addr)
        finally:
            self.connections_by_client[host] -= 1
            if not self.connections_by_client[host]:
                del self.connections_by_client[host]
