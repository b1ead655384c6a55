"""Request and response examples of the seeks operations (a test validates each one)."""

from service.api.games.examples import GAME_ID
from service.api.players.examples import PLAYER_ID

SEEK_ID = "3f2a9c0d51e7Zk4Qm8PfR2sT6vXy"
CREATE_REQUEST = {"players": 2, "teams": None, "options": {"target": 121}, "rated": True,
                  "rating_range": 200, "computers": {"level": "hard", "after": 60}}
OPEN = {
    "seek_id": SEEK_ID, "status": "open", "player_id": PLAYER_ID, "name": "Ana", "players": 2,
    "teams": None, "options": {"target": 121}, "rated": True, "rating": 1000,
    "rating_range": 200, "computers": {"level": "hard", "after": 60},
    "created_at": "2027-01-15T08:15:40.000Z", "expires_at": "2027-01-15T09:15:40.000Z",
}
PAIRED = {**OPEN, "status": "paired", "name": None, "game_id": GAME_ID, "seat": 0,
          "token": "pL4y3rT0k3nZ9aQ1wE5rTy"}
LIST = {"seeks": [OPEN]}
