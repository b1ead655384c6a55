"""Messages between a web worker and its compute processes: a 4-byte length, then a pickle.

Pickle because jobs carry the domain's own values (game states, seat views, positions) and
both ends run the same code; only the service's own processes write to these pipes.
"""
from __future__ import annotations

import pickle
import struct
from typing import IO, Any

_LENGTH = struct.Struct(">I")


def write_message(stream: IO[bytes], message: Any) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_LENGTH.pack(len(data)) + data)
    stream.flush()


def read_message(stream: IO[bytes]) -> Any:
    """The next message; EOFError when the other end has gone."""
    head = _read_exactly(stream, _LENGTH.size)
    return pickle.loads(_read_exactly(stream, _LENGTH.unpack(head)[0]))


def _read_exactly(stream: IO[bytes], size: int) -> bytes:
    chunks, left = [], size
    while left:
        chunk = stream.read(left)
        if not chunk:
            raise EOFError("the other end closed the pipe")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)
