"""Webhooks: the time from a game's save to its delivery, and what webhooks add to a save.

Starts a redis-server and a receiver on loopback (plain HTTP, answering 204). Two figures, on
Redis and on the embedded store:

- save: the store's save of a real game record with no webhook (the save every game makes),
  then with one webhook (the turn notification built and queued in the same script as the
  save), p50 and p99 over `--saves` saves each, interleaved;
- delivery: one delivery worker (the one each server process runs) drains the queue while
  `--deliveries` saves are made one after another (each `--gap` seconds apart); the latency
  is from just before the save to the receiver's reading of the POST, p50 and p99;
- beside a receiver that never answers (issue 26): one game's 10 webhooks point at a receiver
  that accepts connections and never answers, another game's one at the receiver above; each
  of `--rounds` rounds saves the first game (10 deliveries), waits until the silent receiver
  holds as many connections as a destination may have, then saves the other game: its
  delivery's latency, p50 and the worst, and the most connections the silent receiver held.

    python bench/webhooks.py [--saves 2000] [--deliveries 300] [--gap 0.01] [--rounds 20]
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
import time
from pathlib import Path
from statistics import median, quantiles

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from service.games import Games, GameTable  # noqa: E402
from service.games.record import GameRecord  # noqa: E402
from service.store import MemoryGameStore, RedisGameStore  # noqa: E402
from service.webhooks import notifications  # noqa: E402
from service.webhooks.delivery import Bounds, DeliveryWorker, RetryPolicy  # noqa: E402
from service.webhooks.model import MAX_PER_GAME, Webhook  # noqa: E402
from service.webhooks.sender import SendPolicy  # noqa: E402
from tests.redis_servers import RedisServer  # noqa: E402
from tests.webhooks.receiver import Receiver, SilentReceiver  # noqa: E402

HUMAN = {"kind": "human"}
SECRET = "a-secret-of-thirty-two-characters"


def percentiles(samples: list[float]) -> str:
    cuts = quantiles(samples, n=100)
    return f"p50 {cuts[49] * 1000:7.3f} ms   p99 {cuts[98] * 1000:7.3f} ms"


def a_game(store) -> tuple[str, str]:
    """A real game's id and record (two humans, after the opening)."""
    access = Games(GameTable(store)).create([HUMAN, HUMAN], {})
    return access.game.game_id, store.load(access.game.game_id).data


def entries(webhooks: list[Webhook], game_id: str, version: int) -> list[str]:
    """A turn notification's queue entries, one for each of `webhooks`."""
    found = notifications.notifications(
        game_id, version, notifications.Turn((version % 2,), "play"), None, None, [])
    return notifications.outbox(found, webhooks, [], f"game:{game_id}", time.time())


def bench_saves(store, saves: int, webhook: Webhook) -> None:
    game_id, data = a_game(store)
    version = store.load(game_id).version
    plain, notified = [], []
    for number in range(saves):
        started = time.perf_counter()
        outbox = entries([webhook], game_id, version) if number % 2 else []  # built, queued
        version = store.save(game_id, version, data, ['{"type":"go","seat":0}'], outbox=outbox)
        (notified if outbox else plain).append(time.perf_counter() - started)
    print(f"  save without webhooks   {percentiles(plain)}")
    print(f"  save with one webhook   {percentiles(notified)}")
    while taken := store.take_entries("drain", 500, time.time(), 3600):
        for queued in taken:
            store.finish_entry(queued.entry_id)


def bench_deliveries(store, deliveries: int, gap: float, receiver: Receiver) -> None:
    webhook = Webhook("wh_bench", receiver.url(), SECRET,
                      ("turn",), time.time())
    game_id, data = a_game(store)
    record = GameRecord.from_json(data)
    version = store.load(game_id).version
    worker = DeliveryWorker(store, lambda key: None, SendPolicy(allow_private=True),
                            RetryPolicy())
    worker.start()
    sent_at: dict[int, float] = {}
    try:
        for _ in range(deliveries):
            sent_at[version + 1] = time.perf_counter()
            version = store.save(game_id, version, record.to_json(),
                                 outbox=entries([webhook], game_id, version + 1))
            time.sleep(gap)
        receiver.wait_for(lambda: len(receiver.received) >= deliveries, timeout=60)
    finally:
        worker.stop()
    latencies = [arrived - sent_at[json.loads(body)["data"]["version"]]
                 for arrived, body in receiver.arrivals]
    print(f"  save to delivery        {percentiles(latencies)}   ({len(latencies)} delivered)")


def bench_beside_a_silent_receiver(store, rounds: int) -> None:
    stalled_id, stalled_data = a_game(store)
    other_id, other_data = a_game(store)
    stalled_version, other_version = store.load(stalled_id).version, store.load(other_id).version
    per_destination = Bounds().per_destination
    latencies = []
    with SilentReceiver() as silent, Receiver() as receiver:
        stalled = [Webhook(f"wh_stalled_{number}", silent.url(), SECRET, ("turn",), time.time())
                   for number in range(MAX_PER_GAME)]
        other = Webhook("wh_other", receiver.url(), SECRET, ("turn",), time.time())
        worker = DeliveryWorker(store, lambda key: None, SendPolicy(allow_private=True),
                                RetryPolicy())
        worker.start()
        try:
            for number in range(rounds):
                stalled_version = store.save(
                    stalled_id, stalled_version, stalled_data,
                    outbox=entries(stalled, stalled_id, stalled_version + 1))
                if not silent.wait_for(lambda: silent.open == per_destination):
                    raise SystemExit("the silent receiver's destination is not saturated")
                started = time.perf_counter()
                other_version = store.save(other_id, other_version, other_data,
                                           outbox=entries([other], other_id, other_version + 1))
                if not receiver.wait_for(lambda: len(receiver.arrivals) > number, timeout=120):
                    raise SystemExit("the other game's delivery did not come within 120 s")
                latencies.append(receiver.arrivals[number][0] - started)
        finally:
            silent.close()
            worker.stop()
    print(f"  other game's delivery   p50 {median(latencies) * 1000:7.3f} ms   worst "
          f"{max(latencies) * 1000:7.3f} ms   ({rounds} rounds; the silent receiver held "
          f"{silent.most_open} connections at most)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--saves", type=int, default=2000)
    parser.add_argument("--deliveries", type=int, default=300)
    parser.add_argument("--gap", type=float, default=0.01)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    redis_server = RedisServer().start()
    try:
        backends = {
            "redis": lambda: RedisGameStore(redis_server.url, 3600,
                                            webhook_queue=secrets.token_hex(4)),
            "embedded": lambda: MemoryGameStore(3600),
        }
        for name, make_store in backends.items():
            print(name)
            store = make_store()
            with Receiver() as receiver:
                webhook = Webhook("wh_bench", receiver.url(), "s" * 32, ("turn",), time.time())
                bench_saves(store, args.saves, webhook)
                bench_deliveries(store, args.deliveries, args.gap, receiver)
            bench_beside_a_silent_receiver(store, args.rounds)
            store.close()
    finally:
        redis_server.remove()


if __name__ == "__main__":
    main()
