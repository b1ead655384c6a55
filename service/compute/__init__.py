"""The compute tier: every search runs in compute processes, never on a web worker's event loop.

`open_compute(settings)` builds the tier the settings name; `ComputeTier.run` runs a job of
`jobs.KINDS` there at a priority (`MOVE`, `ANALYSIS`, `BACKGROUND`).
"""
from __future__ import annotations

from service.config import Settings

from .budget import Counters, CpuBudget, MemoryCounters, RedisCounters
from .errors import ComputeBusy, ComputeRefused, ComputeUnavailable, CpuBudgetExhausted
from .jobs import ANALYSIS, BACKGROUND, MOVE
from .tier import ComputeTier
from .transport import Inline, Transport


def open_compute(settings: Settings) -> ComputeTier:
    """Inline, compute processes beside this web worker (local), or compute workers fed
    through Redis (redis), as CRIBBAGE_COMPUTE says."""
    bounds = {MOVE: settings.compute_queue_moves, ANALYSIS: settings.compute_queue_analyses,
              BACKGROUND: settings.compute_queue_analyses}
    transport: Transport
    if settings.compute == "local":
        from .local import LocalPool
        transport = LocalPool(settings.compute_processes, bounds)
    elif settings.compute == "redis":
        from .redis_queue import RedisJobQueue
        transport = RedisJobQueue(settings.redis_url, settings.redis_cluster, bounds)
    else:
        transport = Inline()
    counters: Counters
    if settings.uses_redis:
        from .redis_queue import connect
        counters = RedisCounters(lambda: connect(settings.redis_url, settings.redis_cluster,
                                                 read_timeout=2.0))
    else:
        counters = MemoryCounters()
    budget = CpuBudget(settings.analysis_cpu_ms_per_minute, counters)
    return ComputeTier(transport, budget, settings.compute_time_limit)


__all__ = ["ANALYSIS", "BACKGROUND", "MOVE", "ComputeBusy", "ComputeRefused", "ComputeTier",
           "ComputeUnavailable", "CpuBudget", "CpuBudgetExhausted", "open_compute"]
