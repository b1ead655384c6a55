"""Manual counting: claims, corrections with itemised explanations, muggins, the time limit."""
import pytest

from service.simulation.stacked import deal_from
from service.cards import Card
from service.errors import DomainError, IllegalActionError, InvalidInputError
from service.engine import (CallMuggins, ClaimCount, ClaimItem, CutForDeal, CutStarter, Discard,
                            GameOptions, LegalClaim, LegalMuggins, Play, apply, expire,
                            legal_actions, new_game, to_act, view)
from service.engine.rules import MAX_CLAIM
from tests.engine.helpers import cards, of_type, run, stacked_deck
from tests.engine.test_golden_hands import ALICE, BOB, SEED_003_BEFORE_PLAY, SEED_003_PLAY

# After seed 003's play: Alice 6, Bob 3. True counts: Bob 9, Alice 12, crib 6.


def at_show(now=100.0, scores=None, **options):
    deck = stacked_deck(2, ALICE, {ALICE: "5S 4S 2S 8D 6H 8C", BOB: "10S 6D JH 4H KC 7C"},
                        starter="5H", depth=20)
    state = deal_from(new_game(GameOptions(counting="manual", **options), b"manual"), deck,
                      dealer=ALICE, scores=scores)
    state, _ = run(state, SEED_003_BEFORE_PLAY + SEED_003_PLAY, now)
    assert state.phase == "show" and to_act(state) == [BOB]
    return state


def claim(state, seat, points=None, items=None, now=100.0):
    return apply(state, ClaimCount(seat, points, items), now)


def test_the_show_proceeds_one_claim_at_a_time_in_order():
    state = at_show()
    assert legal_actions(state, BOB) == [LegalClaim("hand", cards("6D JH 4H 7C"),
                                                    Card.parse("5H"))]
    assert legal_actions(state, ALICE) == []
    state, events = claim(state, BOB, 9)
    assert state.scores == (6, 12) and to_act(state) == [ALICE]
    public = of_type(events, "claim")[0].public
    assert (public["claimed"], public["true_count"], public["points"]) == (9, 9, 9)
    state, _ = claim(state, ALICE, 12)
    assert state.claimer() == (ALICE, True)
    assert legal_actions(state, ALICE)[0].hand == "crib"
    state, events = claim(state, ALICE, 6)
    assert state.scores == (24, 12) and state.phase == "discard" and state.dealer == BOB


def test_the_crib_is_turned_up_for_everyone_when_its_count_begins():
    state = at_show()
    assert [view(state, seat).crib for seat in (None, ALICE, BOB)] == [None, None, None]
    state, _ = claim(state, BOB, 9)
    assert view(state, BOB).crib is None
    state, _ = claim(state, ALICE, 12)
    assert [view(state, seat).crib for seat in (None, ALICE, BOB)] == [cards("8D 8C 10S KC")] * 3


@pytest.mark.parametrize("muggins, claimed, scores, to_opponent", [
    ("off", 7, (6, 10), 0), ("auto", 7, (8, 10), 2), ("call", 7, (6, 10), 0),
    ("off", 11, (6, 12), 0), ("auto", 11, (8, 12), 2), ("call", 11, (8, 12), 2),
])
def test_a_wrong_claim_gives_the_opponent_what_muggins_allows(muggins, claimed, scores,
                                                              to_opponent):
    state, events = claim(at_show(muggins=muggins), BOB, claimed)
    assert state.scores == scores
    assert [(e.public["seat"], e.public["points"]) for e in of_type(events, "muggins")] == (
        [(ALICE, to_opponent)] if to_opponent else [])


def test_an_overclaim_is_explained_item_by_item():
    state = at_show(muggins="auto")
    items = (ClaimItem("fifteen", cards("JH 5H")), ClaimItem("fifteen", cards("6D 4H 5H")),
             ClaimItem("run", cards("4H 5H 6D 7C")), ClaimItem("pair", cards("6D 7C")))
    state, events = claim(state, BOB, None, items)
    public = of_type(events, "claim")[0].public
    assert public["claimed"] == 10 and public["true_count"] == 9 and public["points"] == 9
    assert public["missed"] == [{"kind": "nobs", "cards": ["JH"], "points": 1}]
    assert public["wrong"] == [{"kind": "pair", "cards": ["6D", "7C"], "points": 2}]
    assert of_type(events, "muggins")[0].public["reason"] == "overclaim"
    assert state.scores == (6 + 1, 3 + 9)


def test_muggins_call_is_open_until_the_next_hands_first_discard():
    state = at_show(muggins="call")
    state, _ = claim(state, BOB, 9)
    state, _ = claim(state, ALICE, 10)       # misses 2
    assert to_act(state) == [ALICE, BOB]    # Alice counts her crib; Bob may call muggins
    assert LegalMuggins(2) in legal_actions(state, BOB)
    with pytest.raises(DomainError) as refused:
        apply(state, CallMuggins(ALICE), 100.0)
    assert refused.value.code == "nothing_to_call"
    state, _ = claim(state, ALICE, 4)        # misses 2 in the crib; the next hand is dealt
    assert state.phase == "discard" and len(state.pending_muggins) == 2
    called, events = apply(state, CallMuggins(BOB), 100.0)
    assert [(e.public["seat"], e.public["points"], e.public["reason"])
            for e in of_type(events, "muggins")] == [(BOB, 2, "called"), (BOB, 2, "called")]
    assert called.scores == (6 + 10 + 4, 3 + 9 + 4) and called.pending_muggins == ()
    # Any first discard of the next hand closes the window.
    hand = state.hands[ALICE]
    closed, events = apply(state, Discard(ALICE, hand[:2]), 100.0)
    assert closed.pending_muggins == () and of_type(events, "muggins_lapsed")
    with pytest.raises(DomainError) as refused:
        apply(closed, CallMuggins(BOB), 100.0)
    assert refused.value.code == "nothing_to_call"


def test_time_limit_gives_half_the_true_count_to_the_next_opponent():
    state = at_show(now=100.0, count_time_limit=30)
    assert state.deadline == 130.0
    on_time, _ = claim(state, BOB, 9, now=130.0)  # exactly at the deadline is in time
    assert on_time.scores == (6, 12) and on_time.deadline == 160.0
    late, events = expire(state, 131.0)
    timeout = of_type(events, "count_timeout")[0].public
    assert (timeout["seat"], timeout["true_count"], timeout["points"]) == (BOB, 9, 5)
    assert [(e.public["seat"], e.public["points"]) for e in of_type(events, "muggins")] == [
        (ALICE, 4)]
    assert late.scores == (6 + 4, 3 + 5) and late.deadline == 160.0
    assert late.version == state.version + 1
    # A late action first applies every timeout due: Alice's hand (160) and crib (190) too.
    with pytest.raises(DomainError) as refused:
        claim(state, BOB, 9, now=131.0)
    assert refused.value.code == "not_your_turn"
    later, events = expire(state, 200.0)
    assert len(of_type(events, "count_timeout")) == 3 and later.phase == "discard"
    assert later.scores == (6 + 4 + 6 + 3, 3 + 5 + 6 + 3)


def test_invalid_claims_are_refused():
    state = at_show()
    assert MAX_CLAIM == 46  # the API schema's bound: a show of six cards (six players)
    for points, items in [(-1, None), (30, None), (MAX_CLAIM + 1, None),  # four cards: 29
                          (3, (ClaimItem("fifteen", cards("JH 5H")),)),
                          (None, (ClaimItem("pair", cards("5S 5H")),)),
                          (None, (ClaimItem("straight", cards("JH 5H")),))]:
        with pytest.raises(IllegalActionError) as refused:
            claim(state, BOB, points, items)
        assert refused.value.code == "invalid_claim"
    # A claim with neither points nor items is malformed, not a wrong count.
    with pytest.raises(InvalidInputError) as refused:
        claim(state, BOB, None, None)
    assert refused.value.code == "invalid_action" and refused.value.field == "points"


def test_claims_outside_a_manual_show_are_refused():
    deck = stacked_deck(2, ALICE, {ALICE: "5S 4S 2S 8D 6H 8C", BOB: "10S 6D JH 4H KC 7C"},
                        starter="5H", depth=20)
    state = deal_from(new_game(GameOptions(), b"auto"), deck, dealer=ALICE)
    with pytest.raises(DomainError) as refused:
        apply(state, ClaimCount(BOB, 9), 0.0)
    assert refused.value.code == "not_a_claim_phase"
    with pytest.raises(DomainError) as refused:
        apply(state, CallMuggins(BOB), 0.0)
    assert refused.value.code == "nothing_to_call"


def four_player_show(**options):
    hands = {0: "7H 8H 9H 10H KS", 1: "5S 5C 6D JD QS", 2: "AH 2C 3D 4S 9S", 3: "7S 7C 8D 2H 10C"}
    deck = stacked_deck(4, 3, hands, starter="9D", depth=10)
    state = deal_from(new_game(GameOptions(players=4, teams="2x2", counting="manual", **options),
                               b"teams"), deck, dealer=3)
    state, _ = run(state, [Discard(seat, cards(hands[seat].split()[-1])) for seat in range(4)])
    state, _ = run(state, [CutStarter(2, 10)])
    script = [(0, "7H"), (1, "6D"), (2, "2C"), (3, "8D"), (0, "8H"), (1, "5S"), (2, "4S"),
              (3, "7S"), (0, "9H"), (1, "5C"), (2, "AH"), (3, "7C"), (0, "10H"), (1, "JD"),
              (2, "3D"), (3, "2H")]
    state, _ = run(state, [Play(seat, cards(card)[0]) for seat, card in script], 100.0)
    assert state.phase == "show" and state.scores == (9, 1) and state.claimer() == (0, False)
    return state


def test_with_teams_only_the_other_side_may_call_muggins():
    state, _ = claim(four_player_show(muggins="call"), 0, 10)  # true count 16
    assert state.scores == (19, 1) and to_act(state) == [1, 3]
    with pytest.raises(DomainError) as refused:
        apply(state, CallMuggins(2), 100.0)  # the partner
    assert refused.value.code == "nothing_to_call"
    called, _ = apply(state, CallMuggins(3), 100.0)
    assert called.scores == (19, 7)


def test_with_teams_a_timeout_pays_the_next_opponent_clockwise():
    state = four_player_show(count_time_limit=20)
    late, events = expire(state, 121.0)  # seat 0's 16: keeps 8, seat 1 (the other team) gets 8
    assert [(e.public["seat"], e.public["points"]) for e in of_type(events, "muggins")] == [(1, 8)]
    assert late.scores == (17, 9) and late.claimer() == (1, False) and late.deadline == 140.0


def test_only_the_seat_being_counted_may_claim():
    state, _ = claim(four_player_show(muggins="call"), 0, 10)  # seat 1 counts next
    assert to_act(state) == [1, 3] and legal_actions(state, 3) == [LegalMuggins(6)]
    with pytest.raises(IllegalActionError) as refused:
        claim(state, 3, 29)  # seat 3 may call muggins, not count its own hand out of turn
    assert refused.value.code == "not_your_turn"
    claimed, _ = claim(state, 1, 7)
    assert claimed.claimer() == (2, False)


def test_only_the_dealer_may_claim_the_crib():
    state = four_player_show(muggins="call")
    for seat, points in [(0, 16), (1, 7), (2, 6)]:
        state, _ = claim(state, seat, points)
    state, _ = claim(state, 3, 2)  # an under-claim: seats 0 and 2 may call muggins
    assert state.claimer() == (3, True) and 0 in to_act(state)
    assert [type(action) for action in legal_actions(state, 0)] == [LegalMuggins]
    with pytest.raises(IllegalActionError) as refused:
        claim(state, 0, 4)  # the crib is the dealer's to count
    assert refused.value.code == "not_your_turn"


def test_a_dealer_with_nothing_to_discard_may_not_discard():
    state = new_game(GameOptions(players=5), b"five")
    state, _ = run(state, [CutForDeal(seat, 10 + seat) for seat in to_act(state)])
    dealer = state.dealer
    assert state.phase == "discard" and dealer not in to_act(state)
    assert legal_actions(state, dealer) == []
    with pytest.raises(IllegalActionError) as refused:
        apply(state, Discard(dealer, state.hands[dealer][:1]), 0.0)
    assert refused.value.code == "not_your_turn"


def test_a_pending_muggins_count_records_the_version_that_first_holds_it():
    state, _ = claim(at_show(muggins="call"), BOB, 5)  # misses 4
    assert state.pending_muggins == ({"seat": BOB, "side": BOB, "points": 4, "hand_number": 1,
                                      "version": state.version},)
    later, _ = claim(state, ALICE, 12)
    assert later.pending_muggins == state.pending_muggins
