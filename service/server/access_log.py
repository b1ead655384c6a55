"""gunicorn's logger writing service/logs.py's JSON lines, in the error and the access log.

deploy/gunicorn.conf.py names it as `logger_class`.
"""
from __future__ import annotations

from gunicorn.glogging import Logger

from service.logs import AccessJsonFormatter, JsonFormatter


class JsonLogger(Logger):
    """The access line holds the path without its query string and no request header, so
    neither a seat token (Authorization) nor anything a client put in a query string reaches
    the log."""

    def setup(self, cfg) -> None:
        super().setup(cfg)
        for handler in self.error_log.handlers:
            handler.setFormatter(JsonFormatter())
        for handler in self.access_log.handlers:
            handler.setFormatter(AccessJsonFormatter())

    def access(self, resp, req, environ, request_time) -> None:
        if not self.cfg.accesslog:
            return
        method, path = environ.get("REQUEST_METHOD", "-"), environ.get("PATH_INFO", "-")
        self.access_log.info("%s %s %s", method, path, resp.status_code, extra={
            "log": "access",
            "remote": environ.get("REMOTE_ADDR", "-"),
            "method": method,
            "path": path,
            "status": resp.status_code,
            "bytes": getattr(resp, "sent", None),
            "duration_ms": round(request_time.total_seconds() * 1000, 3),
            "request_id": _request_id(resp.headers or ()),
        })


def _request_id(response_headers) -> str | None:
    # The app appends X-Request-ID last: searching from the end finds it at once.
    for name, value in reversed(response_headers):
        if name.lower() == "x-request-id":
            return value
    return None
