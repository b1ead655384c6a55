"""The fast play simulation follows the engine's rules and scores as service.scoring does."""
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from service.bots import LEVELS
from service.bots.playout import (BOLD, GREEDY, WARY, choose_card, laid_points, peg_points,
                                  play_out)
from service.cards import DECK
from service.engine import GameOptions, Play, apply, new_game, to_act, view
from service.scoring import score_pegging


FOUR_TWOS_FIRST = sorted(DECK, key=lambda card: card.rank != 2)


@settings(max_examples=300, deadline=None)
@given(st.permutations(DECK), st.integers(0, 8))
@example(FOUR_TWOS_FIRST, 4)  # a rank all laid: no fifth card of it to try
def test_laid_points_are_what_scoring_gives_every_rank(deck, size):
    pile = []
    for card in deck[:size]:
        if sum(c.value for c in pile) + card.value > 30:
            break
        pile.append(card)
    ranks = tuple(card.rank for card in pile)
    count = sum(card.value for card in pile)
    laid = laid_points(ranks)
    for rank in range(1, 14):
        fits = count + min(rank, 10) <= 31 and ranks.count(rank) < 4
        if not fits:  # over 31, or all four of the rank laid already
            assert laid[rank] == -1
            continue
        card = next(c for c in DECK if c.rank == rank and c not in pile)
        expected = score_pegging((*pile, card)).points
        assert laid[rank] == expected
        assert peg_points((*ranks, rank), count + min(rank, 10)) == expected


LAYOUTS = [(2, None), (3, None), (4, "2x2"), (5, None), (6, "3x2"), (6, "2x3")]
CAUTIONS = (WARY, GREEDY, BOLD, WARY, GREEDY, BOLD)


def _next_held(hands, seat):
    players = len(hands)
    following = next(((seat + k) % players for k in range(1, players)
                      if hands[(seat + k) % players]), None)
    return 0 if following is None else len(hands[following])


@pytest.mark.parametrize("players, teams", LAYOUTS)
@pytest.mark.parametrize("deal", range(6))
def test_play_out_pegs_what_the_engine_pegs(players, teams, deal):
    """The engine plays the hand with each seat's policy; play_out, started at the pone's
    first card, must give every side the same points."""
    options = GameOptions(players=players, teams=teams, target=1000)
    state = new_game(options, f"playout-{players}-{teams}-{deal}".encode())
    while state.phase != "play":
        seat = to_act(state)[0]
        state, _ = apply(state, LEVELS["first"].choose(view(state, seat), None), 0.0)
    pone = state.turn
    offset_of = {seat: (seat - pone) % players for seat in range(players)}
    hands = [[card.index for card in state.hands[(pone + k) % players]] for k in range(players)]
    cautions = list(CAUTIONS[:players])
    side_of = tuple(options.side_of((pone + k) % players) for k in range(players))
    first = choose_card(cautions[0], hands[0], (), _next_held(hands, 0))
    pegged, first_out = play_out([list(hand) for hand in hands], (), 0, first, cautions,
                                 side_of, [1000] * options.sides, False)
    engine = [0] * options.sides
    while state.phase == "play":
        seat = state.turn
        offset = offset_of[seat]
        held = [[card.index for card in state.hands[(pone + k) % players]]
                for k in range(players)]
        ranks = tuple(card.rank for card in state.pile)
        card = DECK[choose_card(cautions[offset], held[offset], ranks,
                                _next_held(held, offset))]
        state, events = apply(state, Play(seat, card), 0.0)
        for event in events:
            if event.type in ("card_played", "last_card", "count_reset"):
                engine[options.side_of(event.public["seat"])] += event.public["points"]
    assert pegged == engine and first_out == -1
