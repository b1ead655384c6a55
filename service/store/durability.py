"""What a game write must reach before the service acknowledges it (CRIBBAGE_DURABILITY).

- `none`: Redis's reply. A crash keeps what the server's own settings keep.
- `fsync`: the server's disk. With `appendonly yes` and `appendfsync always`, Redis writes and
  fsyncs its AOF before it sends the replies of the same event-loop turn, so a reply means the
  write is on disk. Every new connection checks both settings with CONFIG GET and is refused
  when they differ or cannot be read: the store is then unavailable (503, /readyz failing)
  rather than acknowledging what a crash could lose. Connections opened before a CONFIG SET
  are not checked again, and AOF switched on at run time keeps writes in memory only until
  Redis has written its first AOF (seconds): start Redis with `appendonly yes`.
- `replica`: a replica's memory. After each game write, WAIT on the same connection until a
  replica has it. When none does in time the write stays on the master alone, and the request
  fails as unavailable with its outcome unknown: a retry with the same Idempotency-Key finds
  its record or applies it. A replayed record is confirmed the same way before it is returned.

WAITAOF (Redis >= 7.2) would prove each write on disk without reading the configuration; it
is not used because the Redis this project is tested with (7.0) does not have it.
"""

from __future__ import annotations

from collections.abc import Callable

from redis.exceptions import AskError, ConnectionError as RedisConnectionError, ResponseError

FSYNC_SETTINGS = {"appendonly": "yes", "appendfsync": "always"}
REPLICAS = 1
# Below the store's socket timeout, so a missing replica is a 503, not a broken connection.
REPLICA_TIMEOUT_MS = 1000


class NotDurable(RedisConnectionError):
    """The server cannot keep a write as CRIBBAGE_DURABILITY asks, or did not this time."""


def fsync_checked(cluster: bool) -> Callable:
    """A `redis_connect_func` for the fsync mode: the usual handshake, then check_fsync. (A
    Cluster client runs its own handshake before calling it.)"""

    def on_connect(connection) -> None:
        if not cluster:
            connection.on_connect()
        check_fsync(connection)

    return on_connect


def check_fsync(connection) -> None:
    """Raise NotDurable unless the server runs with appendonly yes and appendfsync always."""
    server = f"Redis at {getattr(connection, 'host', '?')}:{getattr(connection, 'port', '?')}"
    connection.send_command("CONFIG", "GET", "append*")
    try:
        reply = connection.read_response()
    except ResponseError as error:
        raise NotDurable(f"{server}: CRIBBAGE_DURABILITY=fsync cannot confirm appendfsync "
                         f"always: CONFIG GET refused ({error})") from error
    found = reply if isinstance(reply, dict) else dict(zip(reply[::2], reply[1::2]))
    if any(found.get(name) != wanted for name, wanted in FSYNC_SETTINGS.items()):
        raise NotDurable(f"{server} runs with appendonly {found.get('appendonly')}, "
                         f"appendfsync {found.get('appendfsync')}: CRIBBAGE_DURABILITY=fsync "
                         "needs appendonly yes and appendfsync always")


def replicated(node, queue: Callable) -> object:
    """The reply of what `queue(pipeline)` queues, run on one connection to `node` (a Redis
    client) followed by WAIT, once REPLICAS replicas have it; else NotDurable."""
    try:
        with node.pipeline(transaction=False) as pipeline:
            queue(pipeline)
            pipeline.execute_command("WAIT", REPLICAS, REPLICA_TIMEOUT_MS)
            reply, acknowledged = pipeline.execute()
    except AskError as moved:  # a Cluster slot changed hands: a failover is under way
        raise NotDurable(f"the game's slot moved: {moved}") from moved
    if acknowledged < REPLICAS:
        raise NotDurable(f"no replica acknowledged the write within {REPLICA_TIMEOUT_MS} ms; "
                         "it may or may not have been applied")
    return reply
