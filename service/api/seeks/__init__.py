"""Seeks over HTTP: ask for a game, wait to be paired, list the open seeks."""

from service.api.seeks.views import blp, init_app

__all__ = ["blp", "init_app"]
