"""Computer players (one registry of levels) and the analysis they share with the API."""
from service.bots.players import DEFAULT_LEVEL, LEVELS, ComputerPlayer

__all__ = ["DEFAULT_LEVEL", "LEVELS", "ComputerPlayer"]
