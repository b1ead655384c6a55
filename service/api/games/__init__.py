"""Games over HTTP: create, join, read, act and follow the events."""
from service.api.games.views import blp, init_app

__all__ = ["blp", "init_app"]
