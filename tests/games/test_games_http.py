"""The games endpoints over HTTP on the embedded store: status codes, headers, bodies."""

from __future__ import annotations

import base64
import hashlib
import json

from service.games import ActionRequest
from service.games.idempotency import action_key, join_key
from tests.games.helpers import COMPUTER, HUMAN, Player, create, first_legal

PROBLEM = "application/problem+json"


def versus_computer(client, **options) -> Player:
    return Player.creator(client, create(client, [HUMAN, COMPUTER], options))


def play_to(player: Player, phase: str) -> dict:
    """Act with the first legal action until the game reaches `phase`; return the game."""
    game = player.read()
    while game["view"]["phase"] != phase:
        game = player.act(first_legal(game["view"]))
    return game


def test_creating_a_game_returns_its_id_the_creators_token_and_location(client):
    seats = [{"kind": "human", "name": "Ana"}, COMPUTER]
    response = client.post("/v1/games", json={"seats": seats})
    body = response.get_json()
    assert response.status_code == 201
    assert response.headers["Location"] == f"/v1/games/{body['game_id']}"
    assert response.headers["ETag"] == '"1-0"'
    assert len(body["game_id"]) == 16
    assert len(base64.urlsafe_b64decode(body["token"] + "==")) == 16
    assert (body["seat"], body["invites"]) == (0, [])
    game = body["game"]
    # Events: the opening cut round, then the computer's cut.
    assert (game["version"], game["seat"], game["last_event"]) == (1, 0, 2)
    assert game["seats"] == [
        {"seat": 0, "kind": "human", "name": "Ana", "taken": True, "connected": True},
        {"seat": 1, "kind": "computer", "name": "Computer 2", "taken": True, "connected": True,
         "level": "first"},
    ]
    view = game["view"]
    # The computer has already cut for the deal; the human is the one left to act.
    assert view["phase"] == "cut_for_deal"
    assert view["to_act"] == [0]
    assert view["cut_for_deal"]["cards"][0] is None
    assert view["cut_for_deal"]["cards"][1] is not None
    assert view["legal_actions"] == [{"type": "cut_for_deal", "min_depth": 4, "max_depth": 47}]


def test_other_human_seats_get_invite_codes_that_work_once(client):
    created = create(client, [HUMAN, HUMAN, COMPUTER, HUMAN], creator_seat=3)
    assert created["seat"] == 3
    invites = created["invites"]
    assert [invite["seat"] for invite in invites] == [0, 1]
    game_id = created["game_id"]
    joined = client.post(f"/v1/games/{game_id}/join",
                         json={"code": invites[1]["code"], "name": "Bea"})
    body = joined.get_json()
    assert joined.status_code == 200
    assert (body["seat"], body["game"]["seat"]) == (1, 1)
    assert body["game"]["seats"][1] == {"seat": 1, "kind": "human", "name": "Bea", "taken": True,
                                         "connected": True}
    assert body["game"]["seats"][0]["taken"] is False
    again = client.post(f"/v1/games/{game_id}/join", json={"code": invites[1]["code"]})
    assert (again.status_code, again.get_json()["code"]) == (409, "seat_taken")
    wrong = client.post(f"/v1/games/{game_id}/join", json={"code": "not-a-code"})
    assert (wrong.status_code, wrong.get_json()["code"]) == (403, "invalid_invite")
    other = create(client, [HUMAN, HUMAN])
    elsewhere = client.post(f"/v1/games/{other['game_id']}/join", json={"code": invites[0]["code"]})
    assert (elsewhere.status_code, elsewhere.content_type) == (403, PROBLEM)


def test_a_join_retried_with_its_idempotency_key_gets_the_same_token(client, store):
    created = create(client, [HUMAN, HUMAN, HUMAN])
    game_id, code = created["game_id"], created["invites"][0]["code"]

    def join(name: str, key: str):
        return client.post(f"/v1/games/{game_id}/join", json={"code": code, "name": name},
                           headers={"Idempotency-Key": key})

    first, retry = join("Bea", "j1"), join("Bea", "j1")
    assert first.status_code == retry.status_code == 200
    assert retry.get_json() == first.get_json()
    assert retry.headers["Idempotent-Replayed"] == "true"
    token = first.get_json()["token"]
    assert Player(client, game_id, token, 1).read()["seat"] == 1
    record = store.load(game_id, join_key(code, "j1")).replay
    assert token not in record and code not in record and "j1" not in record
    renamed = join("Eva", "j1")
    assert (renamed.status_code, renamed.get_json()["code"]) == (422, "idempotency_key_reused")
    other_key = join("Bea", "j2")
    assert (other_key.status_code, other_key.get_json()["code"]) == (409, "seat_taken")


def test_the_store_keeps_only_hashes_of_tokens_and_invite_codes(client, store):
    created = create(client, [HUMAN, HUMAN, HUMAN])
    joined = client.post(f"/v1/games/{created['game_id']}/join",
                         json={"code": created["invites"][0]["code"]}).get_json()
    data = store.load(created["game_id"]).data
    secrets_ = [created["token"], joined["token"], *(i["code"] for i in created["invites"])]
    for secret in secrets_:
        assert secret not in data
        assert hashlib.sha256(secret.encode()).hexdigest() in data


def test_create_refuses_tables_it_cannot_seat(client):
    cases = [
        ({"seats": [COMPUTER, COMPUTER]}, 422, "no_human_seat"),
        ({"seats": [HUMAN, COMPUTER], "creator_seat": 1}, 422, "creator_not_human"),
        ({"seats": [HUMAN, COMPUTER], "creator_seat": 4}, 422, "creator_not_human"),
        ({"seats": [HUMAN, HUMAN, HUMAN], "options": {"teams": "2x2"}}, 422, "invalid_options"),
        ({"seats": [HUMAN, HUMAN], "options": {"muggins": "auto"}}, 422, "invalid_options"),
        ({"seats": [HUMAN]}, 422, "validation_failed"),
        ({"seats": [HUMAN, {"kind": "computer", "level": "genius"}]}, 422, "validation_failed"),
        ({"seats": [HUMAN, HUMAN], "options": {"players": 2}}, 422, "validation_failed"),
        ({"seats": [HUMAN, HUMAN], "options": {"target": 30}}, 422, "validation_failed"),
    ]
    for body, status, code in cases:
        response = client.post("/v1/games", json=body)
        assert (response.status_code, response.get_json()["code"]) == (status, code), body
        assert response.content_type == PROBLEM


def test_a_seat_sees_its_cards_a_spectator_does_not(client):
    player = versus_computer(client)
    game = play_to(player, "discard")
    spectator = Player(client, player.game_id, None, None)
    watched = spectator.read()
    assert len(game["view"]["hand"]) == 6
    assert game["view"]["legal_actions"][0]["type"] == "discard"
    assert watched["seat"] is None
    assert (watched["view"]["hand"], watched["view"]["legal_actions"]) == (None, [])
    assert watched["view"]["hand_sizes"] == [6, 4]  # the computer has discarded already
    assert spectator.get().headers["ETag"] == f'"{game["version"]}-spectator"'


def test_reads_carry_an_etag_and_answer_304_while_nothing_changed(client):
    player = versus_computer(client)
    first = player.get()
    etag = first.headers["ETag"]
    assert etag == '"1-0"'
    assert "Authorization" in first.headers["Vary"]
    assert first.headers["Cache-Control"] == "private, no-cache"
    unchanged = player.get(If_None_Match=etag)
    assert (unchanged.status_code, unchanged.data, unchanged.headers["ETag"]) == (304, b"", etag)
    assert player.get(If_None_Match=f'"0-0", W/{etag}').status_code == 304
    player.act({"type": "cut_for_deal", "depth": None})
    changed = player.get(If_None_Match=etag)
    assert changed.status_code == 200
    assert changed.headers["ETag"] == f'"{changed.get_json()["version"]}-0"'


def test_acting_needs_the_token_of_a_seat_of_this_game(client):
    player = versus_computer(client)
    cut = {"type": "cut_for_deal", "depth": None}
    anonymous = Player(client, player.game_id, None, None).post(cut)
    assert anonymous.status_code == 401
    assert anonymous.headers["WWW-Authenticate"] == "Bearer"
    assert anonymous.get_json()["code"] == "missing_token"
    basic = client.post(f"/v1/games/{player.game_id}/actions", json=cut,
                        headers={"Authorization": "Basic dXNlcjpwYXNz"})
    assert (basic.status_code, basic.get_json()["code"]) == (401, "missing_token")
    stranger = versus_computer(client)
    wrong_game = Player(client, player.game_id, stranger.token, 0).post(cut)
    assert (wrong_game.status_code, wrong_game.get_json()["code"]) == (403, "invalid_token")
    assert Player(client, player.game_id, stranger.token, 0).get().status_code == 403
    for path in (f"/v1/games/{player.game_id}", f"/v1/games/{player.game_id}/events"):
        read = client.get(path, headers={"Authorization": "Basic dXNlcjpwYXNz"})
        assert (read.status_code, read.headers["WWW-Authenticate"]) == (401, "Bearer")
    other_seat = player.post({**cut, "seat": 1})
    assert (other_seat.status_code, other_seat.get_json()["code"]) == (403, "not_your_seat")
    assert player.read()["version"] == 1


def test_unknown_games_are_404_problems(client):
    for path in ("/v1/games/AAAAAAAAAAAAAAAA", "/v1/games/short", "/v1/games/{x}xxxxxxxxxxxxx",
                 "/v1/games/AAAAAAAAAAAAAAAA/events"):
        response = client.get(path)
        assert (response.status_code, response.content_type) == (404, PROBLEM), path
    response = client.post("/v1/games/AAAAAAAAAAAAAAAA/actions", json={"type": "resign"},
                           headers={"Authorization": "Bearer abc"})
    assert (response.status_code, response.get_json()["code"]) == (404, "game_not_found")


def test_rule_violations_are_409_with_the_engine_code_in_the_clients_language(client):
    player = versus_computer(client)
    game = play_to(player, "discard")
    hand = game["view"]["hand"]
    early = player.post({"type": "play", "card": hand[0]})
    assert (early.status_code, early.get_json()["code"]) == (409, "wrong_phase")
    foreign = next(card for card in ("AS", "2S", "3S", "4S", "5S", "6S", "7S") if card not in hand)
    missing = player.post({"type": "discard", "cards": [hand[0], foreign]}, Accept_Language="es")
    body = missing.get_json()
    assert missing.status_code == 409
    assert (body["code"], body["title"]) == ("card_not_in_hand", "Carta ausente")
    assert body["detail"] == f"{foreign} no está en su mano"
    assert missing.headers["Content-Language"] == "es"
    one = player.post({"type": "discard", "cards": [hand[0]]})
    assert (one.status_code, one.get_json()["code"]) == (409, "wrong_discard_count")
    garbled = player.post({"type": "discard", "cards": ["5X", hand[0]]})
    assert (garbled.status_code, garbled.get_json()["code"]) == (422, "unknown_card")
    unknown = player.post({"type": "fly"})
    assert (unknown.status_code, unknown.get_json()["code"]) == (422, "validation_failed")
    assert player.read()["version"] == game["version"]


def test_a_claim_above_what_any_show_is_worth_is_refused_not_given_to_the_opponent(client):
    player = Player.creator(client, create(client, [HUMAN, COMPUTER],
                                           {"counting": "manual", "muggins": "auto"}))
    game = play_to(player, "show")
    over = player.post({"type": "claim", "points": 47})
    body = over.get_json()
    assert (over.status_code, body["code"]) == (422, "validation_failed")
    assert body["errors"] == {"points": ["Must be greater than or equal to 0 and less than or "
                                         "equal to 46."]}
    assert player.read()["version"] == game["version"]


def test_a_bare_rank_names_the_only_held_card_of_that_rank(client):
    player = versus_computer(client)
    hand = play_to(player, "discard")["view"]["hand"]
    ranks = [card[:-1] for card in hand]
    single = next(card for card in hand if ranks.count(card[:-1]) == 1)
    other = next(card for card in hand if card != single)
    game = player.act({"type": "discard", "cards": [single[:-1].lower(), other]})
    assert sorted(game["view"]["kept"]) == sorted(c for c in hand if c not in (single, other))


def test_a_play_is_sent_in_the_shape_of_its_legal_action(client):
    player = versus_computer(client)
    game = play_to(player, "play")
    legal = game["view"]["legal_actions"]
    assert [option["type"] for option in legal] == ["play"]
    option = legal[0]
    assert option["count"] == 1 and option["cards"] == game["view"]["kept"]
    # Copied whole, the legal action offers every card: choosing `count` of them is the action.
    copied = player.post({"type": "play", "cards": option["cards"]}, Accept_Language="es")
    assert copied.status_code == 422
    assert copied.get_json()["errors"] == {"cards": ["La longitud debe ser 1."]}
    both = player.post({"type": "play", "cards": option["cards"][:1], "card": option["cards"][0]})
    assert (both.status_code, both.get_json()["code"]) == (422, "invalid_action")
    neither = player.post({"type": "play"})
    assert (neither.status_code, neither.get_json()["code"]) == (422, "invalid_action")
    assert player.read()["version"] == game["version"]
    played = player.post({"type": "play", "cards": option["cards"][:1]},
                         Idempotency_Key="lead")
    assert played.status_code == 200
    assert {"seat": 0, "card": option["cards"][0]} in played.get_json()["view"]["table"]
    # `card` says the same: a retry in the other spelling is the same request, not a new one.
    retry = player.post({"type": "play", "card": option["cards"][0]}, Idempotency_Key="lead")
    assert (retry.status_code, retry.headers["Idempotent-Replayed"]) == (200, "true")


def test_an_idempotent_retry_returns_the_first_response_and_applies_nothing(client):
    player = versus_computer(client)
    hand = play_to(player, "discard")["view"]["hand"]
    discard = {"type": "discard", "cards": hand[:2]}
    first = player.post(discard, Idempotency_Key="discard-1")
    retry = player.post(discard, Idempotency_Key="discard-1")
    assert first.status_code == retry.status_code == 200
    assert retry.get_json() == first.get_json()
    assert retry.headers["ETag"] == first.headers["ETag"]
    assert retry.headers["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in first.headers
    game = player.read()
    assert (game["version"], game["last_event"]) == (first.get_json()["version"],
                                                      first.get_json()["last_event"])
    reused = player.post({"type": "discard", "cards": hand[2:4]}, Idempotency_Key="discard-1")
    assert (reused.status_code, reused.get_json()["code"]) == (422, "idempotency_key_reused")
    bad = player.post(discard, Idempotency_Key="x" * 256)
    assert (bad.status_code, bad.get_json()["code"]) == (422, "invalid_idempotency_key")
    assert player.read()["version"] == game["version"]


def test_idempotency_keys_belong_to_one_seat(client):
    created = create(client, [HUMAN, HUMAN])
    ana = Player.creator(client, created)
    bea = Player.joining(client, ana.game_id, created["invites"][0]["code"])
    first = ana.act({"type": "cut_for_deal", "depth": 10}, Idempotency_Key="cut")
    second = bea.act({"type": "cut_for_deal", "depth": 10}, Idempotency_Key="cut")
    assert (first["seat"], second["seat"]) == (0, 1)
    assert second["version"] == first["version"] + 1
    cuts = [e for e in bea.events().get_json()["events"] if e["type"] == "dealer_cut"]
    assert [(cut["seat"], cut["depth"]) for cut in cuts[:2]] == [(0, 10), (1, 10)]


def test_a_retry_after_the_game_moved_on_gets_the_game_now_and_applies_nothing(client):
    created = create(client, [HUMAN, HUMAN])
    ana = Player.creator(client, created)
    bea = Player.joining(client, ana.game_id, created["invites"][0]["code"])
    cut = {"type": "cut_for_deal", "depth": 10}
    first = ana.post(cut, Idempotency_Key="cut")
    bea.act({"type": "cut_for_deal", "depth": 12})
    retry = ana.post(cut, Idempotency_Key="cut")
    now = ana.read()
    assert retry.status_code == 200
    assert retry.headers["Idempotent-Replayed"] == "true"
    assert retry.get_json() == now
    assert (first.get_json()["version"], now["version"]) == (3, 4)
    cuts = [e for e in bea.events().get_json()["events"] if e["type"] == "dealer_cut"]
    assert [(e["seat"], e["depth"]) for e in cuts] == [(0, 10), (1, 12)]


def test_an_idempotency_record_keeps_the_fingerprint_version_and_seat_only(client, store):
    player = versus_computer(client)
    key = "k" * 255
    cut = {"type": "cut_for_deal", "depth": 10}
    first = player.act(cut, Idempotency_Key=key)
    record = store.load(player.game_id, action_key(player.token, key)).replay
    fingerprint = ActionRequest("cut_for_deal", depth=10).fingerprint()
    assert json.loads(record) == {"fingerprint": fingerprint, "version": first["version"],
                                  "seat": 0}
    assert len(fingerprint) == len(action_key(player.token, key)) == 32


def test_if_match_with_a_stale_etag_is_412(client):
    player = versus_computer(client)
    etag = player.get().headers["ETag"]
    cut = {"type": "cut_for_deal", "depth": 20}
    ok = player.post(cut, If_Match=etag)
    assert ok.status_code == 200
    game = play_to(player, "discard")
    hand = game["view"]["hand"]
    stale = player.post({"type": "discard", "cards": hand[:2]}, If_Match=etag)
    assert (stale.status_code, stale.get_json()["code"]) == (412, "version_mismatch")
    garbage = player.post({"type": "discard", "cards": hand[:2]}, If_Match="nonsense")
    assert (garbage.status_code, garbage.get_json()["code"]) == (400, "invalid_if_match")
    foreign = player.post({"type": "discard", "cards": hand[:2]}, If_Match='"nonsense"')
    assert (foreign.status_code, foreign.get_json()["code"]) == (412, "version_mismatch")
    current = player.get().headers["ETag"]
    assert player.post({"type": "discard", "cards": hand[:2]}, If_Match=current).status_code == 200


def test_if_match_is_read_as_a_list_of_entity_tags(client):
    player = versus_computer(client)
    cut = {"type": "cut_for_deal", "depth": 20}
    version = player.get().get_json()["version"]
    # A comma inside a quoted tag and empty list elements are allowed (RFC 9110 5.6.1, 8.8.3).
    ours = f'"a,b" , ,W/"{version}-0",'
    assert player.post(cut, If_Match=ours).status_code == 200
    huge = player.post(cut, If_Match='"' + "9" * 5000 + '-0"')
    assert (huge.status_code, huge.get_json()["code"]) == (412, "version_mismatch")
    unquoted = player.post(cut, If_Match=f'"{version}-0" , {version}-0', Accept_Language="es")
    assert unquoted.status_code == 400
    assert (unquoted.get_json()["code"], unquoted.get_json()["detail"]) == (
        "invalid_if_match", 'If-Match debe listar etiquetas entre comillas, como "7-0", o ser *')


def test_if_match_star_accepts_any_version(client):
    player = versus_computer(client)
    assert player.post({"type": "cut_for_deal", "depth": None}, If_Match="*").status_code == 200


def test_computer_seats_move_before_the_response_returns(client):
    player = versus_computer(client)
    game = player.read()
    actions = 0
    while game["view"]["phase"] != "game_over":
        assert game["view"]["to_act"] == [0], game["view"]
        game = player.act(first_legal(game["view"]))
        actions += 1
    assert game["view"]["winner"] in (0, 1)
    assert max(game["view"]["scores"]) >= 121
    assert actions > 20
    events = player.events().get_json()
    assert events["last_event"] == game["last_event"] == len(events["events"])


def test_resigning_ends_the_game_for_the_other_side(client):
    player = versus_computer(client)
    game = player.act({"type": "resign"})
    assert (game["view"]["phase"], game["view"]["winner"]) == ("game_over", 1)
    after = player.post({"type": "cut_for_deal", "depth": None})
    assert (after.status_code, after.get_json()["code"]) == (409, "game_over")


def test_in_a_match_computers_leave_next_game_to_the_humans(client):
    player = versus_computer(client, match=True, target=31)
    game = play_to(player, "game_over")
    assert game["view"]["to_act"] == [0]  # computer seats are never listed among those to act
    assert player.read()["view"]["phase"] == "game_over"
    game = player.act({"type": "next_game"})
    assert game["view"]["game_number"] == 2
    game = play_to(player, "game_over")
    game = player.act({"type": "end_match"})
    assert game["view"]["phase"] == "match_over"
    assert len(game["view"]["results"]) == 2


def test_the_event_log_opens_with_the_first_cut_round_and_its_commitment(client):
    player = versus_computer(client)
    game = player.read()
    first = player.events().get_json()["events"][0]
    assert first == {"number": 1, "time": "2027-01-15T08:00:00.000Z", "type": "cut_round",
                     "round": 1, "seats": [0, 1],
                     "seed_commitment": game["view"]["seed_commitment"]}


def test_events_carry_the_servers_time_of_their_write_in_utc_with_milliseconds(client, clock):
    player = versus_computer(client)
    created = player.read()["last_event"]
    clock.advance(3723.4567)  # 1 h 2 min 3.4567 s after the creation
    game = player.act({"type": "cut_for_deal", "depth": None})
    events = player.events().get_json()["events"]
    created_at = ["2027-01-15T08:00:00.000Z"] * created
    assert [event["time"] for event in events[:created]] == created_at
    assert [event["time"] for event in events[created:]] == (
        ["2027-01-15T09:02:03.456Z"] * (game["last_event"] - created))
    assert game["last_event"] > created


def test_events_are_numbered_and_show_private_parts_only_to_their_seat(client):
    player = versus_computer(client)
    game = play_to(player, "discard")
    seat_events = player.events().get_json()
    spectator_events = Player(client, player.game_id, None, None).events().get_json()
    numbers = [event["number"] for event in seat_events["events"]]
    assert numbers == list(range(1, game["last_event"] + 1))
    assert seat_events["last_event"] == spectator_events["last_event"] == game["last_event"]
    dealt = next(e for e in seat_events["events"] if e["type"] == "dealt")
    assert sorted(dealt["cards"]) == sorted(game["view"]["hand"])
    watched = next(e for e in spectator_events["events"] if e["type"] == "dealt")
    assert "cards" not in watched
    assert {k: v for k, v in dealt.items() if k != "cards"} == watched
    later = player.events(after=game["last_event"] - 2).get_json()
    assert [e["number"] for e in later["events"]] == [game["last_event"] - 1, game["last_event"]]
    beyond = player.events(after=game["last_event"] + 1)
    assert (beyond.status_code, beyond.get_json()["code"]) == (422, "after_out_of_range")
    assert player.events(after=-1).status_code == 422
    assert player.events(wait=26).status_code == 422


def test_a_long_poll_with_nothing_new_returns_empty_after_the_wait(client):
    player = versus_computer(client)
    last = player.read()["last_event"]
    body = player.events(after=last, wait=0.2).get_json()
    assert (body["events"], body["last_event"]) == ([], last)


def test_a_long_poll_returns_as_soon_as_another_seat_acts(app):
    import threading

    client = app.test_client()
    created = create(client, [HUMAN, HUMAN])
    ana = Player.creator(client, created)
    bea = Player.joining(app.test_client(), ana.game_id, created["invites"][0]["code"])
    last = ana.read()["last_event"]
    timer = threading.Timer(0.3, bea.act, args=({"type": "cut_for_deal", "depth": 7},))
    timer.start()
    try:
        body = ana.events(after=last, wait=20).get_json()
    finally:
        timer.join()
    assert body["events"][0]["type"] == "dealer_cut"
    assert (body["events"][0]["seat"], body["events"][0]["depth"]) == (1, 7)
    assert body["events"][0]["number"] == last + 1


def test_problem_bodies_are_json_documents(client):
    response = client.post("/v1/games", data="{", content_type="application/json")
    assert (response.status_code, response.content_type) == (400, PROBLEM)
    assert json.loads(response.data)["code"] == "invalid_json"


def test_an_idle_game_expires(clock):
    from service.store import MemoryGameStore
    from tests.games.conftest import make_app
    from tests.store.conftest import FakeClock

    idle = FakeClock()
    client = make_app(MemoryGameStore(600, clock=idle), clock).test_client()
    player = versus_computer(client)
    idle.advance(599)
    player.act({"type": "cut_for_deal", "depth": None})  # a write: the idle time starts again
    idle.advance(599)
    assert player.get().status_code == 200
    idle.advance(2)
    gone = player.get()
    assert (gone.status_code, gone.get_json()["code"]) == (404, "game_not_found")
