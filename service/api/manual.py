"""The documentation site at /docs/manual/: the pages `mkdocs build` writes from docs/, served
from the directory CRIBBAGE_DOCS_SITE names when it has been built, else a 404 problem."""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Flask, abort, current_app, redirect, send_from_directory
from werkzeug.security import safe_join
from werkzeug.wrappers import Response

blp = Blueprint("manual", __name__)

# Material's pages run a few inline scripts of their own; they load nothing from elsewhere.
MANUAL_POLICY = ("default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
                 "script-src 'self' 'unsafe-inline'")


def init_app(app: Flask) -> None:
    app.register_blueprint(blp)


@blp.route("/docs/manual/", methods=["GET"], defaults={"path": ""})
@blp.route("/docs/manual/<path:path>", methods=["GET"])
def page(path: str) -> Response:
    site = built_site()
    if site is None:
        abort(404)
    target = safe_join(str(site), path)
    if target is None:  # outside the site: "..", an absolute path, a drive
        abort(404)
    if Path(target).is_dir():
        if path and not path.endswith("/"):  # a page's own links are relative to its folder
            return redirect(f"/docs/manual/{path}/", 308)
        path = f"{path}index.html"
    response = send_from_directory(site, path, max_age=0)
    response.headers["Content-Security-Policy"] = MANUAL_POLICY
    response.headers["Cache-Control"] = "no-cache"
    return response


def built_site() -> Path | None:
    """The site's directory, or None when no site has been built there."""
    directory = current_app.config["SETTINGS"].docs_site
    if not directory or not (Path(directory) / "index.html").is_file():
        return None
    return Path(directory)
