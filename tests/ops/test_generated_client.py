"""A Python client generated from openapi.yaml (openapi-python-client) plays whole games."""

from __future__ import annotations

import importlib
import pathlib
import random
import subprocess
import sys

import httpx
import pytest

from service.api import create_app
from service.config import Settings
from service.engine import ACTION_TYPES
from service.store import MemoryGameStore
from tests.games.helpers import random_action
from tests.games.test_contract import emitted_types

ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKAGE = "cribbage_client"
MAX_REQUESTS = 5000  # a game to 121 needs a few hundred; this only bounds a broken loop


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """The client package, generated afresh from the committed openapi.yaml and imported."""
    where = tmp_path_factory.mktemp("generated")
    subprocess.run(
        [sys.executable, "-m", "openapi_python_client", "generate",
         "--path", str(ROOT / "openapi.yaml"), "--meta", "none",
         "--output-path", str(where / PACKAGE)],
        check=True, capture_output=True, timeout=300, cwd=where)
    sys.path.insert(0, str(where))
    try:
        names = ["", ".client", ".models", ".api.games.create_game", ".api.games.join_game",
                 ".api.games.get_game", ".api.games.act_in_game", ".api.games.list_events"]
        modules = {name: importlib.import_module(PACKAGE + name) for name in names}
        yield modules
    finally:
        sys.path.remove(str(where))
        for name in [name for name in sys.modules if name.split(".")[0] == PACKAGE]:
            del sys.modules[name]


@pytest.fixture
def transport():
    app = create_app({"TESTING": True, "GAME_STORE": MemoryGameStore(3600),
                      "SETTINGS": Settings(rate_limit_enabled=False)})
    return httpx.WSGITransport(app=app)


def model(generated, type_: str, kind: str = "", prefix: str = ""):
    """The generated class of an action, event or legal action type: `cut_for_deal` with kind
    "Action" is CutForDealAction."""
    camel = "".join(word.capitalize() for word in type_.split("_"))
    return getattr(generated[".models"], f"{prefix}{camel}{kind}")


def test_one_class_per_action_event_and_legal_action_type(generated):
    """Each class, and the enum of its `type_`, which holds only that type."""
    kinds = [(type_, "Action", "") for type_ in ACTION_TYPES]
    kinds += [(type_, "", "Legal") for type_ in set(ACTION_TYPES) - {"resign", "abort"}]
    kinds += [(type_, "Event", "") for type_ in emitted_types()]
    for type_, kind, prefix in kinds:
        assert "type_" in model(generated, type_, kind, prefix).__annotations__
        assert [member.value for member in model(generated, type_, f"{kind}Type", prefix)] \
            == [type_]


class Seat:
    """One human seat, driven only through the generated client's typed calls."""

    def __init__(self, generated, transport, game_id: str, seat: int, token: str):
        client_module, self.api = generated[".client"], generated
        self.client = client_module.AuthenticatedClient(
            base_url="http://cribbage.test", token=token, raise_on_unexpected_status=True)
        self.client.set_httpx_client(httpx.Client(base_url="http://cribbage.test",
                                                  transport=transport,
                                                  headers={"Authorization": f"Bearer {token}"}))
        self.game_id = game_id
        self.seat = seat

    def read(self):
        game = self.api[".api.games.get_game"].sync(self.game_id, client=self.client)
        assert isinstance(game, self.api[".models"].Game), game
        for legal in game.view.legal_actions:
            assert isinstance(legal, model(self.api, legal.type_.value, prefix="Legal")), legal
        return game

    def act(self, action: dict, version: int):
        body = model(self.api, action["type"], "Action").from_dict(action)
        game = self.api[".api.games.act_in_game"].sync(
            self.game_id, client=self.client, body=body, if_match=f'"{version}-{self.seat}"')
        assert isinstance(game, self.api[".models"].Game), (action, game)
        return game


def create(generated, transport, seats: list[dict], options: dict):
    models = generated[".models"]
    client = generated[".client"].Client(base_url="http://cribbage.test",
                                         raise_on_unexpected_status=True)
    client.set_httpx_client(httpx.Client(base_url="http://cribbage.test", transport=transport))
    body = models.CreateGame.from_dict({"seats": seats, "options": options})
    created = generated[".api.games.create_game"].sync(client=client, body=body)
    assert isinstance(created, models.CreatedGame), created
    return client, created


def play_out(seats: list[Seat], rng: random.Random):
    """Each human seat takes a random legal action whenever it has one, until the game ends."""
    for _ in range(MAX_REQUESTS):
        for seat in seats:
            game = seat.read()
            if game.view.phase.value == "game_over":
                return game
            view = game.view.to_dict()
            if view["legal_actions"]:
                seat.act(random_action(view, rng), game.version)
    raise AssertionError("the game did not end")


def assert_finished(game, sides: list[list[int]], target: int = 121):
    view = game.view.to_dict()
    assert view["phase"] == "game_over"
    assert view["sides"] == sides
    winner = view["winner"]
    assert view["scores"][winner] >= target
    assert all(score < target for side, score in enumerate(view["scores"]) if side != winner)


def test_two_players_against_a_computer_seat(generated, transport):
    _, created = create(generated, transport,
                        [{"kind": "human"}, {"kind": "computer", "level": "first"}], {})
    seat = Seat(generated, transport, created.game_id, created.seat, created.token)
    assert created.invites == []
    final = play_out([seat], random.Random(1))
    assert_finished(final, [[0], [1]])

    events = generated[".api.games.list_events"].sync(created.game_id, client=seat.client,
                                                      after=0)
    assert isinstance(events, generated[".models"].Events)
    for event in events.events:
        assert isinstance(event, model(generated, event.type_.value, "Event")), event
    assert [event.number for event in events.events] == list(range(1, final.last_event + 1))


def test_four_player_teams_with_two_human_partners(generated, transport):
    seats = [{"kind": "human"}, {"kind": "computer", "level": "first"},
             {"kind": "human"}, {"kind": "computer", "level": "first"}]
    client, created = create(generated, transport, seats, {"teams": "2x2"})
    (invite,) = created.invites
    joined = generated[".api.games.join_game"].sync(
        created.game_id, client=client,
        body=generated[".models"].Join.from_dict({"code": invite.code}))
    assert isinstance(joined, generated[".models"].SeatToken), joined
    assert (created.seat, joined.seat) == (0, 2)
    humans = [Seat(generated, transport, created.game_id, number, token)
              for number, token in ((created.seat, created.token), (joined.seat, joined.token))]
    final = play_out(humans, random.Random(2))
    assert_finished(final, [[0, 2], [1, 3]])
