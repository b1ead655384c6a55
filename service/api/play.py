"""The play page at /play: a static web client (plain JS modules, no build step, no CDN) with
which a person plays a game against a computer level through the public API and the event
stream. Served under the docs' Content-Security-Policy: it loads only what this service serves,
runs no inline script and sets no inline style."""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Flask, Response, abort, send_from_directory

from service.api.docs import CONTENT_SECURITY_POLICY
from service.api.messages import PLAY_PAGE_TEXTS
from service.api.responses import json_response

blp = Blueprint("play", __name__)

DIRECTORY = Path(__file__).parent / "static" / "play"
ASSETS = frozenset({"play.css", "play.js", "api.js", "stream.js", "cards.js", "texts.js",
                    "board.js", "table.js"})


def init_app(app: Flask) -> None:
    app.register_blueprint(blp)


@blp.route("/play", methods=["GET"], strict_slashes=False)
def page() -> Response:
    return _with_policy(send_from_directory(DIRECTORY, "index.html", max_age=0))


@blp.route("/play/texts.json", methods=["GET"])
def texts() -> Response:
    return _with_policy(json_response(PLAY_PAGE_TEXTS))


@blp.route("/play/<filename>", methods=["GET"])
def asset(filename: str) -> Response:
    if filename not in ASSETS:
        abort(404)
    return _with_policy(send_from_directory(DIRECTORY, filename, max_age=0))


def _with_policy(response: Response) -> Response:
    response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    response.headers["Cache-Control"] = "no-cache"
    return response
