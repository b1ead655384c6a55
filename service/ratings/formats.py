"""The formats players are rated in: a game's layout, by its number of players and teams."""

from __future__ import annotations

from service.engine import GameOptions

# Players each for themselves, then the team layouts (GameOptions.teams).
FORMATS = ("2", "3", "4", "5", "6", "2x2", "3x2", "2x3")


def format_of(options: GameOptions) -> str:
    """The format a game with these options is rated in: "2".."6", or its teams ("2x2")."""
    return options.teams or str(options.players)
