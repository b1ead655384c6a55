"""Two humans' game and a seat's webhook registration, over the test client."""

from __future__ import annotations

from tests.games.helpers import HUMAN, Player, create

SECRET = "a-secret-of-thirty-two-characters"


def two_humans(client) -> tuple[Player, Player]:
    created = create(client, [HUMAN, HUMAN])
    return (Player.creator(client, created),
            Player.joining(client, created["game_id"], created["invites"][0]["code"]))


def register(player: Player, url: str, **body):
    return player.client.post(f"/v1/games/{player.game_id}/webhooks",
                              json={"url": url, **body}, headers=player.headers())
