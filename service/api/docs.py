"""Interactive API docs, served by this service with no CDN: Swagger UI 5 at /docs (from the
swagger-ui-bundle-v2 package) and ReDoc at /docs/redoc (vendored by scripts/vendor-redoc)."""

from __future__ import annotations

import json
from functools import cache
from importlib import metadata
from pathlib import Path

from flask import Blueprint, Flask, Response, abort, send_from_directory, url_for

blp = Blueprint("docs", __name__)

SWAGGER_UI_ASSETS = frozenset({
    "swagger-ui.css", "swagger-ui-bundle.js", "swagger-ui-standalone-preset.js",
    "favicon-32x32.png", "favicon-16x16.png",
})
REDOC_DIRECTORY = Path(__file__).parent / "static" / "redoc"
# The pages may load only what this service serves: a page that works here works offline.
CONTENT_SECURITY_POLICY = ("default-src 'self'; img-src 'self' data:; "
                           "style-src 'self' 'unsafe-inline'; script-src 'self'")
# ReDoc runs its search index in a worker it starts from a blob: URL made of its own code.
REDOC_POLICY = CONTENT_SECURITY_POLICY + "; worker-src 'self' blob:"

SWAGGER_UI_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Cribbage service API</title>
  <link rel="stylesheet" href="{css}">
  <link rel="icon" type="image/png" href="{icon}" sizes="32x32">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="{bundle}"></script>
  <script src="{preset}"></script>
  <script src="{init}"></script>
</body>
</html>
"""

SWAGGER_UI_INIT = """window.onload = function () {{
  window.ui = SwaggerUIBundle({{
    url: {spec_url},
    dom_id: "#swagger-ui",
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: "StandaloneLayout"
  }});
}};
"""

REDOC_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Cribbage service API reference</title>
  <link rel="icon" type="image/png" href="{icon}" sizes="32x32">
</head>
<body>
  <div id="redoc"></div>
  <script src="{bundle}"></script>
  <script src="{init}"></script>
</body>
</html>
"""

REDOC_INIT = """Redoc.init({spec_url}, {{hideDownloadButton: false, expandResponses: "200,201"}},
           document.getElementById("redoc"));
"""


def init_app(app: Flask) -> None:
    app.register_blueprint(blp)


@cache
def swagger_ui_directory() -> Path:
    """Swagger UI 5's files. Its package shares the import name swagger_ui_bundle with the old
    swagger-ui-bundle (Swagger UI 4) still in some environments, so find them by distribution."""
    for file in metadata.files("swagger-ui-bundle-v2") or ():
        if file.name == "swagger-ui-bundle.js":
            return Path(file.locate()).parent
    raise RuntimeError("swagger-ui-bundle-v2 is installed without swagger-ui-bundle.js")


@blp.route("/docs", methods=["GET"], strict_slashes=False)
def page() -> Response:
    html = SWAGGER_UI_PAGE.format(css=_asset("swagger-ui.css"), icon=_asset("favicon-32x32.png"),
                                  bundle=_asset("swagger-ui-bundle.js"),
                                  preset=_asset("swagger-ui-standalone-preset.js"),
                                  init=url_for("docs.initializer"))
    return _with_policy(Response(html, mimetype="text/html"))


@blp.route("/docs/init.js", methods=["GET"])
def initializer() -> Response:
    script = SWAGGER_UI_INIT.format(spec_url=_spec_url())
    return _with_policy(Response(script, mimetype="text/javascript"))


@blp.route("/docs/assets/<filename>", methods=["GET"])
def asset(filename: str) -> Response:
    if filename not in SWAGGER_UI_ASSETS:
        abort(404)
    return send_from_directory(swagger_ui_directory(), filename, max_age=86400)


@blp.route("/docs/redoc", methods=["GET"])
def redoc_page() -> Response:
    html = REDOC_PAGE.format(icon=_asset("favicon-32x32.png"),
                             bundle=url_for("docs.redoc_bundle"),
                             init=url_for("docs.redoc_initializer"))
    return _with_policy(Response(html, mimetype="text/html"), REDOC_POLICY)


@blp.route("/docs/redoc/init.js", methods=["GET"])
def redoc_initializer() -> Response:
    script = REDOC_INIT.format(spec_url=_spec_url())
    return _with_policy(Response(script, mimetype="text/javascript"), REDOC_POLICY)


@blp.route("/docs/redoc/redoc.standalone.js", methods=["GET"])
def redoc_bundle() -> Response:
    return send_from_directory(REDOC_DIRECTORY, "redoc.standalone.js", max_age=86400)


def _asset(name: str) -> str:
    return url_for("docs.asset", filename=name)


def _spec_url() -> str:
    return json.dumps(url_for("api-docs.openapi_json"))


def _with_policy(response: Response, policy: str = CONTENT_SECURITY_POLICY) -> Response:
    response.headers["Content-Security-Policy"] = policy
    response.headers["Cache-Control"] = "no-cache"
    return response
