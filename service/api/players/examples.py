"""Request and response examples of the players operations (a test validates each one)."""

from service.api.games.examples import GAME_ID, REMATCH_ID

PLAYER_ID = "b2JqZWN0aXZlbHkh"
CREATE_REQUEST = {"name": "Ana"}
CREATED = {"player_id": PLAYER_ID, "name": "Ana", "token": "pL4y3rT0k3nZ9aQ1wE5rTy"}
BEA = {"seat": 1, "kind": "human", "name": "Bea"}
GAMES = {
    "player_id": PLAYER_ID,
    "games": [
        {"game_id": REMATCH_ID, "seat": 0, "phase": "discard", "to_act": [0, 1],
         "your_turn": True, "scores": [0, 0], "side": 0, "partners": [], "opponents": [BEA],
         "updated_at": "2027-01-15T08:15:50.500Z", "ended": False, "rematch_of": GAME_ID, "rematch": None},
        {"game_id": GAME_ID, "seat": 0, "phase": "game_over", "to_act": [], "your_turn": False,
         "scores": [121, 87], "side": 0, "partners": [], "opponents": [BEA],
         "updated_at": "2027-01-15T08:15:40.000Z", "ended": True, "rematch_of": None,
         "rematch": REMATCH_ID},
    ],
    "next": None,
}
PROFILE = {
    "player_id": PLAYER_ID, "name": "Ana", "created_at": "2027-01-15T08:00:00.000Z",
    "ratings": [{"format": "2", "rating": 1069, "change": 69, "provisional": True, "games": 1}],
    "stats": [{"format": "2", "games": 1, "wins": 1, "skunks_given": 0, "skunks_taken": 0,
               "deals": 9, "average": {"hand": 7.3, "crib": 4.2, "pegging": 3.6}}],
    "listed": True,
}
CHANGE_REQUEST = {"name": "Ana María", "listed": False, "rotate_token": True}
CHANGED = {**PROFILE, "name": "Ana María", "listed": False, "token": "n3WpL4y3rT0k3nQ7sD2fGh"}
