"""The one JSON log line, shared by the service and gunicorn."""
import json
import logging
import os
import sys

from service.logs import JsonFormatter, utc_timestamp


def record(message, *args, exc_info=None, **extra):
    made = logging.LogRecord("service.games", logging.WARNING, __file__, 1, message, args,
                             exc_info)
    made.created = 1714564800.1239  # 2024-05-01T12:00:00.123Z
    vars(made).update(extra)
    return made


def test_a_line_leads_with_time_level_logger_pid_and_message_then_the_extra_fields():
    line = json.loads(JsonFormatter().format(record("game %s saved", "g1", game_id="g1")))
    assert line == {"time": "2024-05-01T12:00:00.123Z", "level": "warning",
                    "logger": "service.games", "pid": os.getpid(), "message": "game g1 saved",
                    "game_id": "g1"}
    assert list(line) == ["time", "level", "logger", "pid", "message", "game_id"]


def test_a_line_is_one_compact_line_even_with_a_newline_in_the_message():
    text = JsonFormatter().format(record("two\nlines"))
    assert "\n" not in text and ", " not in text


def test_bearer_tokens_in_a_message_are_blanked():
    line = json.loads(JsonFormatter().format(record("header was %s", "Bearer s3cr3t-token")))
    assert line["message"] == "header was Bearer [redacted]"


def test_an_errors_traceback_comes_under_exception():
    try:
        raise ValueError("bad hand")
    except ValueError:
        line = json.loads(JsonFormatter().format(record("failed", exc_info=sys.exc_info())))
    assert list(line) == ["time", "level", "logger", "pid", "message", "exception"]
    assert line["exception"].startswith("Traceback (most recent call last):")
    assert line["exception"].endswith("ValueError: bad hand")


def test_times_are_utc_with_milliseconds_and_z():
    assert utc_timestamp(0) == "1970-01-01T00:00:00.000Z"
    assert utc_timestamp(1714564800.9999) == "2024-05-01T12:00:00.999Z"
