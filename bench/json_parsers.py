"""What parsing a request body costs the Python code that runs after it, by JSON library.

On Xeons with AVX-512, orjson.loads runs AVX-512 code, and for a while afterwards the core runs
everything else more slowly. This times a fixed piece of pure-Python work right after each call
(blocks of each kind in turn, many rounds, medians) and compares it with the same work after no
call at all. It also times each call alone. The request parser is `parse_json`
(service/api/blueprint.py); orjson.dumps, which the responses use, is measured too.

    python bench/json_parsers.py [--rounds 60]
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import timeit
from importlib.metadata import version
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from service.api.scoring import examples  # noqa: E402
from service.api.blueprint import parse_json  # noqa: E402

BODY = json.dumps(examples.SHOW_REQUEST).encode()
RESPONSE = examples.SHOW_RESPONSE
CALLS = {
    "nothing": lambda: None,
    "parse_json (json)": lambda: parse_json(BODY),
    "orjson.loads": lambda: orjson.loads(BODY),
    "orjson.dumps": lambda: orjson.dumps(RESPONSE),
}
BLOCK = 100


def python_work() -> int:
    """About 0.2 ms of interpreter work, touching nothing but small ints."""
    total = 0
    for i in range(3000):
        total += i * i % 7
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=60)
    args = parser.parse_args()
    after = {name: [] for name in CALLS}
    clock = time.perf_counter_ns
    for _ in range(args.rounds):
        for name, call in CALLS.items():
            for _ in range(BLOCK):
                call()
                started = clock()
                python_work()
                after[name].append(clock() - started)
    baseline = statistics.median(after["nothing"])
    print(f"orjson {version('orjson')}; the same Python work after each call, median of "
          f"{args.rounds * BLOCK}:")
    for name, times in after.items():
        alone = min(timeit.repeat(CALLS[name], number=10_000, repeat=5)) / 10_000
        median = statistics.median(times)
        print(f"{name:18s} call {alone * 1e6:5.2f} us   work after it {median / 1000:7.1f} us "
              f"({median / baseline - 1:+.1%})")


if __name__ == "__main__":
    main()
