"""Golden hands worked by hand: seed 003's example, a 3-player hand, a 4-player team hand, a
6-player hand with a 5-card crib."""
from service.simulation.stacked import deal_from
from service.engine import CutStarter, Discard, GameOptions, Play, new_game, to_act
from tests.engine.helpers import all_cards, cards, of_type, run, stacked_deck

ALICE, BOB = 0, 1


def seed_003_state(scores=None):
    deck = stacked_deck(2, ALICE, {ALICE: "5S 4S 2S 8D 6H 8C", BOB: "10S 6D JH 4H KC 7C"},
                        starter="5H", depth=20)
    return deal_from(new_game(GameOptions(), b"seed 003"), deck, dealer=ALICE, scores=scores)


SEED_003_PLAY = [Play(BOB, cards("JH")[0]), Play(ALICE, cards("5S")[0]),
                 Play(BOB, cards("7C")[0]), Play(ALICE, cards("6H")[0]),
                 Play(ALICE, cards("2S")[0]), Play(BOB, cards("6D")[0]),
                 Play(ALICE, cards("4S")[0]), Play(BOB, cards("4H")[0])]
SEED_003_BEFORE_PLAY = [Discard(ALICE, cards("8D 8C")), Discard(BOB, cards("10S KC")),
                        CutStarter(BOB, 20)]


def test_seed_003_deal_and_discards():
    state = seed_003_state()
    assert state.phase == "discard" and state.dealer == ALICE and state.pone == BOB
    assert state.hands == (cards("5S 4S 2S 8D 6H 8C"), cards("10S 6D JH 4H KC 7C"))
    state, events = run(state, SEED_003_BEFORE_PLAY[:2])
    assert state.kept == (cards("5S 4S 2S 6H"), cards("6D JH 4H 7C"))
    assert sorted(state.crib) == sorted(cards("10S 8D KC 8C"))
    assert state.phase == "cut_starter" and to_act(state) == [BOB]
    state, events = run(state, SEED_003_BEFORE_PLAY[2:])
    assert str(state.starter) == "5H"
    assert state.phase == "play" and state.turn == BOB
    assert of_type(events, "heels") == []


def test_seed_003_play_table():
    state, _ = run(seed_003_state(), SEED_003_BEFORE_PLAY)
    state, events = run(state, SEED_003_PLAY)
    plays = [(e.public["seat"], e.public["card"], e.public["count"], e.public["points"])
             for e in of_type(events, "card_played")]
    # The seed's table, row by row.
    assert plays == [(BOB, "JH", 10, 0), (ALICE, "5S", 15, 2), (BOB, "7C", 22, 0),
                     (ALICE, "6H", 28, 3), (ALICE, "2S", 30, 0), (BOB, "6D", 6, 0),
                     (ALICE, "4S", 10, 0), (BOB, "4H", 14, 2)]
    kinds = [[item["kind"] for item in e.public["items"]] for e in of_type(events, "card_played")]
    assert kinds[1] == ["fifteen"] and kinds[3] == ["run"] and kinds[7] == ["pair"]
    # Bob cannot play on 28 (6D and 4H pass 31): the engine records his go itself.
    assert [(e.public["seat"], e.public["count"]) for e in of_type(events, "go")] == [(BOB, 28)]
    resets = of_type(events, "count_reset")
    assert [(e.public["seat"], e.public["count"], e.public["points"], e.public["leader"])
            for e in resets] == [(ALICE, 30, 1, BOB)]
    # "Bob 4H 14 3 points (pair & last card)": the pair is 2, the last card 1 (RULES.md).
    last = of_type(events, "last_card")
    assert [(e.public["seat"], e.public["points"]) for e in last] == [(BOB, 1)]


def test_seed_003_show_and_scores():
    state, _ = run(seed_003_state(), SEED_003_BEFORE_PLAY)
    state, events = run(state, SEED_003_PLAY)
    shows = [(e.public["seat"], e.public["hand"], e.public["points"])
             for e in of_type(events, "show_scored")]
    assert shows == [(BOB, "hand", 9), (ALICE, "hand", 12), (ALICE, "crib", 6)]
    bob_items = sorted((i["kind"], tuple(i["cards"]), i["points"])
                       for i in of_type(events, "show_scored")[0].public["items"])
    assert bob_items == sorted([("fifteen", ("5H", "JH"), 2), ("fifteen", ("4H", "5H", "6D"), 2),
                                ("run", ("4H", "5H", "6D", "7C"), 4), ("nobs", ("JH",), 1)])
    # Pegging: Alice 2 + 3 + 1 = 6, Bob 2 + 1 = 3; show: Bob 9, Alice 12 + crib 6.
    assert state.scores == (6 + 12 + 6, 3 + 9)
    # The next hand is dealt at once by Bob, from the seed.
    assert state.phase == "discard" and state.dealer == BOB and state.hand_number == 2
    assert [e.public["hand_number"] for e in of_type(events, "hand_revealed")] == [1]
    assert len(set(all_cards(state))) == 52


def test_a_three_player_hand_with_a_crib_card_from_the_deck():
    deck = stacked_deck(3, 0, {1: "5H 5D 10S JC KD", 2: "4C 6C 7D 8S QH", 0: "2H 3H 9C 9D AS"},
                        crib_card="7C", starter="5C", depth=6)
    state = deal_from(new_game(GameOptions(players=3), b"three"), deck, dealer=0)
    assert [len(hand) for hand in state.hands] == [5, 5, 5]
    assert state.crib == cards("7C")  # the extra crib card comes from the deck
    state, _ = run(state, [Discard(1, cards("KD")), Discard(2, cards("QH")),
                           Discard(0, cards("AS"))])
    assert to_act(state) == [2]  # the player to the dealer's right cuts
    state, events = run(state, [CutStarter(2, 6)])
    assert str(state.starter) == "5C" and state.turn == 1
    script = [(1, "5H"), (2, "4C"), (0, "3H"), (1, "5D"), (2, "6C"), (0, "2H"),
              (1, "10S"), (2, "7D"), (0, "9C"), (1, "JC"), (2, "8S"), (0, "9D")]
    state, events = run(state, [Play(seat, cards(card)[0]) for seat, card in script])
    points = [(e.public["seat"], e.public["count"], e.public["points"])
              for e in of_type(events, "card_played")]
    assert points == [(1, 5, 0), (2, 9, 0), (0, 12, 3), (1, 17, 3), (2, 23, 4), (0, 25, 5),
                      (1, 10, 0), (2, 17, 0), (0, 26, 0), (1, 10, 0), (2, 18, 0), (0, 27, 0)]
    assert [e.public["seat"] for e in of_type(events, "go")] == [1, 2, 1, 2]
    assert [(e.public["seat"], e.public["points"], e.public["leader"])
            for e in of_type(events, "count_reset")] == [(0, 1, 1), (0, 1, 1)]
    assert [(e.public["seat"], e.public["points"])
            for e in of_type(events, "last_card")] == [(0, 1)]
    shows = [(e.public["seat"], e.public["hand"], e.public["points"])
             for e in of_type(events, "show_scored")]
    assert shows == [(1, "hand", 21), (2, "hand", 9), (0, "hand", 2), (0, "crib", 4)]
    # Pegging 11 / 3 / 4, show 2 + 4 / 21 / 9.
    assert state.scores == (17, 24, 13)


def test_a_four_player_hand_scores_each_team_together():
    hands = {0: "7H 8H 9H 10H KS", 1: "5S 5C 6D JD QS", 2: "AH 2C 3D 4S 9S", 3: "7S 7C 8D 2H 10C"}
    deck = stacked_deck(4, 3, hands, starter="9D", depth=10)
    state = deal_from(new_game(GameOptions(players=4, teams="2x2"), b"four"), deck, dealer=3)
    state, _ = run(state, [Discard(0, cards("KS")), Discard(1, cards("QS")),
                           Discard(2, cards("9S")), Discard(3, cards("10C"))])
    assert to_act(state) == [2]
    state, _ = run(state, [CutStarter(2, 10)])
    assert state.turn == 0
    script = [(0, "7H"), (1, "6D"), (2, "2C"), (3, "8D"), (0, "8H"),
              (1, "5S"), (2, "4S"), (3, "7S"), (0, "9H"), (1, "5C"), (2, "AH"),
              (3, "7C"), (0, "10H"), (1, "JD"), (2, "3D"), (3, "2H")]
    state, events = run(state, [Play(seat, cards(card)[0]) for seat, card in script])
    points = [e.public["points"] for e in of_type(events, "card_played")]
    assert points == [0, 0, 2, 0, 4, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0]
    resets = [(e.public["seat"], e.public["count"], e.public["points"], e.public["leader"])
              for e in of_type(events, "count_reset")]
    assert resets == [(0, 31, 0, 1), (2, 31, 0, 3), (2, 30, 1, 3)]
    assert [e.public["seat"] for e in of_type(events, "go")] == [3]
    assert [(e.public["seat"], e.public["points"])
            for e in of_type(events, "last_card")] == [(3, 1)]
    shows = [(e.public["seat"], e.public["hand"], e.public["points"])
             for e in of_type(events, "show_scored")]
    assert shows == [(0, "hand", 16), (1, "hand", 9), (2, "hand", 8), (3, "hand", 12),
                     (3, "crib", 2)]
    # Team 0+2: pegging 9, show 24; team 1+3: pegging 1, show 23.
    assert state.scores == (33, 24)


def test_six_player_hand_with_five_card_crib():
    hands = {1: "2H AS 3C 5D 7S KC", 2: "4H 2S 4C 6D 8S QC", 3: "6H 3S 5C 7D 9S JC",
             4: "8H 4S 6C 8D 10S KD", 5: "QH 5S 7C 9D JS QD", 0: "AC 2C 8C 10C AD"}
    deck = stacked_deck(6, 0, hands, starter="9H", depth=5)
    state = deal_from(new_game(GameOptions(players=6, teams="3x2"), b"six"), deck, dealer=0)
    assert [len(hand) for hand in state.hands] == [5, 6, 6, 6, 6, 6]
    assert state.discarded[0] and to_act(state) == [1, 2, 3, 4, 5]  # the dealer does not discard
    state, _ = run(state, [Discard(seat, cards(hands[seat].split()[0])) for seat in range(1, 6)])
    assert sorted(state.crib) == sorted(cards("2H 4H 6H 8H QH"))
    assert all(len(hand) == 5 for hand in state.kept)
    assert to_act(state) == [5] and len(state.deck) == 52 - 35
    state, events = run(state, [CutStarter(5, 5)])
    assert str(state.starter) == "9H"
    # Play every hand out, always the first playable card.
    while state.phase == "play":
        seat = state.turn
        card = next(c for c in state.hands[seat] if state.count + c.value <= 31)
        state, produced = run(state, [Play(seat, card)])
        events += produced
    shows = [(e.public["seat"], e.public["hand"], len(e.public["cards"]), e.public["points"])
             for e in of_type(events, "show_scored")]
    assert [s[:3] for s in shows] == [(1, "hand", 5), (2, "hand", 5), (3, "hand", 5),
                                      (4, "hand", 5), (5, "hand", 5), (0, "hand", 5),
                                      (0, "crib", 5)]
    # The crib 2H 4H 6H 8H QH with 9H: fifteens 6+9, 2+4+9 (4) and a 6-card flush (6).
    assert shows[-1][3] == 10
    crib_items = of_type(events, "show_scored")[-1].public["items"]
    assert sorted((i["kind"], i["points"]) for i in crib_items) == [
        ("fifteen", 2), ("fifteen", 2), ("flush", 6)]
