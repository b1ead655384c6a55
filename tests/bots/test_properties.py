"""Invariants of the analyses over random deals and positions (hypothesis)."""
from math import comb

from hypothesis import given, settings
from hypothesis import strategies as st

from service.bots.discard import analyse_discard, deal_shape
from service.bots.pegging import PlayPosition, analyse_play
from service.cards import DECK

cards = st.permutations(DECK)


@settings(max_examples=40, deadline=None)
@given(cards, st.integers(2, 6), st.booleans(), st.booleans())
def test_every_discard_is_ranked_once_with_sane_expectations(deck, players, dealer, own_crib):
    shape = deal_shape(players, dealer)
    own_crib = own_crib or shape.discards == 0
    hand = deck[:shape.dealt]
    options = analyse_discard(hand, players=players, own_crib=own_crib)
    assert len(options) == comb(shape.dealt, shape.discards)
    assert len({option.discard for option in options}) == len(options)
    for option in options:
        assert sorted(option.discard + option.keep) == sorted(hand)
        assert option.hand_min <= option.hand <= option.hand_max
        assert 0 <= option.crib <= (29 if shape.crib_size == 4 else 46)  # the best shows
    assert [option.net for option in options] == sorted((o.net for o in options), reverse=True)


@settings(max_examples=60, deadline=None)
@given(cards, st.integers(1, 4), st.integers(0, 6), st.integers(0, 8), st.integers(0, 4))
def test_the_recommendation_is_a_held_card_that_fits(deck, held, piled, seen, next_cards):
    pile = []
    for card in deck[held:held + piled]:
        if sum(c.value for c in pile) + card.value >= 31:
            break
        pile.append(card)
    position = PlayPosition(tuple(deck[:held]), tuple(pile),
                            tuple(deck[held + piled:held + piled + seen]),
                            hand_sizes=(next_cards,))
    analysis = analyse_play(position)
    fits = [card for card in position.hand if position.count + card.value <= 31]
    assert sorted(option.card for option in analysis.options) == sorted(fits)
    if fits:
        assert analysis.recommendation in fits
    for option in analysis.options:
        # The rest of a hand's play: at most 8 cards, each scoring at most 12 (four of a kind).
        assert 0 <= option.expected_against <= 8 * 12 + 2
        assert option.points <= option.expected_for <= 8 * 12 + 2
        assert option.expected == option.expected_for - option.expected_against
