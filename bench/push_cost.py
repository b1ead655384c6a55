"""What one Web Push message costs the delivery worker in CPU: the payload encrypted for a
subscription (RFC 8291) and the VAPID token signed (RFC 8292), as service.webhooks.push makes
them for every push delivery, without the network.

    python bench/push_cost.py [--messages 2000]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from service.webhooks import push
from tests.webhooks.push_device import Device

TURN = {"type": "turn", "timestamp": "2026-11-29T05:00:00.000Z",
        "data": {"game_id": "Qm9hcmRHYW1lcyEh", "seats": [0], "phase": "play", "version": 12,
                 "deadline": "2026-11-29T05:01:00.000Z"}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=2000)
    args = parser.parse_args()
    keys = Device().subscription("https://push.example/wp")["keys"]
    vapid = push.VapidKey.from_text(push.new_private_key_text(), "mailto:ops@cribbage.example")
    payload = json.dumps(TURN).encode()
    for _ in range(50):  # warm up
        push.request(vapid, "https://push.example/wp", keys["p256dh"], keys["auth"], payload,
                     "turn", "Qm9hcmRHYW1lcyEh")
    started = time.process_time()
    for _ in range(args.messages):
        push.request(vapid, "https://push.example/wp", keys["p256dh"], keys["auth"], payload,
                     "turn", "Qm9hcmRHYW1lcyEh")
    spent = time.process_time() - started
    print(f"{args.messages} push messages: {spent / args.messages * 1e3:.3f} ms of CPU each "
          f"(payload {len(payload)} bytes)")


if __name__ == "__main__":
    main()
