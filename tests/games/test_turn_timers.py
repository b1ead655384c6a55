"""Turn timers and endings that fire with no client connected: the deadline index, three
sweepers at once, and the games they apply deadlines to. On the embedded store and on Redis."""

from __future__ import annotations

import threading

import pytest

from service.games import GameTable
from service.games.rematch import OFFER_SECONDS
from service.games.event_log import server_time
from service.games.timers import ABANDONED_AFTER
from service.games.sweeper import Sweeper
from service.store import MemoryGameStore, RedisGameStore
from service.store.redis_store import DEADLINES, HOLDERS, game_keys
from tests.games.conftest import START, Clock, make_app
from tests.games.helpers import HUMAN, Player, Stream, create, first_legal

BOT = {"kind": "computer", "level": "first"}


class Stores:
    """Store instances that share one set of games, as server processes do: the one embedded
    store, or a client of its own per process on Redis."""

    def __init__(self, kind: str, request):
        self.kind = kind
        if kind == "memory":
            self.shared = MemoryGameStore(3600)
        else:
            server = request.getfixturevalue("redis_server")
            # earlier tests' games and server processes, due by our clock
            server.cli("DEL", DEADLINES, HOLDERS)
            self.url = server.url
            self.shared = self.new()

    def new(self):
        return self.shared if self.kind == "memory" else RedisGameStore(self.url, 3600)


@pytest.fixture(params=["memory", "redis"])
def stores(request):
    return Stores(request.param, request)


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def client(stores, clock):
    return make_app(stores.shared, clock).test_client()


def sweep_with_three(stores: Stores, clock: Clock) -> list[int]:
    """Three sweepers, each with its own store client, sweep at once; how many games each
    claimed."""
    sweepers = [Sweeper(GameTable(stores.new(), clock), period=0) for _ in range(3)]
    start = threading.Barrier(3)
    claimed = [0, 0, 0]

    def run(number: int) -> None:
        start.wait()
        claimed[number] = sweepers[number].sweep()

    threads = [threading.Thread(target=run, args=(number,)) for number in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return claimed


def event_types(player: Player) -> list[str]:
    return [event["type"] for event in player.events().get_json()["events"]]


def test_a_seat_that_never_acts_is_played_by_a_computer_at_its_deadline_exactly_once(
        stores, clock, client):
    # A fixed deck: with a random one, a tied cut for deal would start another cut round.
    player = Player.creator(client, create(client, [HUMAN, BOT], {
        "turn_time_limit": 10, "deck_seed": "no tied cut"}))
    game = player.read()
    assert (game["view"]["turn_deadline"], game["view"]["turn_ms_left"]) == (
        "2027-01-15T08:00:10.000Z", 10000)
    clock.advance(4.5)
    assert player.read()["view"]["turn_ms_left"] == 5500  # by the server's clock
    before = event_types(player)
    clock.advance(6)
    assert sum(sweep_with_three(stores, clock)) == 1
    events = player.events(after=len(before)).get_json()["events"]
    assert events[0] == {"number": len(before) + 1, "time": "2027-01-15T08:00:10.500Z",
                         "type": "turn_timeout", "seat": 0, "on_timeout": "computer",
                         "level": "hard"}
    assert [event["type"] for event in events].count("turn_timeout") == 1
    assert events[1]["type"] == "dealer_cut" and events[1]["seat"] == 0
    game = player.read()
    assert game["view"]["phase"] == "discard" and game["view"]["to_act"] == [0]
    assert game["view"]["turn_deadline"] == "2027-01-15T08:00:20.500Z"
    assert sweep_with_three(stores, clock) == [0, 0, 0]  # nothing more is due


def test_a_game_that_cannot_be_swept_does_not_hold_up_the_others_claimed_with_it(
        stores, clock, client):
    player = Player.creator(client, create(client, [HUMAN, BOT], {
        "turn_time_limit": 10, "deck_seed": "no tied cut"}))
    stores.shared.create("unreadable", "not a game record", due=clock() + 5)  # claimed first
    clock.advance(10.5)
    assert Sweeper(GameTable(stores.new(), clock), period=0).sweep() == 2
    assert event_types(player).count("turn_timeout") == 1


def test_a_seat_that_never_acts_forfeits_at_its_deadline_with_on_timeout_forfeit(
        stores, clock, client):
    player = Player.creator(client, create(client, [HUMAN, BOT], {
        "turn_time_limit": 30, "on_timeout": "forfeit"}))
    clock.advance(30.25)
    assert sum(sweep_with_three(stores, clock)) == 1
    events = player.events().get_json()["events"]
    assert [event["type"] for event in events][-4:] == [
        "turn_timeout", "game_won", "game_seed_revealed", "game_over"]
    assert {key: events[-1][key] for key in ("reason", "winner", "seats")} == {
        "reason": "timed_out", "winner": 1, "seats": [1]}
    assert events[-4]["on_timeout"] == "forfeit"
    clock.advance(3600)
    assert sweep_with_three(stores, clock) == [0, 0, 0]  # a finished game has no entry


def test_a_seat_nobody_has_taken_never_times_out_and_its_timer_starts_when_it_is_taken(
        stores, clock, client):
    created = create(client, [HUMAN, HUMAN], {
        "turn_time_limit": 30, "on_timeout": "forfeit", "deck_seed": "no tied cut"})
    ana = Player.creator(client, created)
    ana.act(first_legal(ana.read()["view"]))  # ana cuts; the invitee's cut is awaited
    clock.advance(600)
    sweep_with_three(stores, clock)  # ana's presence is checked; no timer runs out
    assert "turn_timeout" not in event_types(ana)
    assert ana.read()["view"]["phase"] == "cut_for_deal"
    bea = Player.joining(client, ana.game_id, created["invites"][0]["code"])
    view = bea.read()["view"]
    assert (view["to_act"], view["turn_ms_left"]) == ([1], 30000)
    clock.advance(30.25)
    assert sum(sweep_with_three(stores, clock)) == 1
    events = ana.events().get_json()["events"]
    assert [(event["type"], event.get("seat")) for event in events][-4:] == [
        ("turn_timeout", 1), ("game_won", None), ("game_seed_revealed", None), ("game_over", None)]
    assert events[-1]["winner"] == 0


def test_a_play_and_a_claim_run_out_of_time_and_a_computer_makes_them_right(stores, clock,
                                                                           client):
    """Every kind of decision is timed: after the cut (above), a card to play and a count to
    claim; `hard` plays the card and claims the true count."""
    player = Player.creator(client, create(client, [HUMAN, BOT], {
        "turn_time_limit": 10, "counting": "manual", "deck_seed": "no tied cut"}))
    made = {"play": "card_played", "claim": "claim"}
    game = player.read()
    while made:
        kinds = [action["type"] for action in game["view"]["legal_actions"]]
        if not set(kinds) & set(made):
            game = player.act(first_legal(game["view"]))
            continue
        [kind] = set(kinds) & set(made)
        seen = game["last_event"]
        clock.advance(10.5)
        assert sum(sweep_with_three(stores, clock)) == 1
        timeout, move = player.events(after=seen).get_json()["events"][:2]
        assert {key: timeout[key] for key in ("type", "seat", "on_timeout", "level")} == {
            "type": "turn_timeout", "seat": 0, "on_timeout": "computer", "level": "hard"}
        assert (move["type"], move["seat"]) == (made.pop(kind), 0)
        if kind == "claim":
            assert move["claimed"] == move["true_count"] == move["points"]
        game = player.read()


def test_with_a_count_time_limit_too_the_sooner_deadline_applies(stores, clock, client):
    player = Player.creator(client, create(client, [HUMAN, BOT], {
        "turn_time_limit": 30, "counting": "manual", "count_time_limit": 15,
        "deck_seed": "no tied cut"}))
    game = player.read()
    while not any(action["type"] == "claim" for action in game["view"]["legal_actions"]):
        game = player.act(first_legal(game["view"]))
    view = game["view"]
    assert (view["deadline"], view["deadline_ms_left"], view["turn_ms_left"]) == (
        server_time(clock() + 15), 15000, 30000)
    clock.advance(15.5)
    assert sum(sweep_with_three(stores, clock)) == 1
    events = player.events(after=game["last_event"]).get_json()["events"]
    assert [(event["type"], event.get("seat")) for event in events[:2]] == [
        ("count_timeout", 0), ("muggins", 1)]  # the count's rule: half to the opponent
    assert "turn_timeout" not in [event["type"] for event in events]


def test_the_others_see_a_gone_seats_countdown_in_views_events_and_the_stream(client, clock):
    created = create(client, [HUMAN, HUMAN], {"turn_time_limit": 120})
    ana = Player.creator(client, created)
    bea = Player.joining(client, ana.game_id, created["invites"][0]["code"])
    ana.act({"type": "cut_for_deal", "depth": 10})
    clock.advance(61)  # Bea has neither acted nor listened for 5 + 30 s: gone
    game = ana.read()
    assert [seat["connected"] for seat in game["seats"]][1] is False
    countdown = {"turn_deadline": "2027-01-15T08:02:00.000Z", "turn_ms_left": 59000}
    assert (game["view"]["to_act"], {key: game["view"][key] for key in countdown}) == (
        [1], countdown)
    page = ana.events().get_json()
    assert [(e["seat"], e["connected"]) for e in page["events"] if e["type"] == "presence"][
        -1] == (1, False)
    assert {key: page["state"][key] for key in countdown} == countdown
    assert {event["time"] for event in page["events"]} <= {  # the server's time of each write
        "2027-01-15T08:00:00.000Z", "2027-01-15T08:01:01.000Z"}
    stream = Stream(client.get(f"/v1/games/{ana.game_id}/stream", buffered=False,
                               headers=ana.headers(Last_Event_ID="0")))
    snapshot = stream.next_message()["data"]  # Ana's stream brings her back: one event more
    assert {key: snapshot["view"][key] for key in countdown} == countdown
    messages = [stream.next_message() for _ in range(snapshot["last_event"] + 1)]
    stream.close()
    assert messages[-1]["event"] == "state"
    assert {key: messages[-1]["data"][key] for key in countdown} == countdown


def test_each_due_entry_is_claimed_by_exactly_one_of_three_concurrent_claimers(stores):
    games = [f"due-{number}" for number in range(250)]
    for number, game_id in enumerate(games):
        stores.shared.create(game_id, "{}", (), due=1000.0 + number)
    stores.shared.create("later", "{}", (), due=5000.0)
    claimers = [stores.new() for _ in range(3)]
    start = threading.Barrier(3)
    taken: list[list[str]] = [[], [], []]

    def claim(number: int) -> None:
        start.wait()
        while batch := claimers[number].claim_due(2000.0, 7, 30.0):
            taken[number] += [game_id for game_id, until in batch]
            assert {until for _, until in batch} == {2030.0}

    threads = [threading.Thread(target=claim, args=(number,)) for number in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    everything = taken[0] + taken[1] + taken[2]
    assert sorted(everything) == sorted(games)  # each once, "later" not at all
    assert stores.shared.claim_due(2029.0, 1000, 30.0) == []  # leased until 2030
    assert len(stores.shared.claim_due(2030.0, 1000, 30.0)) == 250


def test_a_release_puts_the_next_time_unless_a_save_rescheduled_the_entry(stores):
    store = stores.shared
    store.create("g", "{}", (), due=10.0)
    [(game_id, until)] = store.claim_due(10.0, 10, 30.0)
    store.release_due("g", until, 50.0)
    assert store.claim_due(49.0, 10, 30.0) == [] and store.claim_due(50.0, 10, 30.0)
    store.save("g", 1, "{}", reschedule=True, due=70.0)  # the game moved on meanwhile
    store.release_due("g", 80.0, 60.0)  # a stale claim's release changes nothing
    assert store.claim_due(69.0, 10, 30.0) == [] and store.claim_due(70.0, 10, 30.0)
    store.save("g", 2, "{}", reschedule=True, due=None)
    assert store.claim_due(10**12, 10, 30.0) == []


def test_a_game_no_human_moves_in_for_three_days_ends_abandoned(stores, clock, client):
    player = Player.creator(client, create(client, [HUMAN, BOT]))
    clock.advance(ABANDONED_AFTER - 1)
    player.act({"type": "cut_for_deal", "depth": 10})  # a human move: the clock starts again
    clock.advance(1)
    assert sum(sweep_with_three(stores, clock)) == 1  # the check finds a recent move
    assert "abandoned" not in event_types(player)
    clock.advance(ABANDONED_AFTER - 2)
    assert sum(sweep_with_three(stores, clock)) == 1  # seat 0 is told gone, once
    events = player.events().get_json()["events"]
    # Gone since its creation when it came back to cut, back, gone 35 s after that cut.
    assert [event["connected"] for event in events if event["type"] == "presence"] == [
        False, True, False]
    clock.advance(1)
    assert sum(sweep_with_three(stores, clock)) == 1
    events = player.events().get_json()["events"]
    assert [event["type"] for event in events][-3:] == [
        "abandoned", "game_seed_revealed", "game_over"]
    assert (events[-1]["reason"], events[-1]["winner"], events[-1]["seats"]) == (
        "abandoned", None, [])


class RecordingStore(MemoryGameStore):
    """The embedded store, noting which saves write the game's deadline entry."""

    def __init__(self):
        super().__init__(3600)
        self.reschedules: list[float | None] = []

    def save(self, *args, reschedule=False, due=None, **kwargs):
        if reschedule:
            self.reschedules.append(due)
        return super().save(*args, reschedule=reschedule, due=due, **kwargs)


def test_a_game_without_timers_writes_its_deadline_entry_only_at_creation_presence_and_end(
        clock):
    """Besides creation and end, one write: the human's first action schedules the check of
    its presence (it acts and opens no stream: it is gone 35 s later); the actions after it,
    whose checks come later, write nothing."""
    store = RecordingStore()
    client = make_app(store, clock).test_client()
    player = Player.creator(client, create(client, [HUMAN, BOT], {"target": 31}))
    assert store.claim_due(clock() + ABANDONED_AFTER - 1, 10, 30.0) == []
    game = player.read()
    while game["view"]["phase"] != "game_over":
        game = player.act(first_legal(game["view"]))
    assert game["version"] > 10
    assert store.reschedules == [START + 35, None]  # the presence check; the end drops it
    assert store.claim_due(clock() + 10 * ABANDONED_AFTER, 10, 30.0) == []


def test_a_game_with_timers_writes_its_entry_only_when_the_deadline_moves(clock):
    store = RecordingStore()
    client = make_app(store, clock).test_client()
    created = create(client, [HUMAN, HUMAN], {"turn_time_limit": 60})
    player = Player.creator(client, created)
    Player.joining(client, created["game_id"], created["invites"][0]["code"])
    # Joined within the decision's limit: the same deadline; the joiner's presence check (she
    # opened no stream) comes before it.
    assert store.reschedules == [START + 35]
    player.act({"type": "cut_for_deal", "depth": 10})  # the other seat still has to cut
    assert store.reschedules == [START + 35]
    clock.advance(5)
    player.read()
    assert store.reschedules == [START + 35]


def test_an_open_rematch_offer_lapses_at_its_time_with_no_client_connected(stores, clock,
                                                                           client):
    created = create(client, [HUMAN, HUMAN], {})
    ana = Player.creator(client, created)
    Player.joining(client, created["game_id"], created["invites"][0]["code"])
    ana.act({"type": "resign"})
    offer = client.post(f"/v1/games/{ana.game_id}/rematch", headers=ana.headers())
    assert offer.status_code == 202  # offered: waits for the other human seat
    seen = ana.read()["last_event"]
    clock.advance(OFFER_SECONDS - 1)
    assert sweep_with_three(stores, clock) == [0, 0, 0]
    clock.advance(1.001)
    assert sum(sweep_with_three(stores, clock)) == 1
    clock.advance(3600)
    assert sweep_with_three(stores, clock) == [0, 0, 0]  # the lapsed offer left the index
    events = ana.events(after=seen).get_json()["events"]
    assert [(event["type"], event["offered_by"]) for event in events] == [("rematch_expired", 0)]


def test_a_correspondence_game_has_two_weeks_a_move_and_is_kept_until_it_can_end(clock):
    """14 days a decision: a seat may take 13 days over its cut, past the store's 7-day
    lifetime and the 3-day abandon rule; with no human move the game ends abandoned after two
    whole turns (28 days), not before."""
    fortnight = 14 * 86400
    store = MemoryGameStore(7 * 86400, clock=clock)
    client = make_app(store, clock).test_client()
    created = create(client, [HUMAN, HUMAN], {"turn_time_limit": fortnight})
    ana = Player.creator(client, created)
    Player.joining(client, ana.game_id, created["invites"][0]["code"])
    clock.advance(13 * 86400)
    game = ana.read()
    assert (game["view"]["phase"], game["view"]["turn_ms_left"]) == ("cut_for_deal", 86400_000)
    ana.act({"type": "cut_for_deal", "depth": 10})
    cut_at = clock.now
    sweeper = Sweeper(GameTable(store, clock), period=0)
    for _ in range(2):  # Bea's cut, then every discard, time out: a computer moves for them
        clock.advance(fortnight - 1)
        sweeper.sweep()
    clock.advance(cut_at + 2 * fortnight - 1 - clock.now)  # the last human move + 28 days - 1 s
    sweeper.sweep()
    assert "abandoned" not in event_types(ana)
    clock.advance(1)
    sweeper.sweep()
    assert event_types(ana)[-3:] == ["abandoned", "game_seed_revealed", "game_over"]


def test_redis_keeps_a_correspondence_game_past_its_own_lifetime(redis_server, clock):
    store = RedisGameStore(redis_server.url, 7 * 86400)
    client = make_app(store, clock).test_client()
    timed = create(client, [HUMAN, HUMAN], {"turn_time_limit": 14 * 86400})
    untimed = create(client, [HUMAN, HUMAN], {"turn_time_limit": 86400})
    ttl = [int(redis_server.cli("TTL", game_keys(created["game_id"])[0]))
           for created in (timed, untimed)]
    assert ttl[0] > 29 * 86400 - 60 and ttl[1] == 7 * 86400
