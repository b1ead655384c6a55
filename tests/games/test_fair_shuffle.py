"""A client can check every shuffle: recompute the deck from the revealed seed, as the README says,
and find the cards it was dealt and the starter where they should be."""

from __future__ import annotations

import hashlib

from tests.games.helpers import COMPUTER, HUMAN, Player, create, first_legal

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
DECK = [rank + suit for suit in "SHDC" for rank in RANKS]  # index order: S A..K, H, D, C


class Stream:
    """below(n) from the SHA-256 counter stream of a seed (README: Shuffle)."""

    def __init__(self, seed: bytes):
        self.seed, self.counter, self.words = seed, 0, []

    def below(self, n: int) -> int:
        limit = 2**32 - 2**32 % n
        while True:
            if not self.words:
                block = hashlib.sha256(self.seed + self.counter.to_bytes(8, "big")).digest()
                self.words = [int.from_bytes(block[i:i + 4], "big") for i in range(0, 32, 4)]
                self.counter += 1
            word = self.words.pop(0)
            if word < limit:
                return word % n


def deck_order(seed: bytes) -> list[str]:
    deck, stream = list(DECK), Stream(seed)
    for i in range(51, 0, -1):
        j = stream.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def dealt_to(deck: list[str], players: int, dealer: int, seat: int, size: int) -> list[str]:
    """Cards of `seat` when the deal goes one at a time from the dealer's left (2 players)."""
    order = [(dealer + k) % players for k in range(1, players + 1)] * size
    return [card for card, to in zip(deck, order) if to == seat]


def test_every_revealed_seed_matches_its_commitment_and_the_cards_dealt():
    from service.store import MemoryGameStore
    from tests.games.conftest import make_app

    client = make_app(MemoryGameStore(600)).test_client()
    player = Player.creator(client, create(client, [HUMAN, COMPUTER], {"target": 121}))
    commitments = {}
    game = player.read()
    while game["view"]["phase"] != "game_over":
        view = game["view"]
        if view["hand_number"]:
            commitments.setdefault(view["hand_number"], view["seed_commitment"])
        game = player.act(first_legal(view))
    events = player.events().get_json()["events"]
    hands = {}
    for event in events:
        if event["type"] == "dealt":
            hands[event["hand_number"]] = {"dealt": event}
        elif event["type"] == "starter_cut":
            hands[max(hands)]["starter"] = event
        elif event["type"] == "hand_revealed":
            hands[event["hand_number"]]["seed"] = bytes.fromhex(event["seed"])
    assert len(hands) >= 3
    for number, hand in hands.items():
        seed, dealt = hand["seed"], hand["dealt"]
        assert hashlib.sha256(seed).hexdigest() == dealt["seed_commitment"]
        assert commitments.get(number, dealt["seed_commitment"]) == dealt["seed_commitment"]
        deck = deck_order(seed)
        assert dealt["cards"] == dealt_to(deck, 2, dealt["dealer"], 0, 6)
        if "starter" in hand:  # every cut here asked for a random depth (depth: null)
            depth = hand["starter"]["depth"]
            assert depth == 4 + Stream(hashlib.sha256(seed + b"starter").digest()).below(40 - 7)
            assert deck[12 + depth] == hand["starter"]["starter"]


def test_the_game_seed_committed_at_creation_is_revealed_at_the_end_and_yields_every_seed():
    """As a client: keep the creation's game_seed_commitment; at the end check the revealed
    game seed against it, then derive every hand's and cut round's seed from it (README:
    Checking a shuffle) and compare them with the seeds revealed during the game."""
    from service.store import MemoryGameStore
    from tests.games.conftest import make_app

    client = make_app(MemoryGameStore(600)).test_client()
    created = create(client, [HUMAN, COMPUTER], {"target": 61, "match": True})
    committed = created["game"]["view"]["game_seed_commitment"]
    player = Player.creator(client, created)
    game = player.read()
    while game["view"]["phase"] != "game_over":
        assert (game["view"]["game_seed_commitment"], game["view"]["game_seed"]) == (
            committed, None)
        game = player.act(first_legal(game["view"]))
    assert game["view"]["game_seed"] is None  # the match could go on: later hands stay secret
    game = player.act({"type": "end_match"})
    events = player.events().get_json()["events"]

    revealed = [event for event in events if event["type"] == "game_seed_revealed"]
    assert [event["number"] for event in revealed] == [events[-2]["number"]]
    assert events[-1]["type"] == "game_over" and events[-1]["reason"] == "won"
    game_seed = bytes.fromhex(revealed[0]["seed"])
    assert hashlib.sha256(game_seed).hexdigest() == committed == revealed[0]["commitment"]
    assert game["view"]["game_seed"] == revealed[0]["seed"]
    hand_seeds = {event["hand_number"]: event["seed"] for event in events
                  if event["type"] == "hand_revealed"}
    cut_seeds = {event["round"]: event["seed"] for event in events
                 if event["type"] == "cut_result"}
    assert len(hand_seeds) >= 3 and cut_seeds
    for number, seed in hand_seeds.items():
        derived = hashlib.sha256(game_seed + b"hand" + number.to_bytes(4, "big")).hexdigest()
        assert seed == derived
    for number, seed in cut_seeds.items():
        assert seed == hashlib.sha256(game_seed + b"cut" + number.to_bytes(4, "big")).hexdigest()


def test_a_preset_position_on_a_shared_deck_seed_commits_and_reveals_like_any_game():
    """Starting scores, a named first dealer and a deck_seed (duplicate deals): the game seed
    is sha256 of the deck_seed, committed at creation and revealed only at the end, and every
    hand's seed derives from it and deals the cards each hand had."""
    from service.store import MemoryGameStore
    from tests.games.conftest import make_app

    client = make_app(MemoryGameStore(600)).test_client()
    deck_seed = "final, board 12"
    created = create(client, [HUMAN, COMPUTER], {"target": 61, "start_scores": [40, 45],
                                                  "first_dealer": 1, "deck_seed": deck_seed})
    committed = created["game"]["view"]["game_seed_commitment"]
    player = Player.creator(client, created)
    game = player.read()
    assert (game["view"]["scores"], game["view"]["dealer"]) == ([40, 45], 1)
    while game["view"]["phase"] != "game_over":
        assert game["view"]["game_seed"] is None
        game = player.act(first_legal(game["view"]))
    events = player.events().get_json()["events"]

    game_seed = hashlib.sha256(b"cribbage deck seed\0" + deck_seed.encode()).digest()
    revealed = next(event for event in events if event["type"] == "game_seed_revealed")
    assert revealed["seed"] == game["view"]["game_seed"] == game_seed.hex()
    assert hashlib.sha256(game_seed).hexdigest() == committed == revealed["commitment"]
    assert not [event for event in events if event["type"] == "cut_result"]  # no cut for deal
    dealt = {event["hand_number"]: event for event in events if event["type"] == "dealt"}
    hand_seeds = {event["hand_number"]: bytes.fromhex(event["seed"]) for event in events
                  if event["type"] == "hand_revealed"}
    assert sorted(hand_seeds) == sorted(dealt) and dealt[1]["dealer"] == 1
    for number, seed in hand_seeds.items():
        assert seed == hashlib.sha256(game_seed + b"hand" + number.to_bytes(4, "big")).digest()
        assert hashlib.sha256(seed).hexdigest() == dealt[number]["seed_commitment"]
        assert dealt[number]["cards"] == dealt_to(deck_order(seed), 2, dealt[number]["dealer"],
                                                  0, 6)
