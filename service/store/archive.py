"""A finished game's events as one compressed value: zlib over a JSON list of the events'
texts. A two-player game to 121 has ~230 events, 32-41 KB as text; packed, 4.5 KB, and about
1.5 ms to pack once when the game ends (bench/memory.py)."""

from __future__ import annotations

import json
import zlib
from collections.abc import Sequence


def pack(events: Sequence[str]) -> bytes:
    return zlib.compress(json.dumps(list(events), separators=(",", ":")).encode(), 9)


def unpack(archive: bytes) -> list[str]:
    return json.loads(zlib.decompress(archive))
