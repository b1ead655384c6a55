"""Cutting for the first deal, deal sizes for 2-6 players, the starter cut and its bounds."""
import hashlib

import pytest

from service.cards import Card
from service.engine import (CutForDeal, CutStarter, Discard, GameOptions, LegalCut, apply,
                            legal_actions, new_game, start_game, to_act)
from service.simulation.random_games import play_random_game
from service.engine.shuffle import commitment, cut_seed, hand_seed, shuffled_deck
from service.errors import InvalidInputError
from tests.engine.helpers import all_cards, of_type


def cut_all(state, depth=None):
    events = []
    while state.phase == "cut_for_deal":
        state, produced = apply(state, CutForDeal(to_act(state)[0], depth), 0.0)
        events += produced
    return state, events


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_lowest_cut_deals_and_ties_cut_again(players):
    for number in range(40):
        state = new_game(GameOptions(players=players), b"cut %d" % number)
        assert to_act(state) == list(range(players))
        state, events = cut_all(state)
        results = [e.public for e in of_type(events, "dealer_cut", "cut_result")]
        # Replay the rounds: each round's cutters are exactly the tied seats of the last one.
        cutters = list(range(players))
        for result in (r for r in results if "round" in r):
            ranks = {seat: Card.parse(result["cards"][seat]).rank for seat in cutters}
            lowest = min(ranks.values())
            tied = [seat for seat in cutters if ranks[seat] == lowest]
            assert result["tied"] == (tied if len(tied) > 1 else [])
            if len(tied) == 1:
                assert result["dealer"] == tied[0] == state.dealer == state.first_dealer
            cutters = tied
        assert state.phase == "discard"


def test_cut_for_deal_reveals_its_seed_and_cuts_at_the_depth_asked():
    state = new_game(GameOptions(), b"cut")
    deck = shuffled_deck(cut_seed(b"cut", 1))
    assert state.seed_commitment == commitment(cut_seed(b"cut", 1))
    state, events = apply(state, CutForDeal(1, 4), 0.0)
    assert events[0].public == {"seat": 1, "depth": 4, "card": str(deck[4])}
    assert legal_actions(state, 0) == [LegalCut("cut_for_deal", 4, 47)]
    state, events = apply(state, CutForDeal(0, 47), 0.0)
    assert events[0].public["card"] == str(deck[48])
    assert len(set(all_cards(state))) == 52


@pytest.mark.parametrize("players, hand, crib_from_deck, kept, crib", [
    (2, 6, 0, 4, 4), (3, 5, 1, 4, 4), (4, 5, 0, 4, 4), (5, 5, 0, 4, 4), (6, 6, 0, 5, 5)])
def test_deal_discard_and_crib_sizes_follow_the_rules_table(players, hand, crib_from_deck, kept,
                                                            crib):
    state, events = cut_all(new_game(GameOptions(players=players), b"sizes"))
    dealt = of_type(events, "dealt")[0]
    dealer = state.dealer
    dealer_hand = hand - 1 if players >= 5 else hand
    assert dealt.public["counts"] == [dealer_hand if s == dealer else hand for s in range(players)]
    assert dealt.public["crib_from_deck"] == crib_from_deck == len(state.crib)
    assert {seat: len(part["cards"]) for seat, part in dealt.private.items()} == {
        s: len(state.hands[s]) for s in range(players)}
    for seat in to_act(state):
        action = legal_actions(state, seat)[0]
        state, _ = apply(state, Discard(seat, state.hands[seat][:action.count]), 0.0)
    assert [len(h) for h in state.kept] == [kept] * players and len(state.crib) == crib
    assert to_act(state) == [(dealer - 1) % players]


def test_the_deal_follows_the_committed_hand_seed():
    state, events = cut_all(new_game(GameOptions(), b"commit"))
    seed = hand_seed(b"commit", 1)
    assert state.seed_commitment == commitment(seed) == of_type(events, "dealt")[0].public[
        "seed_commitment"]
    deck = shuffled_deck(seed)
    pone, dealer = state.pone, state.dealer
    assert state.hands[pone] == deck[0:12:2] and state.hands[dealer] == deck[1:12:2]


def test_random_starter_cut_is_drawn_from_the_hand_seed():
    state, _ = cut_all(new_game(GameOptions(), b"starter"))
    for seat in (0, 1):
        state, _ = apply(state, Discard(seat, state.hands[seat][:2]), 0.0)
    first, events = apply(state, CutStarter(state.pone, None), 1.0)
    again, _ = apply(state, CutStarter(state.pone, None), 2.0)
    assert first.starter == again.starter
    depth = of_type(events, "starter_cut")[0].public["depth"]
    assert 4 <= depth <= 36 and first.starter == state.deck[depth]
    assert depth == 4 + documented_below(hashlib.sha256(hand_seed(b"starter", 1) + b"starter")
                                         .digest(), 40 - 7)


def test_hand_seeds_are_revealed_after_each_hand():
    game = play_random_game(GameOptions(), b"reveal", __import__("random").Random(3))
    revealed = game.state.revealed_seeds
    assert [number for number, _ in revealed] == list(range(1, game.state.hand_number + 1))
    assert all(seed == hand_seed(b"reveal", number).hex() for number, seed in revealed)


def documented_shuffle(seed: bytes) -> list[str]:
    """The shuffle exactly as engine/shuffle.py's docstring describes it, written again."""
    words = []
    for block in range(100):
        digest = hashlib.sha256(seed + block.to_bytes(8, "big")).digest()
        words += [int.from_bytes(digest[i:i + 4], "big") for i in range(0, 32, 4)]
    words.reverse()
    deck = [rank + suit for suit in "SHDC"
            for rank in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]]
    for i in range(51, 0, -1):
        limit = 2**32 - 2**32 % (i + 1)
        while (word := words.pop()) >= limit:
            pass
        j = word % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def documented_below(seed: bytes, n: int) -> int:
    digest = hashlib.sha256(seed + (0).to_bytes(8, "big")).digest()
    word = int.from_bytes(digest[:4], "big")
    assert word < 2**32 - 2**32 % n  # no rejection for this seed
    return word % n


def test_shuffle_follows_the_documented_algorithm():
    for number in range(1, 30):
        seed = hashlib.sha256(b"pinned" + b"hand" + number.to_bytes(4, "big")).digest()
        assert seed == hand_seed(b"pinned", number)
        assert [str(card) for card in shuffled_deck(seed)] == documented_shuffle(seed)
    # Pinned so that any change to the shuffle (which would break replays) is noticed.
    assert [str(card) for card in shuffled_deck(hand_seed(b"pinned", 1))[:8]] == [
        "7H", "QH", "8H", "7C", "10D", "3H", "10S", "KC"]


@pytest.mark.parametrize("players", [2, 4, 6])
def test_a_game_with_a_first_dealer_skips_the_cut_and_deals_at_once(players):
    seed = b"rematch %d" % players
    dealer = players - 1
    state, events = start_game(GameOptions(players=players), seed, first_dealer=dealer)
    assert (state.phase, state.dealer, state.first_dealer, state.hand_number) == (
        "discard", dealer, dealer, 1)
    assert [(e.type, e.public.get("dealer")) for e in events] == [
        ("game_started", dealer), ("dealt", dealer)]
    assert events[0].public == {"game": 1, "dealer": dealer}
    assert events[1].public["seed_commitment"] == commitment(hand_seed(seed, 1))


def test_a_first_dealer_outside_the_table_is_refused():
    with pytest.raises(InvalidInputError) as refused:
        start_game(GameOptions(players=2), b"seed", first_dealer=2)
    assert (refused.value.code, refused.value.field) == ("unknown_seat", "first_dealer")
