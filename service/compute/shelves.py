"""The shelves a deployment keeps its built win-model tables on (service.bots.shelf), so that
each is built once for all its compute processes, not once per process.

- On Redis (CRIBBAGE_REDIS_URL set): one shelf for every compute process of the deployment, on
  whatever machine, in keys under one hash tag (one Cluster node holds them all).
- Otherwise (the embedded store: scripts/serve and its local compute processes, one machine): a
  directory, CRIBBAGE_TABLE_DIR or cribbage-tables-<uid> in the system's temporary directory.

Both are bounded: past CRIBBAGE_TABLE_SHELF_MB (64) in all, the tables used least recently are
dropped (a far target's take up to 22 MB; each of a game within the in-game reach, well under
one MB). 0 keeps no shelf: each compute process builds its own tables.
"""
from __future__ import annotations

import logging
import os
import tempfile
import time
from pathlib import Path

from service.config import Settings

from .redis_queue import connect

log = logging.getLogger(__name__)

INDEX = "cribbage:{tables}:used"    # name -> when last put or read
SIZES = "cribbage:{tables}:sizes"   # name -> bytes
TABLE = "cribbage:{tables}:table:"  # + name -> the table's bytes
READ_TIMEOUT = 10.0


class RedisShelf:
    def __init__(self, client, max_bytes: int) -> None:
        self.client = client
        self.max_bytes = max_bytes

    def get(self, name: str) -> bytes | None:
        data = self.client.get(TABLE + name)
        if data is not None:  # its last use; xx: not again if another process just dropped it
            self.client.zadd(INDEX, {name: time.time()}, xx=True)
        return data

    # Writes go in transactions (every key is in one slot): a table, its place in the index
    # and its size are there together or not at all, whatever other processes put or drop.
    def put(self, name: str, data: bytes) -> None:
        if len(data) > self.max_bytes:
            return
        pipeline = self.client.pipeline(transaction=True)
        pipeline.set(TABLE + name, data)
        pipeline.zadd(INDEX, {name: time.time()})
        pipeline.hset(SIZES, name, len(data))
        pipeline.execute()
        self._keep_within_bound()

    def _keep_within_bound(self) -> None:
        sizes = {name.decode(): int(size) for name, size in self.client.hgetall(SIZES).items()}
        total = sum(sizes.values())
        if total <= self.max_bytes:
            return
        pipeline = self.client.pipeline(transaction=True)
        for name in self.client.zrange(INDEX, 0, -1):  # the least recently used first
            if total <= self.max_bytes:
                break
            name = name.decode()
            pipeline.delete(TABLE + name)
            pipeline.zrem(INDEX, name)
            pipeline.hdel(SIZES, name)
            total -= sizes.get(name, 0)
        pipeline.execute()


class DirectoryShelf:
    def __init__(self, directory: str | os.PathLike, max_bytes: int) -> None:
        self.directory = Path(directory)
        self.max_bytes = max_bytes

    def get(self, name: str) -> bytes | None:
        path = self.directory / f"{name}.npz"
        try:
            data = path.read_bytes()
            _used(path)
        except FileNotFoundError:
            return None
        return data

    def put(self, name: str, data: bytes) -> None:
        if len(data) > self.max_bytes:
            return
        # Written aside and renamed: a reader sees a whole table or none, whoever writes.
        handle, part = tempfile.mkstemp(dir=self.directory, suffix=".part")
        try:
            with os.fdopen(handle, "wb") as file:
                file.write(data)
            os.replace(part, self.directory / f"{name}.npz")
        except BaseException:
            Path(part).unlink(missing_ok=True)
            raise
        _used(self.directory / f"{name}.npz")
        self._keep_within_bound()

    def _keep_within_bound(self) -> None:
        tables = []
        for path in self.directory.glob("*.npz"):
            try:
                stat = path.stat()
            except FileNotFoundError:  # dropped by another process meanwhile
                continue
            tables.append((stat.st_mtime, stat.st_size, path))
        total = sum(size for _, size, _ in tables)
        for _, size, path in sorted(tables):
            if total <= self.max_bytes:
                break
            path.unlink(missing_ok=True)
            total -= size


def _used(path: Path) -> None:
    """Mark the table used now, for the bound (to the nanosecond: a file's own times may be as
    coarse as the kernel's tick, and two uses within one would tie)."""
    now = time.time_ns()
    os.utime(path, ns=(now, now))


def default_directory() -> Path:
    return Path(tempfile.gettempdir()) / f"cribbage-tables-{os.getuid()}"


def _private(directory: Path) -> bool:
    """Made if missing; usable if this user owns it and nobody else may write in it (else
    another user of the machine could put tables there)."""
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    status = directory.stat()
    return status.st_uid == os.getuid() and not status.st_mode & 0o022


def shelf_for(settings: Settings) -> RedisShelf | DirectoryShelf | None:
    """The deployment's shelf, as its settings say (None: none)."""
    max_bytes = settings.table_shelf_mb * 2**20
    if not max_bytes:
        return None
    if settings.redis_url:
        client = connect(settings.redis_url, settings.redis_cluster, READ_TIMEOUT)
        return RedisShelf(client, max_bytes)
    directory = Path(settings.table_dir) if settings.table_dir else default_directory()
    if not _private(directory):
        log.warning("no table shelf: %s is not this user's alone", directory)
        return None
    return DirectoryShelf(directory, max_bytes)
