"""Muggins "call" is fair: computers call missed points only after the humans who could call
them have had their chance (service.games.muggins)."""

from __future__ import annotations

import random
from dataclasses import replace

from service import engine
from service.engine import LegalClaim
from service.games import ActionRequest, Games, GameTable
from service.scoring import show_points
from service.store import MemoryGameStore
from tests.games.test_computer_seats import first_legal

COMPUTER = {"kind": "computer", "level": "first"}
OPTIONS = {"counting": "manual", "muggins": "call"}


def true_count(view: engine.SeatView) -> int:
    claim = next(option for option in view.legal_actions if isinstance(option, LegalClaim))
    return show_points(claim.cards, claim.starter, crib=claim.hand == "crib")


def play_until(service, game_id, tokens, done):
    """Every human plays the first legal action, never calling muggins, until `done(view)`
    holds for seat 0's view."""
    rng = random.Random(7)
    while True:
        views = {seat: service.read(game_id, token).view for seat, token in tokens.items()}
        if done(views[0]):
            return views
        seat = next(seat for seat, view in views.items()
                    if any(option.type != "muggins" for option in view.legal_actions))
        request = first_legal(_without_muggins(views[seat]), rng)
        service.act(game_id, tokens[seat], request)


def _without_muggins(view):
    return replace(view, legal_actions=tuple(o for o in view.legal_actions
                                             if o.type != "muggins"))


def pone_counts_with_a_computer_dealing(view) -> bool:
    return (view.phase == "show" and view.counting.seat == 0 and view.dealer == 2
            and true_count(view) > 0)


def three_seats():
    """Humans in seats 0 and 1, a computer in seat 2; at the show of a hand the computer
    deals, so seat 0 counts first, then seat 1, then the computer."""
    service = Games(GameTable(MemoryGameStore(600)))
    created = service.create([{"kind": "human"}, {"kind": "human"}, COMPUTER], OPTIONS)
    game_id = created.game.game_id
    joined = service.join(game_id, created.invites[0].code)
    tokens = {0: created.token, 1: joined.token}
    views = play_until(service, game_id, tokens, pone_counts_with_a_computer_dealing)
    return service, game_id, tokens, true_count(views[0])


def called(page) -> list[tuple[int, int, int]]:
    return [(event.data["seat"], event.data["from_seat"], event.data["points"])
            for event in page.events
            if event.data["type"] == "muggins" and event.data["reason"] == "called"]


def test_a_computer_waits_until_the_human_who_could_call_has_acted():
    service, game_id, tokens, missed = three_seats()
    before = service.read(game_id, tokens[1]).last_event
    after_claim = service.act(game_id, tokens[0], ActionRequest("claim", points=0))
    assert after_claim.view.pending_muggins[0]["points"] == missed
    assert called(service.events(game_id, tokens[1], before)) == []
    seat_1 = service.read(game_id, tokens[1]).view
    assert [option.type for option in seat_1.legal_actions] == ["claim", "muggins"]
    # Seat 1 counts its own hand instead of calling: its chance is gone, the computer calls.
    middle = service.read(game_id, tokens[1]).last_event
    service.act(game_id, tokens[1], ActionRequest("claim", points=true_count(seat_1)))
    assert called(service.events(game_id, tokens[1], middle)) == [(2, 0, missed)]


def test_the_human_who_calls_first_takes_the_points():
    service, game_id, tokens, missed = three_seats()
    service.act(game_id, tokens[0], ActionRequest("claim", points=0))
    before = service.read(game_id, tokens[1]).last_event
    service.act(game_id, tokens[1], ActionRequest("muggins"))
    assert called(service.events(game_id, tokens[1], before)) == [(1, 0, missed)]


def test_reads_and_the_claimers_own_moves_do_not_open_the_call_to_computers():
    service, game_id, tokens, missed = three_seats()
    before = service.read(game_id, tokens[0]).last_event
    service.act(game_id, tokens[0], ActionRequest("claim", points=0))
    for token in tokens.values():
        service.read(game_id, token)
    service.events(game_id, None, 0)
    assert called(service.events(game_id, tokens[0], before)) == []
    assert service.read(game_id, tokens[1]).view.pending_muggins[0]["points"] == missed


def test_with_no_human_able_to_call_a_computer_calls_at_once():
    service = Games(GameTable(MemoryGameStore(600)))
    created = service.create([{"kind": "human"}, COMPUTER], OPTIONS)
    game_id, tokens = created.game.game_id, {0: created.token}
    views = play_until(service, game_id, tokens,
                       lambda view: view.phase == "show" and view.counting.seat == 0
                       and true_count(view) > 0)
    missed = true_count(views[0])
    before = service.read(game_id, tokens[0]).last_event
    service.act(game_id, tokens[0], ActionRequest("claim", points=0))
    assert called(service.events(game_id, tokens[0], before)) == [(1, 0, missed)]
