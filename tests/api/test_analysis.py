"""The analysis endpoints: what `hard` does, exact expectations, 422 for impossible positions."""
import random

import pytest

from service.api.analysis import examples
from service.bots import LEVELS
from service.bots.players import play_position
from service.cards import DECK
from service.engine import GameOptions, apply, new_game, to_act, view
from tests.api.conftest import problem


@pytest.mark.parametrize("name", sorted(examples.DISCARD_REQUESTS))
def test_the_documented_discard_examples_are_what_the_route_answers(client, name):
    response = client.post("/v1/analysis/discard", json=examples.DISCARD_REQUESTS[name]["value"])
    assert response.status_code == 200
    assert response.get_json() == examples.DISCARD_RESPONSES[name]["value"]


def test_with_every_sides_score_and_the_dealer_the_discard_is_valued_for_the_game(client):
    """Three players near the end: without the dealer the chances are unknown (null) and the
    net decides; with it, the chances rank the discards, as `hard` does at the table."""
    request = {"hand": ["7S", "7H", "5S", "6H", "7C"], "players": 3, "own_crib": False,
               "scores": [110, 112, 100]}
    plain = client.post("/v1/analysis/discard", json=request).get_json()
    assert {option["win"] for option in plain["discards"]} == {None}
    valued = client.post("/v1/analysis/discard", json={**request, "dealer_seat": 1}).get_json()
    chances = [option["win"] for option in valued["discards"]]
    assert all(0 < chance < 1 for chance in chances)
    best = valued["discards"][chances.index(max(chances))]
    assert valued["recommendation"] == {"discard": best["discard"], "keep": best["keep"]}
    far = client.post("/v1/analysis/discard", json={**request, "scores": [10, 12, 0],
                                                    "dealer_seat": 1}).get_json()
    assert {option["win"] for option in far["discards"]} == {None}


def test_with_five_or_six_players_the_hand_size_must_agree_with_the_dealer(client):
    """The dealer of 5 is dealt 4 cards, the others 5: a 5-card hand cannot be the dealer's."""
    request = {"hand": ["7S", "7H", "5S", "6H", "7C"], "players": 5, "own_crib": True,
               "scores": [100, 101, 102, 103, 104], "dealer_seat": 0}
    body = problem(client.post("/v1/analysis/discard", json=request), 422,
                   "dealer_hand_mismatch")
    assert body["detail"] == ("dealer_seat: with 5 players a hand of 5 cards says whether you "
                              "deal, and dealer_seat 0 disagrees")
    dealer = {**request, "hand": ["7S", "7H", "5S", "6H"]}
    assert client.post("/v1/analysis/discard", json=dealer).status_code == 200
    assert client.post("/v1/analysis/discard",
                       json={**dealer, "dealer_seat": 3}).status_code == 422


@pytest.mark.parametrize("change, status, code, field, detail_es", [
    ({"own_score": 3}, 422, "scores_given_twice", "scores",
     "scores: dé scores, o own_score y opponent_score, no ambos"),
    ({"dealer_seat": 0}, 422, "crib_owner_mismatch", "dealer_seat",
     "dealer_seat: own_crib es false, pero reparte el asiento 0"),
    ({"dealer_seat": 3}, 422, "dealer_out_of_range", "dealer_seat",
     "dealer_seat: con 3 jugadores el repartidor es un asiento de 0 a 2, no 3"),
    ({"scores": [1, 2]}, 422, "wrong_score_count", "scores",
     "scores: da 3 marcadores, uno por bando, no 2"),
    ({"scores": [1, 121, 2]}, 422, "game_already_won", "scores",
     "scores: un marcador ya ha llegado a 121"),
])
def test_scores_and_dealer_that_cannot_be_are_refused_in_the_callers_language(
        client, change, status, code, field, detail_es):
    request = {"hand": ["7S", "7H", "5S", "6H", "7C"], "players": 3, "own_crib": False,
               "scores": [110, 112, 100], "dealer_seat": 1, **change}
    response = client.post("/v1/analysis/discard", json=request,
                           headers={"Accept-Language": "es"})
    body = problem(response, status, code)
    assert (body["field"], body["detail"]) == (field, detail_es)


def test_discard_ranks_every_choice_with_exact_expectations(client):
    body = client.post("/v1/analysis/discard", json={
        "hand": ["5h", "5s", "jd", "6c", "4h", "ks"], "own_crib": True}).get_json()
    assert len(body["discards"]) == 15
    best = body["discards"][0]
    assert best["discard"] == ["JD", "KS"] and best["keep"] == ["5H", "5S", "6C", "4H"]
    assert best["exact"] == {"hand": "367/23", "crib": "90391/22770", "net": "19727/990"}
    assert (best["hand_min"], best["hand_max"]) == (12, 24)
    assert body["crib_cases"] == 1035 * 44 and body["starters"] == 46
    assert body["crib_weight"] == 1.0
    assert body["recommendation"] == {"discard": ["JD", "KS"], "keep": ["5H", "5S", "6C", "4H"]}


def test_discard_for_a_team_and_the_dealer_with_six_players(client):
    pone = client.post("/v1/analysis/discard", json={
        "hand": ["5H", "5S", "JD", "6C", "4H", "KS"], "players": 6, "teams": "3x2",
        "own_crib": False}).get_json()
    assert len(pone["discards"]) == 6 and pone["crib_weight"] == -0.5
    dealer = client.post("/v1/analysis/discard", json={
        "hand": ["5H", "5S", "JD", "6C", "4H"], "players": 6, "own_crib": True}).get_json()
    assert [option["discard"] for option in dealer["discards"]] == [[]]
    assert dealer["crib_cases"] == 1533939 * 42  # C(47, 5) other crib cards x 42 starters


@pytest.mark.parametrize("body, code, field", [
    ({"hand": ["5H", "5S", "JD", "6C", "4H"], "own_crib": True}, "wrong_hand_size", "hand"),
    ({"hand": ["5H", "5S", "JD", "6C"], "players": 5, "own_crib": False}, "dealer_owns_crib",
     "own_crib"),
    ({"hand": ["5H", "5S", "JD", "6C", "4H"], "players": 3, "teams": "2x2", "own_crib": True},
     "invalid_teams", "teams"),
    ({"hand": ["5H", "5S", "JD", "6C", "4H", "5h"], "own_crib": True}, "duplicate_card",
     "hand[5]"),
    ({"hand": ["5H", "5S", "JD", "6C", "4H", "5X"], "own_crib": True}, "unknown_card",
     "hand[5]"),
])
def test_impossible_deals_are_422(client, body, code, field):
    assert problem(client.post("/v1/analysis/discard", json=body), 422, code)["field"] == field


def test_missing_own_crib_is_a_validation_problem(client):
    body = problem(client.post("/v1/analysis/discard", json={"hand": ["5H"] * 6}), 422,
                   "validation_failed")
    assert "own_crib" in body["errors"]


def test_the_documented_play_example_is_what_the_route_answers(client):
    response = client.post("/v1/analysis/play", json=examples.PLAY_REQUEST)
    assert response.status_code == 200
    assert response.get_json() == examples.PLAY_RESPONSE


def test_play_with_no_card_that_fits_recommends_go(client):
    body = client.post("/v1/analysis/play", json={"hand": ["KH"], "pile": ["10C", "10D", "5S"]})
    assert body.get_json() == {"count": 25, "sampled_deals": 0, "plays": [],
                               "recommendation": None}


def test_play_reports_each_card_over_the_rest_of_the_play(client):
    # The dealer can only hold KC and 4D (everything else is seen): the search is exact.
    seen = [card.text for card in DECK if card.text not in ("5H", "9S", "KC", "4D")]
    body = client.post("/v1/analysis/play", json={
        "hand": ["5H", "9S"], "seen": seen, "hand_sizes": [2]}).get_json()
    assert body == {"count": 0, "sampled_deals": 144, "recommendation": "9S", "plays": [
        {"card": "9S", "points": 0, "expected_for": 0.0, "expected_against": 1.0,
         "expected": -1.0, "win_chance": None, "wins": False},
        {"card": "5H", "points": 0, "expected_for": 0.0, "expected_against": 3.0,
         "expected": -3.0, "win_chance": None, "wins": False}]}


def test_play_hears_the_goes_said_and_the_scores(client):
    # Unseen: AC KC 2D, and the dealer holds one of them. It said go at 25, so it holds KC:
    # leading 5S gives it a fifteen; leading 4H is safe, and 5S then takes the last card.
    seen = [card.text for card in DECK if card.text not in ("5S", "4H", "AC", "KC", "2D")]
    request = {"hand": ["5S", "4H"], "seen": seen, "hand_sizes": [1],
               "goes": [{"seat": 1, "count": 25}], "own_score": 100, "opponent_score": 116}
    body = client.post("/v1/analysis/play", json=request).get_json()
    assert [(play["card"], play["expected_for"], play["expected_against"])
            for play in body["plays"]] == [("4H", 1.0, 0.0), ("5S", 1.0, 2.0)]
    assert all(play["win_chance"] is not None for play in body["plays"])
    # Without the go the dealer may hold any of the three: the fifteen is no longer certain.
    unheard = client.post("/v1/analysis/play", json={**request, "goes": []}).get_json()
    five = next(play for play in unheard["plays"] if play["card"] == "5S")
    assert 0.0 < five["expected_against"] < 2.0


def _trailing_close(trailing):
    """Three players, seat 1 dealt and said go at 24 (it holds 8C, seat 2 the 2D): leading 7S
    gives seat 1 a fifteen, leading 5H gives it to seat 2 (tests/bots/test_pegging.py)."""
    seen = [card.text for card in DECK if card.text not in ("5H", "7S", "8C", "2D")]
    return {"hand": ["5H", "7S"], "seen": seen, "players": 3, "hand_sizes": [1, 1],
            "dealer_seat": 1, "goes": [{"seat": 1, "count": 24}],
            "scores": [110, 116, trailing]}


def test_play_with_every_sides_score_keeps_a_close_trailing_side_from_the_target(client):
    far = client.post("/v1/analysis/play", json=_trailing_close(80)).get_json()
    close = client.post("/v1/analysis/play", json=_trailing_close(115)).get_json()
    assert (far["recommendation"], close["recommendation"]) == ("5H", "7S")
    leader_only = {**_trailing_close(115), "own_score": 110, "opponent_score": 116}
    del leader_only["scores"]
    # With the leader's score alone every other side counts as the leader: 7S, as for 115.
    assert client.post("/v1/analysis/play", json=leader_only).get_json()["recommendation"] \
        == "7S"


@pytest.mark.parametrize("change, code, detail_es", [
    ({"own_score": 110}, "scores_given_twice",
     "scores: dé scores, o own_score y opponent_score, no ambos"),
    ({"scores": [110, 116]}, "wrong_score_count", "scores: da 3 marcadores, uno por bando, no 2"),
    ({"scores": [110, 121, 80]}, "game_already_won", "scores: un marcador ya ha llegado a 121"),
    ({"scores": [110, 61, 80], "target": 61}, "game_already_won",
     "scores: un marcador ya ha llegado a 61"),
])
def test_play_scores_that_cannot_be_are_refused_in_the_callers_language(client, change, code,
                                                                       detail_es):
    response = client.post("/v1/analysis/play", json={**_trailing_close(80), **change},
                           headers={"Accept-Language": "es"})
    body = problem(response, 422, code)
    assert (body["field"], body["detail"]) == ("scores", detail_es)


def test_play_scores_out_of_the_schema_are_validation_problems(client):
    for scores in ([110, -1, 80], [110], [1] * 7, [110, 1000, 80]):
        body = problem(client.post("/v1/analysis/play", json={**_trailing_close(80),
                                                               "scores": scores}),
                       422, "validation_failed")
        assert [field.split("[")[0] for field in body["errors"]] == ["scores"]


def test_play_scores_of_teams_are_one_per_team(client):
    request = {"hand": ["5H"], "players": 4, "teams": "2x2", "scores": [100, 110]}
    assert client.post("/v1/analysis/play", json=request).status_code == 200
    body = problem(client.post("/v1/analysis/play", json={**request,
                                                          "scores": [100, 110, 90, 80]}),
                   422, "wrong_score_count")
    assert body["field"] == "scores"


@pytest.mark.parametrize("body, code, field", [
    ({"hand": ["5H"], "pile": ["KC", "QC", "JC", "2C"]}, "count_exceeds_31", "pile[3]"),
    ({"hand": ["5H"], "pile": ["KC", "QC", "JC", "AC"]}, "count_is_31", "pile"),
    ({"hand": ["5H"], "pile": ["KC"], "count": 12}, "count_mismatch", "count"),
    ({"hand": ["5H", "6H"], "pile": ["KC"], "seen": ["2D", "6H"]}, "card_seen_twice",
     "seen[1]"),
    ({"hand": ["5H", "6H"], "pile": ["5h"]}, "card_seen_twice", "pile[0]"),
    ({"hand": ["5H", "6H", "7H", "8H", "9H"]}, "too_many_cards", "hand"),
    ({"hand": ["5H"], "own_score": 121}, "game_already_won", "target"),
    ({"hand": ["5H"], "players": 3, "hand_sizes": [4]}, "wrong_hand_sizes", "hand_sizes"),
    ({"hand": ["5H"], "players": 3, "hand_sizes": [4, 5]}, "too_many_cards", "hand_sizes[1]"),
    ({"hand": ["5H"], "next_cards": 2, "hand_sizes": [3]}, "invalid_next_cards", "next_cards"),
    ({"hand": ["5H"], "goes": [{"seat": 2, "count": 20}]}, "seat_out_of_range", "goes[0]"),
    ({"hand": ["5H"], "dealer": True, "dealer_seat": 1}, "dealer_mismatch", "dealer_seat"),
    ({"hand": ["5H"], "players": 3, "teams": "2x2"}, "invalid_teams", "teams"),
    ({"hand": ["5H"], "played_by": [{"seat": 1, "card": "KC"}]}, "played_card_unseen",
     "played_by[0]"),
    ({"hand": ["AH"], "hand_sizes": [1], "goes": [{"seat": 1, "count": 30}],
      "seen": [card.text for card in DECK if card.value > 1]}, "impossible_hands", "goes"),
])
def test_impossible_positions_are_422(client, body, code, field):
    assert problem(client.post("/v1/analysis/play", json=body), 422, code)["field"] == field


def test_count_over_31_is_rejected_by_the_schema(client):
    problem(client.post("/v1/analysis/play", json={"hand": ["5H"], "count": 32}), 422,
            "validation_failed")


def test_problems_speak_spanish(client):
    response = client.post("/v1/analysis/play", json={"hand": ["5H"], "pile": ["KC"],
                                                      "count": 12},
                           headers={"Accept-Language": "es"})
    assert problem(response, 422, "count_mismatch")["detail"] == \
        "count: la mesa suma 10, no 12"


def _play_request(seat_view):
    position = play_position(seat_view)
    return {"hand": [str(c) for c in position.hand], "pile": [str(c) for c in position.pile],
            "seen": [str(c) for c in position.seen], "players": position.players,
            "teams": position.teams, "hand_sizes": list(position.hand_sizes),
            "dealer_seat": position.dealer_seat,
            "goes": [{"seat": seat, "count": count} for seat, count in position.goes],
            "played_by": [{"seat": seat, "card": str(card)}
                          for seat, card in position.played_by],
            "own_score": position.own_score, "opponent_score": position.opponent_score,
            "target": position.target, "show_points": position.show_points,
            "exact_finish": position.exact_finish}


def test_recommendations_are_what_hard_plays(client):
    """Through a whole game: every hard discard and card is the endpoints' recommendation."""
    state = new_game(GameOptions(), b"coach")
    rng = random.Random(5)
    checked = {"discard": 0, "play": 0}
    while state.phase != "game_over":
        seat = to_act(state)[0]
        seat_view = view(state, seat)
        action = LEVELS["hard"].choose(seat_view, rng)
        if action.type == "discard":
            body = client.post("/v1/analysis/discard", json={
                "hand": [card.text for card in seat_view.hand],
                "own_crib": seat_view.dealer == seat, "own_score": seat_view.scores[seat],
                "opponent_score": seat_view.scores[1 - seat]}).get_json()
            assert body["recommendation"]["discard"] == [card.text for card in action.cards]
            checked["discard"] += 1
        elif action.type == "play":
            body = client.post("/v1/analysis/play", json=_play_request(seat_view)).get_json()
            assert body["recommendation"] == action.card.text
            checked["play"] += 1
        state, _ = apply(state, action, 0.0)
    assert checked["discard"] > 10 and checked["play"] > 40


def test_with_every_sides_score_the_play_recommendations_are_what_hard_plays(client):
    """Three players to 61, so that many plays are near the end: the endpoint given `scores`
    recommends every card `hard` plays."""
    state = new_game(GameOptions(players=3, target=61), b"coach-3")
    rng = random.Random(6)
    checked = near_the_end = 0
    while state.phase != "game_over":
        seat = to_act(state)[0]
        seat_view = view(state, seat)
        action = LEVELS["hard"].choose(seat_view, rng)
        if action.type == "play":
            request = _play_request(seat_view)
            del request["own_score"], request["opponent_score"]
            request["scores"] = list(play_position(seat_view).scores)
            body = client.post("/v1/analysis/play", json=request).get_json()
            assert body["recommendation"] == action.card.text
            checked += 1
            near_the_end += body["plays"][0]["win_chance"] is not None
        state, _ = apply(state, action, 0.0)
    assert checked > 40 and near_the_end > 10


@pytest.mark.parametrize("name", sorted(examples.POSITION_REQUESTS))
def test_the_documented_position_examples_are_what_the_route_answers(client, name):
    response = client.post("/v1/analysis/position",
                           json=examples.POSITION_REQUESTS[name]["value"])
    assert response.status_code == 200
    assert response.get_json() == examples.POSITION_RESPONSES[name]["value"]


def test_a_position_is_valued_from_either_players_side(client):
    first = client.post("/v1/analysis/position", json={"scores": [40, 70], "dealer": 0}).get_json()
    second = client.post("/v1/analysis/position", json={"scores": [70, 40], "dealer": 1}).get_json()
    assert first["win"] == second["win"][::-1]
    assert first["game_points"] == second["game_points"][::-1]
    assert (first["target"], first["skunk"], first["players"], first["teams"]) == \
        (121, "standard", 2, None)


def test_a_team_position_is_valued_for_each_team(client):
    body = client.post("/v1/analysis/position", json={
        "scores": [60, 70, 80], "dealer": 5, "players": 6, "teams": "3x2"}).get_json()
    assert (body["players"], body["teams"], body["dealer"]) == (6, "3x2", 5)
    assert len(body["win"]) == len(body["game_points"]) == 3
    assert body["win"][2] == max(body["win"])
    assert abs(sum(body["win"]) - 1) <= 2e-4


def test_a_score_at_the_target_is_422(client):
    body = problem(client.post("/v1/analysis/position", json={"scores": [121, 100], "dealer": 0}),
                   422, "game_already_won")
    assert body["field"] == "scores"


@pytest.mark.parametrize("body, code, field, detail", [
    ({"scores": [10, 20, 30], "dealer": 0}, "wrong_score_count", "scores",
     "scores: give 2 scores, one per side, not 3"),
    ({"scores": [10, 20, 30, 40], "dealer": 0, "players": 4, "teams": "2x2"},
     "wrong_score_count", "scores", "scores: give 2 scores, one per side, not 4"),
    ({"scores": [10, 20], "dealer": 2}, "dealer_out_of_range", "dealer",
     "dealer: with 2 players the dealer is a seat from 0 to 1, not 2"),
    ({"scores": [10, 20], "dealer": 0, "players": 3, "teams": "2x2"}, "invalid_teams", "teams",
     "teams: teams 2x2 do not fit 3 players"),
    ({"scores": [10, 20, 121], "dealer": 0, "players": 3}, "game_already_won", "scores",
     "scores: a score has already reached 121"),
])
def test_positions_no_game_has_are_refused_naming_the_field(client, body, code, field, detail):
    answer = problem(client.post("/v1/analysis/position", json=body), 422, code)
    assert (answer["field"], answer["detail"]) == (field, detail)


@pytest.mark.parametrize("body, code, detail", [
    ({"scores": [10, 20, 30], "dealer": 0}, "wrong_score_count",
     "scores: da 2 marcadores, uno por bando, no 3"),
    ({"scores": [10, 20, 30], "dealer": 4, "players": 3}, "dealer_out_of_range",
     "dealer: con 3 jugadores el repartidor es un asiento de 0 a 2, no 4"),
])
def test_position_refusals_speak_spanish(client, body, code, detail):
    response = client.post("/v1/analysis/position", json=body, headers={"Accept-Language": "es"})
    assert problem(response, 422, code)["detail"] == detail


@pytest.mark.parametrize("body, field", [
    ({"scores": [10] * 7, "dealer": 0}, "scores"),
    ({"scores": [10, 20], "dealer": 6}, "dealer"),
    ({"scores": [10, 20], "dealer": 0, "players": 7}, "players"),
    ({"scores": [10, 20], "dealer": 0, "teams": "4x1"}, "teams"),
    ({"scores": [10, 20], "dealer": 0, "target": 30}, "target"),
    ({"scores": [10, 20], "dealer": 0, "skunk": "double"}, "skunk"),
])
def test_positions_outside_the_schema_are_validation_problems(client, body, field):
    body = problem(client.post("/v1/analysis/position", json=body), 422, "validation_failed")
    assert list(body["errors"]) == [field]


def test_a_finished_game_is_refused_in_the_callers_language(client):
    response = client.post("/v1/analysis/position", json={"scores": [50, 61], "dealer": 1,
                                                           "target": 61},
                           headers={"Accept-Language": "es"})
    assert problem(response, 422, "game_already_won")["detail"] == \
        "scores: un marcador ya ha llegado a 61"


def test_near_the_end_the_discard_analysis_recommends_the_best_chance_to_win(client):
    body = client.post("/v1/analysis/discard", json={
        "hand": ["10C", "2C", "7C", "6S", "10S", "8C"], "own_crib": False, "own_score": 109,
        "opponent_score": 117}).get_json()
    assert body["discards"][0]["keep"] == ["10C", "2C", "7C", "8C"]
    assert body["discards"][0]["win"] == 0.1655
    assert body["recommendation"] == {"discard": ["10C", "10S"], "keep": ["2C", "7C", "6S", "8C"]}
    assert max(option["win"] for option in body["discards"]) == 0.2364


def test_far_from_the_end_the_discard_analysis_gives_no_chance_to_win(client):
    body = client.post("/v1/analysis/discard", json={
        "hand": ["10C", "2C", "7C", "6S", "10S", "8C"], "own_crib": False, "own_score": 60,
        "opponent_score": 80}).get_json()
    assert {option["win"] for option in body["discards"]} == {None}
    assert body["recommendation"]["keep"] == ["10C", "2C", "7C", "8C"]


def test_a_discard_with_a_score_at_the_target_is_422(client):
    body = problem(client.post("/v1/analysis/discard", json={
        "hand": ["10C", "2C", "7C", "6S", "10S", "8C"], "own_crib": False,
        "opponent_score": 121}), 422, "game_already_won")
    assert body["field"] == "opponent_score"
