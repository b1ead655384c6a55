"""Whether a Redis server takes writes that may grow its memory, judged from `INFO memory`."""

from __future__ import annotations

from collections.abc import Mapping


def has_room(memory: Mapping) -> bool:
    """True unless Redis refuses such writes: `maxmemory` set, the `noeviction` policy (any
    other evicts keys instead of refusing), and what Redis counts against the limit over it.
    Like Redis, do not count the replication and AOF buffers (`mem_not_counted_for_evict`)."""
    limit = int(memory.get("maxmemory", 0))
    if not limit or memory.get("maxmemory_policy") != "noeviction":
        return True
    counted = int(memory["used_memory"]) - int(memory.get("mem_not_counted_for_evict", 0))
    return counted <= limit
