"""Interactive API docs at /docs: Swagger UI served from the swagger-ui-bundle package, no CDN."""

from __future__ import annotations

import json

from flask import Blueprint, Flask, Response, abort, send_from_directory, url_for
from swagger_ui_bundle import swagger_ui_path

blp = Blueprint("docs", __name__)

ASSETS = frozenset({
    "swagger-ui.css", "swagger-ui-bundle.js", "swagger-ui-standalone-preset.js",
    "favicon-32x32.png", "favicon-16x16.png",
})
# The page may load only what this service serves: a page that works here works offline.
CONTENT_SECURITY_POLICY = ("default-src 'self'; img-src 'self' data:; "
                           "style-src 'self' 'unsafe-inline'; script-src 'self'")

PAGE = """<!DOCTYPE html>
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

INIT = """window.onload = function () {{
  window.ui = SwaggerUIBundle({{
    url: {spec_url},
    dom_id: "#swagger-ui",
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: "StandaloneLayout"
  }});
}};
"""


def init_app(app: Flask) -> None:
    app.register_blueprint(blp)


@blp.route("/docs", methods=["GET"], strict_slashes=False)
def page() -> Response:
    def asset(name: str) -> str:
        return url_for("docs.asset", filename=name)

    html = PAGE.format(css=asset("swagger-ui.css"), icon=asset("favicon-32x32.png"),
                       bundle=asset("swagger-ui-bundle.js"),
                       preset=asset("swagger-ui-standalone-preset.js"),
                       init=url_for("docs.initializer"))
    return _with_policy(Response(html, mimetype="text/html"))


@blp.route("/docs/init.js", methods=["GET"])
def initializer() -> Response:
    script = INIT.format(spec_url=json.dumps(url_for("api-docs.openapi_json")))
    return _with_policy(Response(script, mimetype="text/javascript"))


@blp.route("/docs/assets/<filename>", methods=["GET"])
def asset(filename: str) -> Response:
    if filename not in ASSETS:
        abort(404)
    return send_from_directory(swagger_ui_path, filename, max_age=86400)


def _with_policy(response: Response) -> Response:
    response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    response.headers["Cache-Control"] = "no-cache"
    return response
