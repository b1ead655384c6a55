"""Leaderboards over HTTP: the best players of a format, per season and of all time."""
from service.api.leaderboards.views import blp, init_app

__all__ = ["blp", "init_app"]
