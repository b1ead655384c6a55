"""Pictures per second: a show and a 121-hole board as SVG, drawn alone and answered by the app
in-process (Flask's test client: routing, the query schema, the words, no network).

    python bench/pictures.py [--seconds 2]
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from service.api import create_app  # noqa: E402
from service.cards import parse_cards  # noqa: E402
from service.config import Settings  # noqa: E402
from service.drawing import ShowWords, Side, board_svg, show_svg  # noqa: E402

SHOW_URL = "/v1/show/image.svg?hand=5H,5S,6D,4C&starter=JH"
BOARD_URL = "/v1/board/image.svg?scores=45,38&previous=37,30&names=Ana,Bea"


def rate(work, seconds: float) -> float:
    """Calls of `work` per second, over about `seconds`."""
    done, started = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - started) < seconds:
        for _ in range(20):
            work()
        done += 20
    return done / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="per measurement")
    args = parser.parse_args()
    hand = parse_cards(["5H", "5S", "6D", "4C"], "hand")
    starter = parse_cards(["JH"], "starter")[0]
    words = ShowWords("Hand", "Starter", "points", ["fifteen 5H JH for 2"] * 8,
                      "fifteen two, fifteen four, fifteen six, fifteen eight and a double run "
                      "of three makes sixteen")
    sides = [Side("Ana", 45, 37), Side("Bea", 38, 30)]
    client = create_app({"SETTINGS": Settings(rate_limit_enabled=False)}).test_client()
    for url in (SHOW_URL, BOARD_URL):
        assert client.get(url).status_code == 200, url
    figures = {
        "show, drawn": rate(lambda: show_svg(hand, starter, 16, words), args.seconds),
        "board, drawn": rate(lambda: board_svg(sides, 121, "board"), args.seconds),
        "show, GET in-process": rate(lambda: client.get(SHOW_URL), args.seconds),
        "board, GET in-process": rate(lambda: client.get(BOARD_URL), args.seconds),
    }
    for name, per_second in figures.items():
        print(f"{name:24} {per_second:8.0f}/s  {1e6 / per_second:7.0f} µs each")


if __name__ == "__main__":
    main()
