"""Real redis-server processes on free loopback ports, for tests and benchmarks.

No mocks: a standalone server and a 3-master cluster are started from the `redis-server`
binary, each in its own temporary directory, and stopped (killed if need be) afterwards.
"""

from __future__ import annotations

import atexit
import shutil
import socket
import subprocess
import tempfile
import time

MISSING = (
    "redis-server is not installed; the store tests need a real Redis. "
    "Install it with `apt-get install -y redis-server` (bash .ci/run does this)."
)
START_TIMEOUT = 10.0
START_ATTEMPTS = 3
CLUSTER_TIMEOUT = 30.0


def require_redis() -> None:
    """Raise RuntimeError with an install hint when redis-server or redis-cli is missing."""
    if shutil.which("redis-server") is None or shutil.which("redis-cli") is None:
        raise RuntimeError(MISSING)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class RedisServer:
    """One redis-server on 127.0.0.1; `stop()` and `start()` again keep the same port."""

    def __init__(self, cluster: bool = False):
        require_redis()
        self.port = free_port()
        self.bus_port = free_port() if cluster else None
        self.cluster = cluster
        self.dir = tempfile.mkdtemp(prefix="redis-test-")
        self.process: subprocess.Popen | None = None
        self.started_once = False
        atexit.register(self.stop)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}"

    def start(self) -> "RedisServer":
        """Start the server; on its first start, a port another process took since free_port()
        chose it is replaced by a new one (a restart keeps its port)."""
        for _ in range(START_ATTEMPTS - 1):
            if self._launch():
                return self
            if self.started_once:
                break
            self.port = free_port()
            self.bus_port = free_port() if self.cluster else None
        if not self._launch():
            raise RuntimeError(f"redis-server on port {self.port} did not start; see {self.dir}")
        return self

    def _launch(self) -> bool:
        args = [
            "redis-server",
            "--bind", "127.0.0.1",
            "--port", str(self.port),
            "--dir", self.dir,
            "--save", "",
            "--appendonly", "no",
            "--daemonize", "no",
            "--loglevel", "warning",
            "--logfile", "redis.log",
        ]
        if self.cluster:
            args += [
                "--cluster-enabled", "yes",
                "--cluster-port", str(self.bus_port),
                "--cluster-config-file", "nodes.conf",
                "--cluster-node-timeout", "2000",
            ]
        self.process = subprocess.Popen(args, cwd=self.dir, stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + START_TIMEOUT
        while self.cli("PING") != "PONG":
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                return False
            time.sleep(0.02)
        self.started_once = True
        return True

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        process.terminate()
        try:
            process.wait(5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)

    def keep_every_write(self) -> None:
        """appendonly yes and appendfsync always, from when the first AOF is written: until then
        Redis keeps writes only in memory (and refuses SIGTERM)."""
        self.cli("CONFIG", "SET", "appendonly", "yes")
        self.cli("CONFIG", "SET", "appendfsync", "always")
        deadline = time.monotonic() + START_TIMEOUT
        while "aof_rewrite_in_progress:0" not in self.cli("INFO", "persistence") or \
                "aof_rewrite_scheduled:0" not in self.cli("INFO", "persistence"):
            if time.monotonic() > deadline:
                raise RuntimeError(f"redis-server on port {self.port} did not write its AOF")
            time.sleep(0.02)

    def cli(self, *command: str) -> str:
        done = subprocess.run(
            ["redis-cli", "-h", "127.0.0.1", "-p", str(self.port), *command],
            capture_output=True,
            text=True,
            timeout=10,
        )
        return done.stdout.strip()


def follow(replica: RedisServer, master: RedisServer) -> RedisServer:
    """Make the running `replica` a replica of `master`; return it once it has synced."""
    master.cli("CONFIG", "SET", "repl-diskless-sync-delay", "0")
    replica.cli("REPLICAOF", "127.0.0.1", str(master.port))
    deadline = time.monotonic() + START_TIMEOUT
    while "master_link_status:up" not in replica.cli("INFO", "replication"):
        if time.monotonic() > deadline:
            raise RuntimeError(f"redis-server on port {replica.port} did not sync")
        time.sleep(0.05)
    return replica


class RedisClusterServers:
    """Three cluster-enabled masters joined with `redis-cli --cluster create`, no replicas."""

    def __init__(self, masters: int = 3):
        self.nodes = [RedisServer(cluster=True) for _ in range(masters)]

    @property
    def url(self) -> str:
        return self.nodes[0].url

    def start(self) -> "RedisClusterServers":
        try:
            for node in self.nodes:
                node.start()
            addresses = [f"127.0.0.1:{node.port}" for node in self.nodes]
            subprocess.run(
                ["redis-cli", "--cluster", "create", *addresses,
                 "--cluster-replicas", "0", "--cluster-yes"],
                check=True,
                capture_output=True,
                timeout=CLUSTER_TIMEOUT,
            )
            self.wait_until_ok()
        except BaseException:
            self.remove()
            raise
        return self

    def wait_until_ok(self) -> None:
        deadline = time.monotonic() + CLUSTER_TIMEOUT
        while not all("cluster_state:ok" in node.cli("CLUSTER", "INFO") for node in self.nodes):
            if time.monotonic() > deadline:
                raise RuntimeError("Redis Cluster did not reach cluster_state:ok")
            time.sleep(0.1)

    def node_for(self, key: str) -> RedisServer:
        """The master that serves `key`'s hash slot."""
        slot = int(self.nodes[0].cli("CLUSTER", "KEYSLOT", key))
        for line in self.nodes[0].cli("CLUSTER", "NODES").splitlines():
            fields = line.split()
            port = int(fields[1].split(":")[1].split("@")[0])
            for span in fields[8:]:
                first, _, last = span.partition("-")
                if int(first) <= slot <= int(last or first):
                    return next(node for node in self.nodes if node.port == port)
        raise LookupError(f"no master serves slot {slot}")

    def remove(self) -> None:
        for node in self.nodes:
            node.remove()
