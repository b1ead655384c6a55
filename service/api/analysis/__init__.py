"""The coach over HTTP: every discard and every card to play, with exact expectations."""
from service.api.analysis.views import blp

__all__ = ["blp"]
