"""Webhooks cost no store round trip of their own: an action of a game with a webhook makes the
same store calls as one of a game without (its notification rides in the save), on the
embedded store and on a standalone Redis."""

from __future__ import annotations

from collections import Counter

from tests.games.conftest import make_app
from tests.games.helpers import HUMAN, Player, create

SECRET = "a-secret-of-thirty-two-characters"


class CountingStore:
    """The store, its calls counted by name."""

    def __init__(self, store):
        self.wrapped = store
        self.calls: Counter[str] = Counter()

    def __getattr__(self, name: str):
        attribute = getattr(self.wrapped, name)
        if name.startswith("_") or not callable(attribute):
            return attribute

        def counted(*args, **kwargs):
            self.calls[name] += 1
            return attribute(*args, **kwargs)
        return counted


def calls_of_a_cut(client, store: CountingStore, with_webhook: bool) -> Counter[str]:
    created = create(client, [HUMAN, HUMAN])
    ana = Player.creator(client, created)
    Player.joining(client, ana.game_id, created["invites"][0]["code"])
    if with_webhook:
        response = client.post(f"/v1/games/{ana.game_id}/webhooks", headers=ana.headers(),
                               json={"url": "http://127.0.0.1:9/hook", "secret": SECRET})
        assert response.status_code == 201
    store.calls.clear()
    ana.act({"type": "cut_for_deal", "depth": 10})
    return Counter(store.calls)


def test_an_action_of_a_game_with_a_webhook_makes_the_same_store_calls(store, clock):
    counting = CountingStore(store)
    client = make_app(counting, clock, webhooks_allow_private=True).test_client()
    plain = calls_of_a_cut(client, counting, with_webhook=False)
    notified = calls_of_a_cut(client, counting, with_webhook=True)
    assert plain == notified == Counter({"load": 1, "save": 1})
    assert store.queue_depth() == 2  # the turn at registration, then the turn after the cut
