"""Players over HTTP: a player identity, and the games it sits in."""
from service.api.players.views import blp

__all__ = ["blp"]
