"""POST /v1/pegging/score and POST /v1/pegging/replay."""
import pytest

from service.api.scoring import examples
from tests.api.conftest import problem
from tests.golden import PEGGING, case_name

# Board Game Arena's example of the play (seed 003): Alice (seat 0) deals, Bob (seat 1) leads.
BGA_CARDS = ["JH", "5S", "7C", "6H", "2S", "6D", "4S", "4H"]
BGA_SEATS = [1, 0, 1, 0, 0, 1, 0, 1]


def peg(client, pile, language=None):
    headers = {"Accept-Language": language} if language else {}
    return client.post("/v1/pegging/score", json={"pile": pile}, headers=headers)


def test_the_documented_example_is_what_the_route_answers_in_both_languages(client):
    assert peg(client, ["5H", "4S", "6D"]).get_json() == examples.PEGGING_RESPONSE
    assert peg(client, ["5H", "4S", "6D"], "es").get_json()["summary"] == "quince por cinco"


@pytest.mark.parametrize("case", PEGGING, ids=case_name)
def test_a_golden_pile_is_scored_exactly(client, case):
    response = peg(client, case.pile)
    assert response.status_code == 200
    body = response.get_json()
    assert body["pile"] == case.pile
    assert (body["count"], body["points"]) == (case.count, case.points)
    assert body["breakdown"] == case.breakdown
    if case.summary is not None:
        assert body["summary"] == case.summary


def test_count_over_31_names_the_card(client):
    body = problem(peg(client, ["KH", "QS", "JD", "2C"]), 422, "count_exceeds_31")
    assert body["field"] == "pile[3]"
    assert body["detail"] == "pile[3]: the count reaches 32, over 31"


def test_a_card_twice_in_the_pile_is_named(client):
    assert problem(peg(client, ["KH", "kh"]), 422, "duplicate_card")["field"] == "pile[1]"


def replay(client, **body):
    return client.post("/v1/pegging/replay", json=body)


def test_replay_bga_example_with_seats(client):
    plays = [{"seat": seat, "card": card} for seat, card in zip(BGA_SEATS, BGA_CARDS)]
    body = replay(client, players=2, dealer=0, plays=plays).get_json()
    assert body == examples.REPLAY_RESPONSE
    assert body["totals"] == [6, 3]  # Alice 2 + 3 + 1 (go); Bob 2 (pair) + 1 (last card)
    assert body["go_points"] == [
        {"seat": 0, "kind": "go", "points": 1, "after_play": 4, "count": 30},
        {"seat": 1, "kind": "last_card", "points": 1, "after_play": 7, "count": 14},
    ]
    assert body["passes"] == [{"seat": 1, "before_play": 4, "count": 28}]
    assert body["resets"] == [{"after_play": 4, "count": 30}]


def test_replay_infers_seats_playing_whenever_possible(client):
    body = replay(client, players=2, dealer=0, cards=BGA_CARDS).get_json()
    assert body["seats_inferred"] is True
    # Bob may as well have played the 2S himself at 28: that is the seating inferred.
    assert [play["seat"] for play in body["plays"]] == [1, 0, 1, 0, 1, 0, 1, 0]
    assert body["totals"] == [8, 1]


def test_replay_skipped_player_is_named(client):
    seats = [1, 0, 1, 0, 0, 1, 1, 0]
    plays = [{"seat": seat, "card": card} for seat, card in zip(seats, BGA_CARDS)]
    body = problem(replay(client, players=2, dealer=0, plays=plays), 422, "play_out_of_turn")
    assert body["field"] == "plays[6]"
    assert body["detail"] == "plays[6]: seat 1 played 4S, but it was seat 0's turn"


def test_replay_card_played_twice(client):
    cards = BGA_CARDS[:7] + ["jh"]
    assert problem(replay(client, players=2, dealer=0, cards=cards), 422,
                   "duplicate_card")["field"] == "plays[7]"


def test_replay_go_while_able_to_play(client):
    cards = ["JH", "5S", "7C", "6H", "9S", "2D", "4S", "4H"]
    body = problem(replay(client, players=2, dealer=0, cards=cards, ), 422,
                   "play_skipped_playable")
    assert body["field"] == "plays[4]"


def test_replay_too_many_cards_for_a_seat(client):
    plays = [{"seat": 1, "card": card} for card in BGA_CARDS]
    body = problem(replay(client, players=2, dealer=0, plays=plays), 422, "wrong_play_count")
    assert body["field"] == "plays[4]"


def test_replay_wrong_total(client):
    body = problem(replay(client, players=3, dealer=0, cards=BGA_CARDS), 422, "wrong_total_plays")
    assert body["detail"] == "plays: 3 players play 12 cards in all, got 8"


def test_replay_dealer_must_sit_at_the_table(client):
    body = problem(replay(client, players=2, dealer=3, cards=BGA_CARDS), 422, "seat_out_of_range")
    assert body["field"] == "dealer"


def test_replay_needs_plays_or_cards(client):
    body = problem(replay(client, players=2, dealer=0), 422, "validation_failed")
    assert body["errors"] == {"plays": ["Give either plays or cards."]}
