"""Pictures over HTTP: a show and a pegging board as SVG, for apps, chats and docs."""
from service.api.images.views import blp

__all__ = ["blp"]
