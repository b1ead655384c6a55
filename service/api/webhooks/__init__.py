"""Webhooks over HTTP: a game's (seat token) and a player's (player token)."""
from service.api.webhooks.views import blp, init_app

__all__ = ["blp", "init_app"]
