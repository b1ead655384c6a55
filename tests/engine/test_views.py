"""Redaction: what each seat and a spectator may see, and the seed-000 questions."""
import json
import random

from service.api.games.bodies import view_body
from service.cards import Card
from service.engine import GameOptions, LegalPlay, Play, apply, new_game, view, view_event
from service.engine.view import PlayedCard, RevealedSeed
from service.simulation.random_games import play_random_game, random_action
from service.engine.shuffle import commitment, hand_seed
from tests.engine.helpers import cards, run
from tests.engine.test_golden_hands import (ALICE, BOB, SEED_003_BEFORE_PLAY, SEED_003_PLAY,
                                            seed_003_state)


def test_seed_000_questions_during_the_play():
    state, _ = run(seed_003_state(), SEED_003_BEFORE_PLAY + SEED_003_PLAY[:3])
    seen = view(state, ALICE)
    assert seen.count == 22                                    # C
    assert seen.crib_owner == ALICE == seen.dealer             # B
    assert seen.starter == Card.parse("5H")                    # F
    assert seen.table == (PlayedCard(BOB, Card.parse("JH")), PlayedCard(ALICE, Card.parse("5S")),
                          PlayedCard(BOB, Card.parse("7C")))  # V
    assert seen.pile == cards("JH 5S 7C")
    assert seen.scores == (2, 0)                               # S
    assert seen.turn == ALICE and seen.to_act == (ALICE,)      # T
    assert seen.legal_actions == (LegalPlay(cards("4S 2S 6H")),)
    assert view(state, BOB).legal_actions == ()
    # The JSON a seat receives (the API's body of the view) says the same.
    body = view_body(seen, 0.0)
    assert body["starter"] == "5H" and body["pile"] == ["JH", "5S", "7C"]
    assert body["table"] == [{"seat": BOB, "card": "JH"}, {"seat": ALICE, "card": "5S"},
                             {"seat": BOB, "card": "7C"}]
    assert body["scores"] == [2, 0] and body["to_act"] == [ALICE]
    assert body["legal_actions"] == [{"type": "play", "count": 1, "cards": ["4S", "2S", "6H"]}]


def test_a_seat_sees_its_own_cards_only():
    state = seed_003_state()
    alice = view(state, ALICE)
    assert alice.hand == cards("5S 4S 2S 8D 6H 8C")
    assert alice.hand_sizes == (6, 6)
    text = json.dumps(view_body(alice, 0.0))
    for card in ["10S", "6D", "JH", "4H", "KC", "7C"]:
        assert f'"{card}"' not in text
    spectator = view(state, None)
    assert spectator.hand is None and spectator.legal_actions == ()
    assert '"5S"' not in json.dumps(view_body(spectator, 0.0))


def test_the_crib_is_hidden_until_shown_and_seeds_until_revealed():
    state, _ = run(seed_003_state(), SEED_003_BEFORE_PLAY)
    seen = view(state, BOB)
    assert seen.crib is None and seen.crib_size == 4
    assert '"8D"' not in json.dumps(view_body(seen, 0.0))  # Alice's discard
    assert (seen.game_seed_commitment, seen.game_seed) == (commitment(state.seed), None)
    game = play_random_game(GameOptions(counting="manual"), b"secret", random.Random(5))
    state = game.state
    for seat in (None, 0, 1):  # over: the game seed is revealed to everyone
        assert view(state, seat).game_seed == b"secret".hex()
        assert view(state, seat).game_seed_commitment == commitment(b"secret")


def test_a_seat_sees_exactly_its_own_discards():
    state = seed_003_state()
    assert [view(state, seat).discards for seat in (ALICE, BOB)] == [(), ()]
    state, _ = apply(state, SEED_003_BEFORE_PLAY[0], 0.0)  # Alice: 8D 8C
    assert view(state, ALICE).discards == cards("8D 8C")
    assert view(state, ALICE).kept == cards("5S 4S 2S 6H")
    bob = view(state, BOB)
    assert bob.discards == () and not strings(view_body(bob, 0.0)) & {"8D", "8C"}
    state, _ = run(state, SEED_003_BEFORE_PLAY[1:] + SEED_003_PLAY[:3])
    alice, bob, spectator = view(state, ALICE), view(state, BOB), view(state, None)
    assert (alice.discards, bob.discards, spectator.discards) == (
        cards("8D 8C"), cards("10S KC"), None)
    for seen, others in ((alice, ["10S", "KC"]), (bob, ["8D", "8C"]),
                         (spectator, ["8D", "8C", "10S", "KC"])):
        assert not strings(view_body(seen, 0.0)) & set(others)


def test_discards_are_forgotten_at_the_next_deal():
    state, _ = run(seed_003_state(), SEED_003_BEFORE_PLAY + SEED_003_PLAY[:7])
    assert view(state, ALICE).discards == cards("8D 8C")
    state, _ = apply(state, Play(BOB, cards("4H")[0]), 0.0)
    assert state.hand_number == 2 and state.discards == ((), ())
    assert view(state, ALICE).discards == () == view(state, BOB).discards


def strings(value) -> set[str]:
    """Every string inside a JSON value."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        return set().union(*map(strings, value)) if value else set()
    return set()


def test_views_never_leak_hidden_cards_in_random_games():
    rng = random.Random(11)
    for number in range(12):
        options = GameOptions(players=rng.choice([2, 3, 4, 6]))
        state = new_game(options, b"leak %d" % number)
        while (action := random_action(state, rng)) is not None:
            state, events = apply(state, action, 0.0)
            secrets = set() if state.over else {
                state.seed.hex(), hand_seed(state.seed, state.hand_number + 1).hex()}
            if state.hand_number not in dict(state.revealed_seeds):
                secrets.add(hand_seed(state.seed, state.hand_number).hex())
            undealt = {str(card) for card in state.deck}
            crib = {str(card) for card in state.crib}
            for seat in [None, *range(options.players)]:
                seen = strings(view_body(view(state, seat), 0.0))
                own = set(seen_cards(state, seat))
                hidden = undealt | {str(card) for other, hand in enumerate(state.hands)
                                    if other != seat for card in hand}
                if state.phase in ("discard", "cut_starter", "play"):
                    hidden |= crib
                assert not seen & ((hidden - own) | secrets)
                for event in events:
                    if event.type in ("dealt", "discarded"):
                        others = {card for other, part in event.private.items() if other != seat
                                  for card in part["cards"]}
                        assert not strings(view_event(event, seat)) & others


def seen_cards(state, seat):
    """Cards a seat has held this hand (its own discards included)."""
    if seat is None:
        return []
    return [str(card) for card in (*state.hands[seat], *state.kept[seat],
                                   *state.discards[seat])]


def test_view_event_merges_the_seats_private_part():
    state = seed_003_state()
    state, events = apply(state, SEED_003_BEFORE_PLAY[0], 0.0)
    discarded = events[0]
    assert view_event(discarded, ALICE) == {"type": "discarded", "seat": ALICE, "count": 2,
                                            "cards": ["8D", "8C"]}
    assert view_event(discarded, BOB) == {"type": "discarded", "seat": ALICE, "count": 2}
    assert view_event(discarded, None) == {"type": "discarded", "seat": ALICE, "count": 2}


def test_a_finished_play_shows_the_whole_table():
    state, _ = run(seed_003_state(), SEED_003_BEFORE_PLAY + SEED_003_PLAY[:7])
    assert [played.card for played in view(state, None).table] == list(
        cards("JH 5S 7C 6H 2S 6D 4S"))
    state, _ = apply(state, Play(BOB, cards("4H")[0]), 0.0)
    seen = view(state, None)
    history = [entry["type"] for entry in seen.history]
    assert history == ["dealt"]  # the next hand has started; its history is fresh
    assert seen.revealed_seeds[0].hand_number == 1
    assert isinstance(seen.revealed_seeds[0], RevealedSeed)
