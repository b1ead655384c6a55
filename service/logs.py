"""The one JSON log line, for the service's own records and for gunicorn's.

Every line is one JSON object: time (UTC, milliseconds, Z), level, logger, pid, message, then
the record's `extra` fields (request_id, an access line's fields) and, after an error, its
traceback under `exception`.
"""
from __future__ import annotations

import json
import logging
import re
import time
from functools import partial

from pythonjsonlogger.json import JsonFormatter as _LibraryJsonFormatter

_FIELDS = "%(asctime)s %(levelname)s %(name)s %(process)s %(message)s"
_NAMES = {"asctime": "time", "levelname": "level", "name": "logger", "process": "pid",
          "exc_info": "exception"}
# A seat token logged by mistake (e.g. a header echoed in a message) is blanked.
_BEARER = re.compile(r"(Bearer\s+)\S+", re.IGNORECASE)


class JsonFormatter(_LibraryJsonFormatter):
    """python-json-logger's formatter with the service's field names and time format."""

    def __init__(self) -> None:
        super().__init__(_FIELDS, rename_fields=_NAMES,
                         json_serializer=partial(json.dumps, separators=(",", ":")))

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        return utc_timestamp(record.created)

    def process_log_record(self, log_data: dict) -> dict:
        log_data["level"] = log_data["level"].lower()
        log_data["message"] = _BEARER.sub(r"\1[redacted]", log_data["message"])
        return log_data


class AccessJsonFormatter(logging.Formatter):
    """gunicorn's access line: JsonFormatter's fields, then the line's own (`ACCESS_FIELDS`),
    put together directly. Every request writes one, and through the general formatter it
    cost a tenth of a long poll's whole request path."""

    def format(self, record: logging.LogRecord) -> str:
        line = {"time": utc_timestamp(record.created), "level": record.levelname.lower(),
                "logger": record.name, "pid": record.process,
                "message": _BEARER.sub(r"\1[redacted]", record.getMessage())}
        line.update((name, getattr(record, name, None)) for name in ACCESS_FIELDS)
        return json.dumps(line, separators=(",", ":"))


ACCESS_FIELDS = ("log", "remote", "method", "path", "status", "bytes", "duration_ms",
                 "request_id")


def utc_timestamp(seconds: float) -> str:
    """`seconds` since the epoch as e.g. 2024-05-01T12:00:00.123Z."""
    milliseconds = int(seconds * 1000) % 1000
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)) + f".{milliseconds:03d}Z"
