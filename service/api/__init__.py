"""The Flask application: `create_app(config=None)` builds everything; nothing connects at import."""
from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Mapping

from flask import Flask
from flask_smorest import Api

from service.api import (analysis, compute, cors, docs, games, health, images, leaderboards,
                         limits, manual, observability, play, players, problems, push,
                         responses, scoring, seeks, webhooks)
from service.api.description import API_DESCRIPTION
from service.api.spec import Plugin
from service.api.blueprint import MAX_BODY_BYTES
from service.compute import open_compute
from service.config import Settings
from service.store import open_store
from service.store.timed import timed_store


class CribbageApi(Api):
    """flask-smorest's Api with our problem+json errors instead of its own error payloads."""

    ERROR_SCHEMA = problems.ProblemSchema
    DEFAULT_ERROR_RESPONSE_NAME = None  # each operation documents its own error responses

    def _register_error_handlers(self):
        problems.init_app(self._app)

    def _register_pagination_header(self):
        pass  # no operation paginates: no pagination header, no PaginationMetadata schema


def create_app(config: Mapping | None = None,
               clock: Callable[[], float] = time.time) -> Flask:
    """Build the app. `config` overrides Flask settings; `SETTINGS` (a Settings) overrides the
    environment, `GAME_STORE` the store the settings name (Redis when CRIBBAGE_REDIS_URL is
    set, else in memory), `COMPUTE` the compute tier they name (service.compute). `clock` tells the games the time (epoch seconds)."""
    app = Flask(__name__)
    app.config.update(
        API_TITLE="Cribbage service",
        API_VERSION="1.0.0",
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        MAX_CONTENT_LENGTH=MAX_BODY_BYTES,
        API_SPEC_OPTIONS={"info": {"description": API_DESCRIPTION},
            "servers": [{"url": "/", "description": "This service"}],
            "security": []},  # public, but for the games operations that name seatToken
    )
    app.config.update(config or {})
    settings = app.config.get("SETTINGS") or Settings.from_env()
    app.config["SETTINGS"] = settings
    logging.getLogger("service").setLevel(settings.log_level)
    observability.init_app(app)

    api = CribbageApi(app, spec_kwargs={"marshmallow_plugin": Plugin()})
    app.extensions["cribbage.api"] = api
    tier = app.config.get("COMPUTE") or open_compute(settings)
    compute.init_app(app, tier)  # before limits: its RateLimit headers extend theirs
    api.register_blueprint(health.blp)
    api.register_blueprint(scoring.blp)
    api.register_blueprint(analysis.blp)
    api.register_blueprint(images.blp)
    store = timed_store(app.config.get("GAME_STORE") or open_store(
        settings.redis_url, settings.redis_cluster, settings.game_ttl_seconds,
        settings.finished_game_ttl_seconds, settings.memory_max_games,
        settings.durability))
    games.init_app(app, api, store, clock, tier)
    api.register_blueprint(players.blp)
    leaderboards.init_app(app, api, store, clock)
    seeks.init_app(app, api)
    webhooks.init_app(app, api)
    push.init_app(app, api)
    docs.init_app(app)
    manual.init_app(app)
    play.init_app(app)
    responses.document_unreadable_requests(app)
    cors.init_app(app)  # before limits: a preflight is answered, not counted
    limits.init_app(app)  # last: it limits and documents the operations registered above
    compute.document(app)
    return app
