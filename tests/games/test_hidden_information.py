"""Random games through the API, every response and event checked against what its viewer may see.

Ground truth comes from the store: the test loads the real game state after every request and
works out, for each viewer (every human seat and a spectator), which cards and seeds are hidden
from it: other seats' cards, the crib before it is shown, the undealt deck, the game seed and
the current shuffle seed before it is revealed. None of them may appear in any body it gets,
errors included.
"""

from __future__ import annotations

import json
import random

import pytest

from service.cards import DECK
from service.engine.shuffle import cut_seed, hand_seed
from service.games.record import GameRecord
from service.games.event_log import server_time
from tests.games.conftest import make_app
from tests.games.helpers import COMPUTER, HUMAN, Player, Stream, create, random_action
from tests.webhooks.push_device import Device
from tests.webhooks.receiver import Receiver

SETUPS = {
    "two humans": ([HUMAN, HUMAN], {"target": 61}),
    "two humans, match": ([HUMAN, HUMAN], {"target": 31, "match": True, "hints": True}),
    "three, manual, muggins call": ([HUMAN, HUMAN, HUMAN],
                                    {"target": 61, "counting": "manual", "muggins": "call"}),
    "four, manual": ([HUMAN] * 4, {"target": 61, "counting": "manual"}),
    "four in teams, muggins auto": ([HUMAN, HUMAN, HUMAN, HUMAN],
                                    {"target": 61, "teams": "2x2", "counting": "manual",
                                     "muggins": "auto", "hints": True}),
    "five with a computer": ([HUMAN, HUMAN, COMPUTER, HUMAN, HUMAN], {"target": 61}),
    "six, no teams": ([HUMAN] * 6, {"target": 61, "hints": True}),
    "six, three pairs": ([HUMAN, HUMAN, HUMAN, COMPUTER, HUMAN, HUMAN],
                         {"target": 61, "teams": "3x2", "hints": True}),
    "six, two trios, manual": ([HUMAN] * 6, {"target": 61, "teams": "2x3", "counting": "manual",
                                             "muggins": "call"}),
}
SHOWN = ("show_scored", "claim", "count_timeout")
CARD_NAMES = {str(card) for card in DECK}


class Table:
    """One game: a Player per human seat plus a spectator, and what each of them has seen."""

    def __init__(self, client, store, seats, options):
        created = create(client, seats, options)
        creator = Player.creator(client, created)
        self.store = store
        self.game_id = creator.game_id
        self.players = {creator.seat: creator}
        for invite in created["invites"]:
            self.players[invite["seat"]] = Player.joining(client, self.game_id, invite["code"])
        self.viewers = [*self.players.values(), Player(client, self.game_id, None, None)]
        self.seen_events = {viewer.seat: 0 for viewer in self.viewers}
        self.own_cards: dict[int, set[str]] = {seat: set() for seat in self.players}
        self.hand_number = 0
        self.decisions_shown_early = 0  # own decisions a seat saw analysed before the end
        self.checks_during_a_show = 0   # analyses read with a hand's show under way

    @classmethod
    def seated(cls, client, store, players: list[Player]) -> Table:
        """A table of a game whose human seats are taken by `players`."""
        table = cls.__new__(cls)
        table.store, table.game_id = store, players[0].game_id
        table.players = {player.seat: player for player in players}
        table.viewers = [*players, Player(client, table.game_id, None, None)]
        table.seen_events = {viewer.seat: 0 for viewer in table.viewers}
        table.own_cards = {player.seat: set() for player in players}
        table.hand_number = 0
        table.decisions_shown_early = 0
        table.checks_during_a_show = 0
        return table

    def state(self):
        return GameRecord.from_json(self.store.load(self.game_id).data).state

    def hidden_from(self, state, viewer: int | None) -> tuple[set[str], set[str]]:
        """(cards, seeds) `viewer` must not see in the current state."""
        cards = {str(card) for seat, hand in enumerate(state.hands) if seat != viewer
                 for card in hand}
        crib_counted = state.phase == "show" and state.claimer()[1]  # turned up to be counted
        crib_shown = crib_counted or any(entry["type"] in SHOWN and entry.get("hand") == "crib"
                                         for entry in state.log)
        if not crib_shown:
            cards |= {str(card) for card in state.crib} - self.own_cards.get(viewer, set())
        cards |= {str(card) for card in state.deck}
        seeds = set() if state.over else {  # the game seed, and with it the hands to come
            state.seed.hex(), hand_seed(state.seed, state.hand_number + 1).hex()}
        revealed = {number for number, _ in state.revealed_seeds}
        if state.hand_number and state.hand_number not in revealed:
            seeds.add(hand_seed(state.seed, state.hand_number).hex())
        if state.phase == "cut_for_deal":
            seeds.add(cut_seed(state.seed, state.cut_round).hex())
        return cards, seeds

    def check_everyone(self) -> None:
        state = self.state()
        if state.hand_number != self.hand_number:
            self.hand_number = state.hand_number
            self.own_cards = {seat: set() for seat in self.players}
        raw_events = [json.loads(text) for text in self.store.events(self.game_id, 0)]
        hand_starts = [n for n, e in enumerate(raw_events, 1) if e["type"] == "dealt"]
        current_hand_from = hand_starts[-1] if hand_starts else 1
        for viewer in self.viewers:
            self.check_view(viewer, state)
            self.check_events(viewer, state, raw_events, current_hand_from)
            self.check_analysis(viewer, state, raw_events)

    def check_view(self, viewer: Player, state) -> None:
        response = viewer.get()
        assert response.status_code == 200
        game = response.get_json()
        view = game["view"]
        if viewer.seat is None:
            assert (view["hand"], view["kept"], view["discards"], view["legal_actions"]) == (
                None, None, None, [])
        else:
            hand = [str(card) for card in state.hands[viewer.seat]]
            assert sorted(view["hand"]) == sorted(hand)
            assert view["discards"] == [str(card) for card in state.discards[viewer.seat]]
            self.own_cards[viewer.seat] |= set(hand)
        assert "deck" not in view and "seed" not in view
        assert_hidden(response.get_data(as_text=True), *self.hidden_from(state, viewer.seat))

    def check_events(self, viewer: Player, state, raw_events, current_hand_from: int) -> None:
        after = self.seen_events[viewer.seat]
        response = viewer.events(after=after)
        assert response.status_code == 200
        served = response.get_json()["events"]
        assert [event["number"] for event in served] == list(range(after + 1, len(raw_events) + 1))
        cards, seeds = self.hidden_from(state, viewer.seat)
        seat_state = response.get_json()["state"]
        assert seat_state["legal_actions"] == viewer.read()["view"]["legal_actions"]
        assert_hidden(json.dumps(seat_state), cards, seeds)
        if served:
            self.check_stream(viewer, after, served, seat_state, cards, seeds)
        for event in served:
            raw = raw_events[event["number"] - 1]
            mine = raw["private"].get(str(viewer.seat), {}) if viewer.seat is not None else {}
            expected = {"number": event["number"], "time": raw["time"], "type": raw["type"],
                        **raw["public"], **mine}
            for name in ("deadline", "expires_at"):  # instants are kept as epoch seconds
                if isinstance(expected.get(name), float):
                    expected[name] = server_time(expected[name])
            assert event == expected
            if event["number"] >= current_hand_from:
                assert_hidden(json.dumps(event), cards, seeds)
        self.seen_events[viewer.seat] = len(raw_events)

    def check_stream(self, viewer: Player, after: int, served: list[dict], seat_state: dict,
                     cards: set[str], seeds: set[str]) -> None:
        """The stream from the same point sends what the events reply did, and hides as much."""
        stream = Stream(self.viewers[0].client.get(
            f"/v1/games/{self.game_id}/stream", buffered=False,
            headers=viewer.headers(Last_Event_ID=str(after))))
        snapshot = stream.next_message()
        assert snapshot["event"] == "snapshot" and snapshot["data"] == viewer.read()
        assert_hidden(json.dumps(snapshot["data"]), cards, seeds)
        assert [stream.next_message()["data"] for _ in served] == served
        assert stream.next_message() == {"event": "state", "data": seat_state}
        stream.close()

    def check_analysis(self, viewer: Player, state, raw_events: list[dict]) -> None:
        """Before the game is over for good: a seat's own decisions of hands whose show is over,
        the whole body naming no card but its own of those hands and cards played to the
        table, and nothing of a hand whose show is still under way; a spectator none. No
        hidden seed ever."""
        response = viewer.client.get(f"/v1/games/{self.game_id}/analysis",
                                     headers=viewer.headers())
        assert response.status_code == 200
        analysis = response.get_json()
        assert_hidden(response.get_data(as_text=True), set(), self.hidden_from(state, None)[1])
        assert analysis["complete"] == state.over
        if state.over:
            return
        self.decisions_shown_early += len(analysis["decisions"])
        shown = set(analysis["hands"])
        finished = {event["public"]["hand_number"] for event in raw_events
                    if event["type"] == "hand_revealed"}
        assert shown <= finished
        assert {decision["seat"] for decision in analysis["decisions"]} <= {viewer.seat}
        if viewer.seat is None:
            assert (analysis["hands"], analysis["seats"]) == ([], [])
        allowed, hand = set(), 0
        for event in raw_events:
            hand = event["public"].get("hand_number", hand) if event["type"] == "dealt" else hand
            if hand in shown and event["type"] == "dealt":
                allowed |= set(event["private"][str(viewer.seat)]["cards"])
            if hand in shown and event["type"] == "card_played":
                allowed.add(event["public"]["card"])
        named = cards_named(analysis)
        assert named <= allowed, named - allowed
        if state.phase == "show":  # the play is over, the hands not all counted yet
            assert state.hand_number not in shown
            self.checks_during_a_show += 1

    def probe(self, player: Player, rng: random.Random) -> None:
        """Name a card another seat holds, then one in the deck: the refusals must not differ."""
        state = self.state()
        others = [str(c) for seat, hand in enumerate(state.hands) if seat != player.seat
                  for c in hand]
        deck = [str(c) for c in state.deck]
        if not others or not deck:
            return
        answers = []
        for card in (rng.choice(others), rng.choice(deck)):
            response = player.post({"type": "play", "card": card})
            assert response.status_code in (409, 422), (card, response.get_json())
            text = response.get_data(as_text=True)
            cards, seeds = self.hidden_from(state, player.seat)
            assert_hidden(text, cards - {card}, seeds)
            answers.append(text.replace(card, "<card>"))
        assert answers[0] == answers[1]


def cards_named(body) -> set[str]:
    """Every card named anywhere in a JSON body."""
    if isinstance(body, str):
        return {body} & CARD_NAMES
    if isinstance(body, dict):
        body = list(body.values())
    if isinstance(body, list):
        return set().union(*(cards_named(item) for item in body))
    return set()


def assert_hidden(text: str, cards: set[str], seeds: set[str]) -> None:
    leaked = sorted(card for card in cards if f'"{card}"' in text)
    assert not leaked, f"hidden cards {leaked} in {text[:2000]}"
    assert not [seed for seed in seeds if seed in text], f"hidden seed in {text[:2000]}"


@pytest.mark.parametrize("setup", sorted(SETUPS))
@pytest.mark.parametrize("game_seed", [1, 2])
def test_no_response_or_event_shows_a_viewer_what_it_may_not_see(client, store, setup, game_seed):
    rng = random.Random(f"{setup}/{game_seed}")
    table = Table(client, store, *SETUPS[setup])
    table.check_everyone()
    for _ in range(3000):
        game = table.viewers[-1].read()
        movers = [seat for seat in game["view"]["to_act"] if seat in table.players]
        phase, match = game["view"]["phase"], game["view"]["options"]["match"]
        if phase == "match_over" or (phase == "game_over" and not match):
            break
        player = table.players[rng.choice(movers)]
        if rng.random() < 0.1:
            table.probe(player, rng)
        player.act(random_action(player.read()["view"], rng))
        table.check_everyone()
    else:
        pytest.fail("the game did not finish")
    # The random actions may end the game in its first hand (an abort, a resignation, with
    # cards dealt afresh each run); once a hand was over with the game going on, its
    # decisions were shown to their seats, and with manual counting read during its show.
    if table.state().hand_number > 1:
        assert table.decisions_shown_early > 0
        if SETUPS[setup][1].get("counting") == "manual":  # a show then spans several requests
            assert table.checks_during_a_show > 0


@pytest.mark.parametrize("setup", ["two humans", "four in teams, muggins auto",
                                   "six, three pairs"])
def test_the_lobby_the_rematch_and_its_game_show_no_one_what_it_may_not_see(client, store,
                                                                           setup):
    """Seat 0 plays as a player: its lobby is checked like every body. After the rematch
    every seat's answer holds its own new token and no other secret, no event holds one, and
    the new game is checked as the first one is."""
    rng = random.Random(setup)
    seats, options = SETUPS[setup]
    player = client.post("/v1/players", json={"name": "Ana"}).get_json()
    auth = {"Authorization": f"Bearer {player['token']}"}
    created = client.post("/v1/games", json={"seats": seats, "options": options},
                          headers=auth).get_json()
    players = [Player(client, created["game_id"], player["token"], created["seat"])]
    players += [Player.joining(client, created["game_id"], invite["code"])
                for invite in created["invites"]]
    table = Table.seated(client, store, players)

    def play_and_check(table: Table, moves: int) -> None:
        table.check_everyone()
        for _ in range(moves):
            movers = [seat for seat in table.viewers[-1].read()["view"]["to_act"]
                      if seat in table.players]
            mover = table.players[rng.choice(movers)]
            mover.act(random_action(mover.read()["view"], rng))
            table.check_everyone()
            lobby = client.get("/v1/players/me/games", headers=auth)
            assert lobby.status_code == 200
            assert_hidden(lobby.get_data(as_text=True), *table.hidden_from(table.state(), 0))

    play_and_check(table, 12)
    players[0].act({"type": "resign"})
    answers = [client.post(f"/v1/games/{table.game_id}/rematch", headers=p.headers())
               for p in players]
    assert [answer.status_code for answer in answers] == [202] * (len(players) - 1) + [201]
    new_tokens = [answer.get_json()["token"] for answer in answers]
    secrets = set(new_tokens) | {p.token for p in players}
    for answer in answers:
        others = secrets - {answer.get_json()["token"]}
        assert not [secret for secret in others if secret in answer.get_data(as_text=True)]
    table.check_everyone()
    for viewer in table.viewers:
        events = viewer.events().get_data(as_text=True)
        assert not [secret for secret in secrets if secret in events]
    new_id = answers[0].get_json()["game_id"]
    renewed = [Player(client, new_id, token, p.seat) for token, p in zip(new_tokens, players)]
    play_and_check(Table.seated(client, store, renewed), 12)


class QuietTable(Table):
    """A table whose viewers read without streams: opening a stream brings a seat told gone
    back to the table (a presence event), which would change the game under the check."""

    def check_stream(self, *args) -> None:
        return None


@pytest.mark.parametrize("on_timeout", ["computer", "forfeit"])
@pytest.mark.parametrize("game_seed", [1, 2])
def test_turn_timeouts_presence_and_the_end_show_no_one_what_it_may_not_see(
        client, store, clock, on_timeout, game_seed):
    """Seats that run out of time (a computer moves for them, or they forfeit), seats told
    gone and back, the final game_over, and the turn timer in every view and state."""
    rng = random.Random(f"{on_timeout}/{game_seed}")
    limit = 10 if on_timeout == "computer" else 100  # a forfeit ends the game: come to it late
    table = QuietTable(client, store, [HUMAN, HUMAN, HUMAN],
                       {"target": 31, "turn_time_limit": limit, "on_timeout": on_timeout})
    table.check_everyone()
    clock.advance(65)  # every seat is gone: each is told so (and with 10 s, timed out)
    table.viewers[-1].read()
    table.check_everyone()
    for step in range(3000):
        game = table.viewers[-1].read()
        if game["view"]["phase"] == "game_over":
            break
        assert 0 <= game["view"]["turn_ms_left"] <= limit * 1000
        if step == 8 and on_timeout == "forfeit":
            clock.advance(limit + 1)  # at the latest here the game ends with a forfeit
            table.viewers[-1].read()
        elif rng.random() < 0.15:
            clock.advance(rng.choice([limit + 1, 65]))  # past the turn timer, or gone
            table.viewers[-1].read()  # applies what is due, so the store holds the truth
        else:
            movers = [seat for seat in game["view"]["to_act"] if seat in table.players]
            player = table.players[rng.choice(movers)]
            player.act(random_action(player.read()["view"], rng))
        table.check_everyone()
    else:
        pytest.fail("the game did not finish")
    types = {json.loads(text)["type"] for text in store.events(table.game_id, 0)}
    assert {"turn_timeout", "presence", "game_over"} <= types


@pytest.mark.parametrize("setup", ["two humans, match", "three, manual, muggins call",
                                   "six, three pairs"])
def test_no_webhook_payload_carries_a_card_or_a_hidden_seed(store, clock, setup):
    """A game with a seat's webhook and a player's, and a seat's push subscription and a
    player's, played to its end against a real receiver: every payload (turns, endings,
    presence; a push message once decrypted) holds no card at all, and no seed a spectator may
    not see at the time it was queued; nor do the webhook and subscription lists and delivery
    logs. No token, no webhook secret after its registration and no subscription's auth
    secret is in any of them."""
    app = make_app(store, clock, webhooks_allow_private=True)
    client, worker = app.test_client(), app.extensions["cribbage.webhook_worker"]
    rng = random.Random(setup)
    seats, options = SETUPS[setup]
    all_cards = {str(card) for card in DECK}
    with Receiver() as receiver:
        player = client.post("/v1/players", json={"name": "Ana"}).get_json()
        auth = {"Authorization": f"Bearer {player['token']}"}
        player_hook = client.post("/v1/players/me/webhooks",
                                  json={"url": receiver.url("/player")}, headers=auth).get_json()
        devices = {"/player-push": Device(), "/seat-push": Device()}
        assert client.post("/v1/players/me/push-subscriptions", headers=auth, json=devices[
            "/player-push"].subscription(receiver.url("/player-push"))).status_code == 201
        created = client.post("/v1/games", json={"seats": seats, "options": options},
                              headers=auth).get_json()
        players = [Player(client, created["game_id"], player["token"], created["seat"])]
        players += [Player.joining(client, created["game_id"], invite["code"])
                    for invite in created["invites"]]
        response = client.post(f"/v1/games/{created['game_id']}/webhooks",
                               json={"url": receiver.url("/seat")}, headers=players[1].headers())
        assert response.status_code == 201
        seat_hook = response.get_json()
        response = client.post(f"/v1/games/{created['game_id']}/push-subscriptions",
                               json=devices["/seat-push"].subscription(receiver.url("/seat-push")),
                               headers=players[1].headers())
        assert response.status_code == 201
        credentials = {player_hook["secret"], seat_hook["secret"], player["token"],
                       *(seated.token for seated in players),
                       *(device.subscription("")["keys"]["auth"] for device in devices.values())}
        logs = [(f"/v1/players/me/webhooks/{player_hook['webhook_id']}/deliveries", auth),
                ("/v1/players/me/webhooks", auth), ("/v1/players/me/push-subscriptions", auth),
                (f"/v1/games/{created['game_id']}/push-subscriptions", players[1].headers()),
                (f"/v1/games/{created['game_id']}/webhooks/{seat_hook['webhook_id']}/deliveries",
                 players[1].headers()),
                (f"/v1/games/{created['game_id']}/webhooks", players[1].headers())]
        table = Table.seated(client, store, players)
        checked = 0
        for step in range(3000):
            if step == 5:
                clock.advance(65)  # every seat is told gone, then back as it acts
            game = table.viewers[-1].read()
            phase, match = game["view"]["phase"], game["view"]["options"]["match"]
            while worker.run_once():
                pass
            _, seeds = table.hidden_from(table.state(), None)
            for received in receiver.received[checked:]:
                device = devices.get(received.path)
                text = (received.body.decode() if device is None
                        else json.dumps(device.decrypt(received)))
                assert_hidden(text, all_cards, seeds | credentials)
            checked = len(receiver.received)
            for path, headers in logs:
                response = client.get(path, headers=headers)
                assert response.status_code == 200
                assert_hidden(response.get_data(as_text=True), all_cards, seeds | credentials)
            if phase == "match_over" or (phase == "game_over" and not match):
                break
            movers = [seat for seat in game["view"]["to_act"] if seat in table.players]
            mover = table.players[rng.choice(movers)]
            mover.act(random_action(mover.read()["view"], rng))
        else:
            pytest.fail("the game did not finish")
    kinds = {received.payload["type"] for received in receiver.received
             if received.path not in devices}
    assert kinds == {"turn", "game_over", "presence"}
    pushed = {devices[received.path].decrypt(received)["type"] for received in receiver.received
              if received.path in devices}
    assert pushed == {"turn", "game_over", "presence"}
    assert {received.path for received in receiver.received} == {
        "/player", "/seat", "/player-push", "/seat-push"}


def test_profiles_and_leaderboards_show_no_player_anothers_secrets(store, clock):
    """Two players with webhooks play rated games to the end (Ana out of her placement games,
    on the boards). Nothing Ana or a stranger reads (her profile, her lobby, the boards, the
    games, their events) holds Bea's token, the digest the store keeps it under, her
    webhook's address or secret, or a seat token of Bea's; and nothing anyone reads holds the
    digest of any token."""
    client = make_app(store, clock, webhooks_allow_private=True).test_client()
    with Receiver() as receiver:
        _check_profiles_and_boards(client, store, receiver.url("/bea"))


def _check_profiles_and_boards(client, store, bea_url: str) -> None:
    tokens = {}
    for name in ("Ana", "Bea"):
        tokens[name] = client.post("/v1/players", json={"name": name}).get_json()["token"]
    auth = {name: {"Authorization": f"Bearer {token}"} for name, token in tokens.items()}
    bea_hook = {"url": bea_url, "secret": "whsec_" + "b" * 32}
    registered = client.post("/v1/players/me/webhooks", json=bea_hook, headers=auth["Bea"])
    assert registered.status_code == 201, registered.get_json()
    games, bea_seat_tokens = [], []
    for _ in range(5):
        created = client.post("/v1/games", headers=auth["Ana"], json={
            "seats": [HUMAN, HUMAN], "rated": True}).get_json()
        joined = client.post(f"/v1/games/{created['game_id']}/join", headers=auth["Bea"],
                             json={"code": created["invites"][0]["code"]}).get_json()
        bea_seat_tokens.append(joined["token"])
        client.post(f"/v1/games/{created['game_id']}/actions", headers=auth["Bea"],
                    json={"type": "resign"})
        games.append(created["game_id"])
    record = GameRecord.from_json(store.load(games[0]).data)
    digests = {seat.player_hash for seat in record.seats} | {
        seat.token_hash for seat in record.seats}
    bea_secrets = {tokens["Bea"], bea_hook["url"], bea_hook["secret"], *bea_seat_tokens}
    bodies = {
        "Ana's profile": client.get("/v1/players/me", headers=auth["Ana"]),
        "Ana's lobby": client.get("/v1/players/me/games", headers=auth["Ana"]),
        "the season's board": client.get("/v1/leaderboards/2"),
        "the all-time board": client.get("/v1/leaderboards/2?season=all"),
        "around Ana": client.get("/v1/leaderboards/2?around=me&season=all",
                                 headers=auth["Ana"]),
        "Bea's profile": client.get("/v1/players/me", headers=auth["Bea"]),
    }
    for game_id in games:
        bodies[f"{game_id} to Ana"] = client.get(f"/v1/games/{game_id}", headers=auth["Ana"])
        bodies[f"{game_id}'s events"] = client.get(f"/v1/games/{game_id}/events")
    assert bodies["the all-time board"].get_json()["places"][0]["name"] == "Ana"
    for what, response in bodies.items():
        assert response.status_code == 200, (what, response.get_json())
        text = response.get_data(as_text=True)
        assert not [digest for digest in digests if digest and digest in text], what
        if what != "Bea's profile":
            assert not [secret for secret in bea_secrets if secret in text], what
def test_seeks_and_their_lists_show_no_one_else_a_token_a_game_or_a_seat(client):
    """Seekers' secrets (player tokens, their digests) appear in no seek body and in no list
    (open seeks, live games), and a seek's game, seat and token only to its owner."""
    from service.games import tokens as secrets_of

    players = [client.post("/v1/players", json={"name": name}).json
               for name in ("Ana", "Bea", "Cal")]
    auth = [{"Authorization": "Bearer " + player["token"]} for player in players]
    secrets = {player["token"] for player in players} | {
        secrets_of.digest(player["token"]) for player in players}
    made = [client.post("/v1/seeks", json={"players": 2, "options": {"target": 77}},
                        headers=auth[number]).json for number in (0, 1)]
    listing = client.get("/v1/seeks").get_data(as_text=True)
    assert not any(secret in listing for secret in secrets)
    game_id = made[1]["game_id"]
    for number, seek in enumerate(made):
        for viewer in (None, 0, 1, 2):
            text = client.get("/v1/seeks/" + seek["seek_id"],
                              headers={} if viewer is None else auth[viewer]).get_data(
                                  as_text=True)
            own = viewer == number
            assert (players[number]["token"] in text) is own
            assert (game_id in text) is own
            assert not any(secret in text for secret in secrets
                           if secret != players[number]["token"])
    live = client.get("/v1/games?status=live").get_data(as_text=True)
    assert game_id in live and not any(secret in live for secret in secrets)
    open_seek = client.post("/v1/seeks", json={"players": 3, "options": {"target": 77}},
                            headers=auth[2]).json
    listing = client.get("/v1/seeks").json
    assert [seek["seek_id"] for seek in listing["seeks"]] == [open_seek["seek_id"]]
    assert not any(secret in json.dumps(listing) for secret in secrets)


@pytest.mark.parametrize("game_seed", [1, 2])
def test_a_paired_game_shows_in_no_seek_list_profile_or_board_what_may_not_be_seen(
        client, store, game_seed):
    """Two players seek and are paired; while they play, every seek answer (each seek to its
    owner, to the other and to a stranger), the list of open seeks, the list of live games, both
    profiles and lobbies and the leaderboards (the top and around each player) hide what
    their reader may not see: a seat's reader what that seat may not, anyone else what a
    spectator may not."""
    rng = random.Random(f"paired/{game_seed}")
    players = [client.post("/v1/players", json={"name": name}).get_json()
               for name in ("Ana", "Bea")]
    auth = [{"Authorization": f"Bearer {player['token']}"} for player in players]
    seeks = [client.post("/v1/seeks", headers=headers, json={
        "players": 2, "options": {"target": 61}}).get_json() for headers in auth]
    owned = [client.get(f"/v1/seeks/{seek['seek_id']}", headers=headers).get_json()
             for seek, headers in zip(seeks, auth)]
    assert [seek["status"] for seek in owned] == ["paired", "paired"]
    game_id = owned[0]["game_id"]
    seated = [Player(client, game_id, seek["token"], seek["seat"]) for seek in owned]
    table = Table.seated(client, store, seated)
    public = ["/v1/seeks", "/v1/games?status=live", "/v1/leaderboards/2",
              "/v1/leaderboards/2?season=all", *(f"/v1/seeks/{seek['seek_id']}" for seek in seeks)]
    own = ["/v1/players/me", "/v1/players/me/games", "/v1/leaderboards/2?around=me"]
    table.check_everyone()
    for _ in range(15):
        state = table.state()
        for path in public:
            response = client.get(path)
            assert response.status_code == 200, (path, response.get_json())
            assert_hidden(response.get_data(as_text=True), *table.hidden_from(state, None))
        for headers, seek in zip(auth, owned):
            for path in own + [f"/v1/seeks/{other['seek_id']}" for other in seeks]:
                response = client.get(path, headers=headers)
                assert response.status_code == 200, (path, response.get_json())
                assert_hidden(response.get_data(as_text=True),
                              *table.hidden_from(state, seek["seat"]))
        if state.over:
            break
        movers = [seat for seat in table.viewers[-1].read()["view"]["to_act"]
                  if seat in table.players]
        mover = table.players[rng.choice(movers)]
        mover.act(random_action(mover.read()["view"], rng))
        table.check_everyone()
