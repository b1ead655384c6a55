"""Faults under load, with figures: what clients saw during each fault and what the store kept.

Scenarios (tests/ops/faults.py; tests/ops/test_faults.py runs short versions as pass/fail):

- Redis (deploy/redis.conf: AOF, appendfsync always) stopped under load, started again
  `--outage` s later;
- Redis restarted under load: cleanly (SIGTERM), then killed (SIGKILL, no final fsync);
- one gunicorn worker SIGKILLed while serving;
- a Redis Cluster of 3 masters + 3 replicas losing a master (SIGKILL) until a replica takes over,
  with CRIBBAGE_DURABILITY none, then replica;
- Redis crashed `--kills` times (SIGSTOP, then SIGKILL) on a disk whose fsync is `--fsync-delays`
  ms slower (tests/ops/crashes.py), in the durable mode (appendfsync always,
  CRIBBAGE_DURABILITY=fsync) and with appendfsync everysec, for each delay: every crash's AOF
  is checked against what the clients had been told.

Two gunicorn servers (two workers each) share the store; `--clients` simulated players create
and play games, retrying a 503 or a broken connection after Retry-After with the same
Idempotency-Key. For each scenario: responses by status during the fault and after it, 503s
without Retry-After, the time from repair (or failover) to the next success, and, for every
acknowledged game, whether the store still has it whole and how many acknowledged actions it
lost. Everything listens on 127.0.0.1 and is stopped at the end of each scenario.

    python bench/faults.py [--clients 32] [--load 10] [--outage 5] [--kills 10]
                           [--fsync-delays 50,1500] [--only faults|crashes]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.ops import crashes, faults  # noqa: E402

CRASH_MODES = {"durable": ("always", "fsync"), "everysec": ("everysec", "none")}


def show(report: faults.Report, took: float) -> None:
    during = report.statuses(report.fault_at, report.healed_at)
    after = report.statuses(report.healed_at)
    unannounced = sum(1 for o in report.tally.outcomes if o.status == 503 and not o.retry_after)
    unexpected = {status: count for status, count in report.statuses().items()
                  if status not in (200, 201, 503)}
    recovery = report.first_success_after(report.healed_at)
    print(f"\n{report.name} ({took:.0f} s in all)")
    print(f"  fault lasted        {report.healed_at - report.fault_at:6.2f} s")
    print(f"  during the fault    {dict(sorted(during.items(), key=str))}")
    print(f"  after it            {dict(sorted(after.items(), key=str))}")
    print(f"  other than 2xx/503  {unexpected or 'none'} (None: connection broken)")
    print(f"  503 w/o Retry-After {unannounced}")
    print(f"  next success after  {recovery:.3f} s" if recovery is not None else
          "  next success after  never")
    acknowledged = report.notes.pop("games acknowledged", len(report.tally.acknowledged))
    print(f"  games               {acknowledged} acknowledged, "
          f"{report.games_checked} whole in the store, {report.games_missing} missing")
    print(f"  acknowledged actions lost  {report.actions_lost}")
    for name, value in report.notes.items():
        print(f"  {name + ':':22s}{value}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--load", type=float, default=10.0, help="seconds of load around a fault")
    parser.add_argument("--outage", type=float, default=5.0, help="seconds Redis stays down")
    parser.add_argument("--kills", type=int, default=10, help="crashes per crash run")
    parser.add_argument("--fsync-delays", default="50,1500",
                        help="milliseconds added to every fsync in the crash runs")
    parser.add_argument("--only", choices=("faults", "crashes"))
    args = parser.parse_args()
    half = args.load / 2
    fault_runs = [
        lambda: faults.redis_outage(args.clients, half, args.outage, half),
        lambda: faults.redis_restart(args.clients, half, half),
        lambda: faults.redis_restart(args.clients, half, half, crash=True),
        lambda: faults.worker_killed(args.clients, half, half),
        lambda: faults.cluster_master_lost(args.clients, half, args.load),
        lambda: faults.cluster_master_lost(args.clients, half, args.load, durability="replica"),
    ]
    crash_runs = [
        lambda delay=int(delay), mode=mode: crashes.redis_crashes(
            args.kills, *CRASH_MODES[mode], delay, args.clients, half)
        for delay in args.fsync_delays.split(",") for mode in CRASH_MODES
    ]
    runs = {"faults": fault_runs, "crashes": crash_runs, None: fault_runs + crash_runs}[args.only]
    for run in runs:
        started = time.monotonic()
        report = run()
        show(report, time.monotonic() - started)


if __name__ == "__main__":
    main()
