"""The golden show and pegging cases of tests/data/ (their format: tests/data/README.md)."""
from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

DATA = Path(__file__).parent / "data"


@dataclass(frozen=True)
class ShowCase:
    name: str
    hand: list[str]
    starter: str
    crib: bool
    total: int
    breakdown: list[dict] | None = None
    kinds: dict[str, dict[str, int]] | None = None
    summary: str | None = None


@dataclass(frozen=True)
class PeggingCase:
    name: str
    pile: list[str]
    count: int
    points: int
    breakdown: list[dict]
    summary: str | None = None


def _cases(file_name: str) -> list[dict]:
    return json.loads((DATA / file_name).read_text(encoding="utf-8"))["cases"]


SHOWS = [ShowCase(**case) for case in _cases("golden_shows.json")]
PEGGING = [PeggingCase(**case) for case in _cases("golden_pegging.json")]


def case_name(case: ShowCase | PeggingCase) -> str:
    """The test id of a golden case: its name."""
    return case.name


def kinds(items: Iterable[tuple[str, int]]) -> dict[str, dict[str, int]]:
    """{kind: {"items": how many, "points": their sum}} of (kind, points) pairs."""
    tally: dict[str, dict[str, int]] = {}
    for kind, points in items:
        entry = tally.setdefault(kind, {"items": 0, "points": 0})
        entry["items"] += 1
        entry["points"] += points
    return tally
