"""Replay of a whole play: counts, go and last-card points, resets, seats checked or inferred."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.cards import DECK, Card
from service.scoring.replay import HAND_SIZES, GoPoint, Pass, ReplayError, Reset, replay


def cards(text: str) -> list[Card]:
    return [Card.parse(token) for token in text.split()]


BGA = cards("JH 5S 7C 6H 2S 6D 4S 4H")  # seed 003's play: Alice (0) deals, Bob (1) leads
BGA_SEATS = [1, 0, 1, 0, 0, 1, 0, 1]


def test_seed_003_play_table():
    result = replay(2, 0, BGA, BGA_SEATS)
    assert [(play.count, play.points) for play in result.plays] == [
        (10, 0), (15, 2), (22, 0), (28, 3), (30, 0), (6, 0), (10, 0), (14, 2)]
    assert result.go_points == (GoPoint(0, "go", 1, 4, 30), GoPoint(1, "last_card", 1, 7, 14))
    assert result.resets == (Reset(4, 30),)
    assert result.passes == (Pass(1, 4, 28),)
    assert result.totals == (6, 3)


def test_thirty_one_scores_two_and_no_go():
    # 2 players, dealer 1: seat 0 leads. 10+10+5+6 = 31 on play 3.
    plays = cards("KH QS 5D 6C AH AS 2D 3C")
    result = replay(2, 1, plays, [0, 1, 0, 1, 0, 1, 0, 1])
    assert result.plays[3].count == 31
    assert [item.kind for item in result.plays[3].items] == ["thirty_one"]
    assert result.resets == (Reset(3, 31),)
    assert [go.kind for go in result.go_points] == ["last_card"]
    # after the 31 by seat 1, seat 0 leads the new count
    assert result.plays[4].seat == 0


def test_last_card_at_31_scores_only_the_31():
    plays = cards("KH QS 5H 6D KC QD 5C 6S")  # two counts of exactly 31
    result = replay(2, 1, plays, [0, 1, 0, 1, 0, 1, 0, 1])
    assert [play.points for play in result.plays] == [0, 0, 0, 2, 0, 0, 0, 2]
    assert result.go_points == ()
    assert result.resets == (Reset(3, 31),)
    assert result.totals == (0, 4)


def test_three_players_score_the_same_with_seats_given_or_inferred():
    deck = cards("KH 5S 9C 2D QH 6S 8C AD JH 7S 3C 4D")  # seat 0, 1, 2 hold 4 each
    played, seats = deal_and_play(3, 2, deck)
    result = replay(3, 2, played, seats)
    assert seats[:3] == [0, 1, 2]
    assert sum(result.totals) == sum(play.points for play in result.plays) + sum(
        go.points for go in result.go_points)
    inferred = replay(3, 2, played)
    assert [(play.count, play.points) for play in inferred.plays] == [
        (play.count, play.points) for play in result.plays]


def test_out_of_turn_is_named():
    with pytest.raises(ReplayError) as error:
        replay(2, 0, BGA, [0, 1, 0, 1, 0, 1, 0, 1])
    assert (error.value.code, error.value.index) == ("play_out_of_turn", 0)


def test_count_over_31_with_seats():
    # at 30, seat 1 plays the 8C though it holds the AS
    plays = cards("KH QH KD 8C AS AC 9C 7C")
    with pytest.raises(ReplayError) as error:
        replay(2, 1, plays, [0, 1, 0, 1, 1, 0, 0, 1])
    assert (error.value.code, error.value.index) == ("count_exceeds_31", 3)


def test_skipped_player_who_could_play():
    with pytest.raises(ReplayError) as error:
        replay(2, 0, cards("JH 5S 7C 6H 9S 2D 4S 4H"))
    assert (error.value.code, error.value.index) == ("play_skipped_playable", 4)


def test_card_played_twice():
    with pytest.raises(ReplayError) as error:
        replay(2, 0, BGA[:7] + [BGA[0]])
    assert (error.value.code, error.value.index) == ("duplicate_card", 7)


def test_too_few_cards_or_too_many_for_one_seat_are_refused():
    with pytest.raises(ReplayError) as error:
        replay(2, 0, BGA[:7])
    assert error.value.code == "wrong_total_plays"
    with pytest.raises(ReplayError) as error:
        replay(2, 0, BGA, [1, 1, 1, 1, 1, 0, 0, 0])
    assert (error.value.code, error.value.index) == ("wrong_play_count", 4)


def test_dealer_outside_the_table():
    with pytest.raises(ReplayError) as error:
        replay(2, 2, BGA)
    assert error.value.code == "seat_out_of_range"


def deal_and_play(players: int, dealer: int, deck: list[Card]) -> tuple[list[Card], list[int]]:
    """A legal play: each player plays the first card of their hand that fits."""
    size = HAND_SIZES[players]
    hands = [deck[seat * size:(seat + 1) * size] for seat in range(players)]
    played, seats = [], []
    count, turn, last = 0, (dealer + 1) % players, None
    while any(hands):
        for step in range(players):
            seat = (turn + step) % players
            fitting = [card for card in hands[seat] if count + card.value <= 31]
            if fitting:
                card = fitting[0]
                hands[seat].remove(card)
                played.append(card)
                seats.append(seat)
                count += card.value
                last, turn = seat, (seat + 1) % players
                if count == 31:
                    count = 0
                break
        else:
            count, turn = 0, (last + 1) % players
    return played, seats


@settings(max_examples=60, deadline=None)
@given(players=st.integers(2, 6), dealer=st.integers(0, 5), deck=st.permutations(DECK))
def test_any_legal_play_replays_with_and_without_seats(players, dealer, deck):
    dealer %= players
    played, seats = deal_and_play(players, dealer, list(deck))
    with_seats = replay(players, dealer, played, seats)
    inferred = replay(players, dealer, played)
    # The inferred seating may differ, but the counts and the points per play may not.
    assert [play.count for play in inferred.plays] == [play.count for play in with_seats.plays]
    assert sum(inferred.totals) == sum(with_seats.totals)
    assert [play.seat for play in with_seats.plays] == seats
