"""Response examples of the leaderboards operation (a test validates each one)."""

from service.api.players.examples import PLAYER_ID

BOARD = {
    "format": "2", "season": "2027-01",
    "places": [
        {"place": 1, "player_id": "Y2FyYm9uYXJhIQ", "name": "Bea", "rating": 1412},
        {"place": 2, "player_id": PLAYER_ID, "name": "Ana", "rating": 1288},
    ],
}
