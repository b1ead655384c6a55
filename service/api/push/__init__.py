"""Web Push over HTTP: the deployment's VAPID key, and a seat's or a player's subscriptions."""
from service.api.push.views import blp, init_app

__all__ = ["blp", "init_app"]
