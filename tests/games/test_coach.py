"""The coach in games: the post-game analysis and who may see it, hints, preset positions and
duplicate deals, over HTTP."""
from __future__ import annotations

import pytest

from tests.games.helpers import HUMAN, Player, create, first_legal

HARD = {"kind": "computer", "level": "hard"}


def analysis(player: Player) -> dict:
    response = player.client.get(f"/v1/games/{player.game_id}/analysis",
                                 headers=player.headers())
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def play_until(player: Player, done) -> dict:
    """Act for the player (its first legal action) until `done(view)`; returns that view."""
    while True:
        view = player.read()["view"]
        if done(view):
            return view
        player.act(first_legal(view))


def test_a_seat_sees_its_decisions_once_the_show_is_over_and_every_seat_s_at_the_end(client):
    """With a fixed deck, Ana throws 5D QH (a fifteen) into the computer's crib: the analysis
    charges her exactly what the discard analysis says that costs."""
    created = create(client, [HUMAN, HARD], {"target": 61, "first_dealer": 1,
                                             "deck_seed": "coach test 3"})
    ana = Player.creator(client, created)
    spectator = Player(client, ana.game_id, None, None)
    hand = ana.read()["view"]["hand"]
    assert hand == ["5D", "JH", "QH", "JC", "2S", "KH"]
    empty = {"game_id": ana.game_id, "complete": False, "hands": [], "decisions": []}
    assert analysis(ana) == {**empty, "seat": 0,
                             "seats": [{"seat": 0, "side": 0, "decisions": 0, "points_lost": 0.0,
                                        "win_chance_lost": 0.0, "worst": []}],
                             "sides": [{"side": 0, "seats": [0], "decisions": 0,
                                        "points_lost": 0.0, "win_chance_lost": 0.0}]}
    ana.act({"type": "discard", "cards": ["5D", "QH"]})
    assert analysis(ana)["decisions"] == []  # the hand is still being played

    play_until(ana, lambda view: view["hand_number"] == 2 or view["phase"] == "game_over")
    own = analysis(ana)
    assert own["hands"] == [1] and {d["seat"] for d in own["decisions"]} == {0}
    discard = own["decisions"][0]
    report = client.post("/v1/analysis/discard", json={"hand": hand, "own_crib": False}).json
    chosen = next(row for row in report["discards"] if row["discard"] == ["5D", "QH"])
    assert discard == {"hand_number": 1, "game_number": 1, "seat": 0, "kind": "discard",
                       "dealer": 1, "scores": [0, 0], "held": hand, "pile": [],
                       "chosen": ["5D", "QH"], "best": report["recommendation"]["discard"],
                       "points_lost": 9.2099, "win_chance_lost": 0.2347}
    assert abs(discard["points_lost"] - (report["discards"][0]["net"] - chosen["net"])) < 2e-4
    assert own["seats"][0]["worst"][0] == 0 and own["seats"][0]["decisions"] == len(
        own["decisions"])
    assert analysis(spectator)["decisions"] == []

    play_until(ana, lambda view: view["phase"] == "game_over")
    final = analysis(spectator)
    assert final["complete"] and final["seat"] is None
    assert {d["seat"] for d in final["decisions"]} == {0, 1}
    assert [s["seat"] for s in final["seats"]] == [0, 1]
    computer = final["seats"][1]
    assert computer["win_chance_lost"] == 0.0
    assert final["sides"][0]["points_lost"] == final["seats"][0]["points_lost"]
    assert analysis(ana) == {**final, "seat": 0}


def test_teams_are_summed_per_side_win_chance_included(client):
    created = create(client, [HUMAN, HARD, HARD, HARD],
                     {"target": 31, "teams": "2x2", "first_dealer": 3})
    ana = Player.creator(client, created)
    play_until(ana, lambda view: view["phase"] == "game_over")
    final = analysis(ana)
    assert [side["seats"] for side in final["sides"]] == [[0, 2], [1, 3]]
    for side in final["sides"]:
        members = [final["seats"][seat] for seat in side["seats"]]
        assert side["decisions"] == sum(member["decisions"] for member in members)
        assert side["win_chance_lost"] == pytest.approx(
            sum(member["win_chance_lost"] for member in members), abs=2e-4)
    computers = [d for d in final["decisions"] if d["seat"] != 0]
    assert all(d["best"] == d["chosen"] for d in computers)
    assert {d["win_chance_lost"] for d in computers} == {0.0}
    assert all(0 <= d["win_chance_lost"] < 1 for d in final["decisions"])


def test_hints_show_the_seat_to_act_what_hard_would_do(client):
    created = create(client, [HUMAN, HUMAN], {"hints": True, "first_dealer": 1,
                                              "deck_seed": "coach test 1"})
    ana = Player.creator(client, created)
    bea = Player.joining(client, ana.game_id, created["invites"][0]["code"])
    spectator = Player(client, ana.game_id, None, None)
    view = ana.read()["view"]
    assert view["options"]["hints"] is True and spectator.read()["view"]["hint"] is None
    # every seat, and a spectator, sees that hints are on
    assert [viewer.read()["view"]["options"]["hints"] for viewer in (bea, spectator)] == [
        True, True]
    report = client.post("/v1/analysis/discard",
                         json={"hand": view["hand"], "own_crib": False}).json
    assert view["hint"] == {"kind": "discard", "options": [
        {"cards": row["discard"], "expected": row["net"], "win_chance": None}
        for row in report["discards"][:3]]}
    ana.act({"type": "discard", "cards": view["hint"]["options"][0]["cards"]})
    assert ana.read()["view"]["hint"] is None  # Bea has yet to discard: not Ana's turn
    assert bea.read()["view"]["hint"]["kind"] == "discard"
    bea.act(first_legal(bea.read()["view"]))
    view = play_until(ana, lambda view: view["phase"] == "play" and view["turn"] == 0)
    hint = view["hint"]
    assert hint["kind"] == "play" and bea.read()["view"]["hint"] is None
    legal = next(o for o in view["legal_actions"] if o["type"] == "play")["cards"]
    assert sorted(option["cards"][0] for option in hint["options"]) == sorted(legal)
    assert [o["expected"] for o in hint["options"]] == sorted(
        (o["expected"] for o in hint["options"]), reverse=True)


def test_without_the_option_no_view_has_a_hint(client):
    ana = Player.creator(client, create(client, [HUMAN, HARD], {"first_dealer": 0}))
    assert ana.read()["view"]["options"]["hints"] is False
    assert ana.read()["view"]["hint"] is None


def test_a_preset_position_starts_at_its_scores_with_its_dealer(client):
    created = create(client, [HUMAN, HUMAN, HUMAN],
                     {"target": 121, "start_scores": [110, 95, 100], "first_dealer": 2})
    view = created["game"]["view"]
    assert (view["phase"], view["scores"], view["dealer"]) == ("discard", [110, 95, 100], 2)
    assert view["options"]["start_scores"] == [110, 95, 100]
    refused = client.post("/v1/games", json={"seats": [HUMAN, HUMAN],
                                             "options": {"start_scores": [121, 0]}})
    assert (refused.status_code, refused.json["code"], refused.json["field"]) == (
        422, "invalid_options", "start_scores")


def test_duplicate_deals_give_the_same_cards_to_the_same_seats_and_hide_the_deck_seed(client):
    seed = "final, board 7: 5b1f0c9e"
    games = [create(client, [HUMAN, HARD], {"deck_seed": seed, "first_dealer": 1})
             for _ in range(2)]
    other = create(client, [HUMAN, HARD], {"deck_seed": seed + ".", "first_dealer": 1})
    views = [game["game"]["view"] for game in (*games, other)]
    assert games[0]["game_id"] != games[1]["game_id"]
    assert views[0]["hand"] == views[1]["hand"] != views[2]["hand"]
    assert views[0]["game_seed_commitment"] == views[1]["game_seed_commitment"] \
        != views[2]["game_seed_commitment"]
    assert "deck_seed" not in views[0]["options"]
    for game in games:
        player = Player.creator(client, game)
        assert seed not in player.get().get_data(as_text=True)
        assert seed not in player.events().get_data(as_text=True)
    refused = client.post("/v1/games", json={"seats": [HUMAN, HUMAN],
                                             "options": {"deck_seed": ""}})
    assert refused.status_code == 422


def test_every_seat_is_told_whether_the_creator_preset_the_deck(client):
    """Whoever chose a deck_seed knows every hand: the seats that join must know a deck was
    preset (never the seed); a rematch is shuffled afresh, so its deck is not preset."""
    seed = "creator knows: 41c7"
    for options, preset in (({"deck_seed": seed, "first_dealer": 1}, True),
                            ({"first_dealer": 1}, False)):
        created = create(client, [HUMAN, HUMAN], options)
        ana = Player.creator(client, created)
        bea = Player.joining(client, ana.game_id, created["invites"][0]["code"])
        spectator = Player(client, ana.game_id, None, None)
        assert created["game"]["view"]["options"]["preset_deck"] is preset
        for viewer in (ana, bea, spectator):
            response = viewer.get()
            assert response.get_json()["view"]["options"]["preset_deck"] is preset
            assert seed not in response.get_data(as_text=True)
            assert seed not in viewer.events().get_data(as_text=True)
        ana.act({"type": "resign"})
        offered = client.post(f"/v1/games/{ana.game_id}/rematch", headers=ana.headers())
        started = client.post(f"/v1/games/{ana.game_id}/rematch", headers=bea.headers())
        assert (offered.status_code, started.status_code) == (202, 201)
        assert started.get_json()["game"]["view"]["options"]["preset_deck"] is False
    refused = client.post("/v1/games", json={"seats": [HUMAN, HUMAN],
                                             "options": {"preset_deck": True}})
    assert (refused.status_code, refused.json["code"], refused.json["detail"]) == (
        422, "validation_failed", "The request is not valid: options.preset_deck")


def test_a_hint_in_a_team_game_values_the_partner_s_crib_as_the_seat_s_own(client):
    """Four in teams, Ana's partner (seat 2) deals: her hint is the discard analysis of a crib
    of her own side, for four players in 2x2, with no chance to win (more than two players)."""
    created = create(client, [HUMAN, HARD, HARD, HARD],
                     {"teams": "2x2", "hints": True, "first_dealer": 2,
                      "deck_seed": "coach test teams"})
    view = Player.creator(client, created).read()["view"]
    report = client.post("/v1/analysis/discard", json={
        "hand": view["hand"], "players": 4, "teams": "2x2", "own_crib": True}).json
    assert view["hint"] == {"kind": "discard", "options": [
        {"cards": row["discard"], "expected": row["net"], "win_chance": None}
        for row in report["discards"][:3]]}
    assert len(view["hand"]) == 5 and len(view["hint"]["options"]) == 3
