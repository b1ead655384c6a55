"""Where the win models' big tables are kept beyond the process that built them.

A table for a far target takes seconds of CPU to build (a two-player position to 1000: 3-7 s),
and every compute process would otherwise build its own, once per target. A deployment puts a
shelf in place (service.compute.shelves: Redis, or a directory on one machine) and each table
is then built once for all its compute processes; without one, tables live only in the process
that built them, as before.

A shelf keeps bytes by name. A table's name carries a fingerprint of everything it is computed
from (the model data and the code that builds it), so a new version never reads an old
version's tables.
"""
from __future__ import annotations

import hashlib
import io
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

import numpy as np

log = logging.getLogger(__name__)

_BOTS = Path(__file__).parent
# What the tables are computed from, besides the model data: the builders and the rules they
# take the skunk lines and the team layouts from.
_SOURCES = ("win_probability.py", "side_race.py", "shelf.py", "../engine/rules.py")


class Shelf(Protocol):
    def get(self, name: str) -> bytes | None:
        """The bytes kept under `name`, or None."""

    def put(self, name: str, data: bytes) -> None:
        """Keep `data` under `name` (the shelf may drop it later to keep within its bound)."""


_shelves: list[Shelf] = []


def use(shelf: Shelf | None) -> None:
    """Keep this process's tables on `shelf` from now on (None: in this process only)."""
    _shelves[:] = [] if shelf is None else [shelf]


def _fingerprint() -> str:
    digest = hashlib.sha256()
    for path in [*(_BOTS / name for name in _SOURCES), *sorted((_BOTS / "data").iterdir())]:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


FINGERPRINT = _fingerprint()


def shelved(name: str, build: Callable[[], tuple[np.ndarray, ...]]) -> tuple[np.ndarray, ...]:
    """The arrays `build()` gives, read from the shelf when they are on it, else built and
    put there. A shelf that fails (unreachable, or bytes that do not read) is passed by: the
    table is built here."""
    if not _shelves:
        return build()
    shelf, key = _shelves[0], f"{name}-{FINGERPRINT}"
    try:
        data = shelf.get(key)
        if data is not None:
            with np.load(io.BytesIO(data)) as arrays:
                return tuple(arrays[f"arr_{index}"] for index in range(len(arrays.files)))
    except Exception as error:  # noqa: BLE001 - a shelf saves time, it never fails a search
        log.warning("table %s not read from the shelf: %s", key, error)
    arrays = build()
    buffer = io.BytesIO()
    np.savez(buffer, *arrays)
    try:
        shelf.put(key, buffer.getvalue())
    except Exception as error:  # noqa: BLE001
        log.warning("table %s not put on the shelf: %s", key, error)
    return arrays
