"""Scoring over HTTP: a show, a claimed count, a pegging card, a whole play."""
from service.api.scoring.views import blp

__all__ = ["blp"]
