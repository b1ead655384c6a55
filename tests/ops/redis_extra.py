"""Redis set-ups the fault runs need beyond tests/redis_servers.py: the production config
(deploy/redis.conf: AOF, noeviction) and a cluster of 3 masters with a replica each."""

from __future__ import annotations

import os
import pathlib
import signal
import subprocess
import time

from tests.redis_servers import CLUSTER_TIMEOUT, RedisServer

REDIS_CONF = pathlib.Path(__file__).resolve().parents[2] / "deploy" / "redis.conf"


class ConfiguredRedisServer(RedisServer):
    """redis-server started from deploy/redis.conf, on 127.0.0.1 only; keeps its AOF across
    stop() and start(), so a restart shows what the configuration keeps. `options` override the
    file's (e.g. "--appendfsync", "everysec"); `env` adds to the server's environment."""

    def __init__(self, *options: str, env: dict[str, str] | None = None):
        super().__init__()
        self.options = list(options)
        self.env = {**os.environ, **env} if env else None

    def start(self) -> ConfiguredRedisServer:
        args = ["redis-server", str(REDIS_CONF), "--bind", "127.0.0.1", "--protected-mode", "yes",
                "--port", str(self.port), "--dir", self.dir, "--maxmemory", "256mb",
                "--daemonize", "no", "--loglevel", "warning", "--logfile", "redis.log",
                *self.options]
        self.process = subprocess.Popen(args, cwd=self.dir, stdout=subprocess.DEVNULL,
                                        env=self.env)
        deadline = time.monotonic() + 10
        while self.cli("PING") != "PONG":
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"redis-server on {self.port} did not start; see {self.dir}")
            time.sleep(0.02)
        return self

    def crash(self) -> None:
        """SIGKILL: no final fsync, as when the machine dies."""
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGKILL)
            process.wait()


class ReplicatedCluster:
    """3 masters and 3 replicas (`--cluster-replicas 1`) on free loopback ports."""

    def __init__(self, masters: int = 3):
        self.nodes = [RedisServer(cluster=True) for _ in range(2 * masters)]

    @property
    def url(self) -> str:
        """A startup node for clients; crash_master() never picks it."""
        return self.nodes[0].url

    def start(self) -> ReplicatedCluster:
        try:
            for node in self.nodes:
                node.start()
            addresses = [f"127.0.0.1:{node.port}" for node in self.nodes]
            subprocess.run(["redis-cli", "--cluster", "create", *addresses,
                            "--cluster-replicas", "1", "--cluster-yes"],
                           check=True, capture_output=True, timeout=CLUSTER_TIMEOUT)
            self.wait_until_ok()
        except BaseException:
            self.remove()
            raise
        return self

    def alive(self) -> list[RedisServer]:
        return [node for node in self.nodes if node.process is not None]

    def roles(self) -> dict[int, str]:
        """port -> "master" or "slave", as the live nodes see it."""
        found = {}
        for line in self.alive()[0].cli("CLUSTER", "NODES").splitlines():
            fields = line.split()
            if "fail" in fields[2] or "noaddr" in fields[2]:
                continue
            port = int(fields[1].split(":")[1].split("@")[0])
            found[port] = "master" if "master" in fields[2] else "slave"
        return found

    def wait_until_ok(self, timeout: float = CLUSTER_TIMEOUT) -> float:
        """Seconds until every live node says cluster_state:ok."""
        started = time.monotonic()
        while not all("cluster_state:ok" in node.cli("CLUSTER", "INFO") for node in self.alive()):
            if time.monotonic() - started > timeout:
                raise RuntimeError("Redis Cluster did not reach cluster_state:ok")
            time.sleep(0.05)
        return time.monotonic() - started

    def wait_for_replicas(self, timeout: float = CLUSTER_TIMEOUT) -> None:
        deadline = time.monotonic() + timeout
        while True:
            links = [node.cli("INFO", "replication") for node in self.alive()]
            synced = sum("master_link_status:up" in info for info in links)
            if synced == len(self.nodes) // 2:
                return
            if time.monotonic() > deadline:
                raise RuntimeError("replicas did not sync")
            time.sleep(0.1)

    def crash_master(self) -> RedisServer:
        """SIGKILL one master (not the startup node); returns it."""
        roles = self.roles()
        victim = next(node for node in self.nodes[1:]
                      if node.process is not None and roles.get(node.port) == "master")
        process, victim.process = victim.process, None
        process.send_signal(signal.SIGKILL)
        process.wait()
        return victim

    def wait_for_failover(self, victim: RedisServer, timeout: float = CLUSTER_TIMEOUT) -> None:
        """Until the live nodes mark `victim` failed, a replica has taken its slots, and the
        cluster is ok again."""
        deadline = time.monotonic() + timeout
        while True:
            masters = [port for port, role in self.roles().items() if role == "master"]
            if victim.port not in masters and len(masters) == len(self.nodes) // 2:
                break
            if time.monotonic() > deadline:
                raise RuntimeError("no replica took over the failed master")
            time.sleep(0.1)
        self.wait_until_ok(max(deadline - time.monotonic(), 1.0))

    def remove(self) -> None:
        for node in self.nodes:
            node.remove()
