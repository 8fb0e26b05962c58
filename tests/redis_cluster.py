"""A real Redis Cluster of three masters on loopback, from the same redis-server binary."""

from __future__ import annotations

import random
import secrets
import socket
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import redis
from redis.crc import REDIS_CLUSTER_HASH_SLOTS

from service.process.redis_server import EmbeddedRedis

NODES = 3
# Redis 6.2 puts the cluster bus on port + 10000, so both ports must be free and valid.
BUS_OFFSET = 10_000


def bindable(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def cluster_ports(count: int) -> list[int]:
    ports: list[int] = []
    while len(ports) < count:
        port = random.randrange(20_000, 30_000)
        if port not in ports and bindable(port) and bindable(port + BUS_OFFSET):
            ports.append(port)
    return ports


def wait_for_cluster(clients: list[redis.Redis], timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        infos = [client.cluster("INFO") for client in clients]
        if all(
            info["cluster_state"] == "ok" and int(info["cluster_known_nodes"]) == NODES
            for info in infos
        ):
            return
        time.sleep(0.1)
    raise TimeoutError(f"cluster did not converge: {infos}")


@contextmanager
def redis_cluster(base: Path) -> Iterator[str]:
    """Start the cluster with its data under ``base``; yields the URL of one node."""
    ports = cluster_ports(NODES)
    password = secrets.token_urlsafe(16)  # one for all nodes: the client has one for all
    with ExitStack() as stack:
        servers = [
            stack.enter_context(
                EmbeddedRedis(
                    Path(base, f"node{index}"),
                    port=port,
                    password=password,
                    extra_config={
                        "cluster-enabled": "yes",
                        "cluster-config-file": "nodes.conf",
                        "cluster-node-timeout": "2000",
                    },
                )
            )
            for index, port in enumerate(ports)
        ]
        clients = [stack.enter_context(redis.Redis.from_url(s.url)) for s in servers]
        bounds = [REDIS_CLUSTER_HASH_SLOTS * i // NODES for i in range(NODES + 1)]
        for client, low, high in zip(clients, bounds, bounds[1:], strict=False):
            client.execute_command("CLUSTER ADDSLOTS", *range(low, high))
        for port in ports[1:]:
            clients[0].execute_command("CLUSTER MEET", "127.0.0.1", port)
        wait_for_cluster(clients)
        yield servers[0].url
