"""The games service's values as JSON bodies: the API alone decides the wire format."""

from __future__ import annotations

import dataclasses
import functools

from service.cards import Card
from service.engine import GameOptions, SeatView
from service.api.games.preconditions import etag
from service.api.language import request_language
from service.api.messages import ERASED_SEAT_NAME
from service.bots.discard_report import rounded
from service.bots.hints import Hint
from service.games import EventsPage, GameSnapshot, NumberedEvent, RematchAccess, SeatAccess
from service.games.accounts import ERASED_NAME, NAMING_EVENTS
from service.games.analysis import GameAnalysis
from service.games.event_log import server_time, shown_instants
from service.games.spectating import LiveGame


def seat_name(name: str, language: str | None = None) -> str:
    """A seat's name as shown: an erased player's in `language` (the request's if None)."""
    if name != ERASED_NAME:
        return name
    return ERASED_SEAT_NAME[language or request_language()]


def game_body(snapshot: GameSnapshot, language: str | None = None) -> dict:
    """`language`: the one erased players' seats are named in (the request's if None)."""
    return {
        "game_id": snapshot.game_id,
        "version": snapshot.version,
        "seat": snapshot.seat,
        "seats": [_seat(number, seat, snapshot.connected, language) for number, seat in
                  enumerate(snapshot.seats)],
        "last_event": snapshot.last_event,
        "view": view_body(snapshot.view, snapshot.at, snapshot.hint),
        "rematch": (None if snapshot.rematch is None
                    else rematch_body(snapshot.rematch, snapshot.at)),
        "rematch_of": snapshot.rematch_of,
        "rated": snapshot.rated,
    }


def rematch_body(offer, now: float) -> dict:
    return {"game_id": offer.game_id, "status": offer.status, "offered_by": offer.offered_by,
            "accepted": list(offer.accepted_seats), "declined_by": offer.declined_by,
            "expires_at": server_time(offer.expires_at),
            "expires_ms_left": ms_left(offer.expires_at, now)}


def rematch_access_body(access: RematchAccess) -> dict:
    offer = access.game.rematch
    if offer is None:
        raise ValueError("a rematch access's game holds the rematch offer")
    return {"game_id": offer.game_id, "seat": access.game.seat, "token": access.token,
            "rematch": rematch_body(offer, access.game.at),
            "game": None if access.started is None else game_body(access.started)}


def seat_access_body(access: SeatAccess, *, with_invites: bool) -> dict:
    body: dict[str, object] = {"game_id": access.game.game_id, "seat": access.game.seat,
                               "token": access.token}
    if with_invites:
        body["invites"] = [{"seat": invite.seat, "code": invite.code}
                           for invite in access.invites]
    body["game"] = game_body(access.game)
    return body


def events_body(page: EventsPage) -> dict:
    return {"game_id": page.game.game_id, "seat": page.game.seat,
            "events": [event_body(event) for event in page.events],
            "last_event": page.game.last_event, "state": seat_state_body(page.game)}


def event_body(event: NumberedEvent, language: str | None = None) -> dict:
    body = {"number": event.number, "time": event.time, **event.data}
    if event.data.get("type") in NAMING_EVENTS:
        body["name"] = seat_name(body["name"], language)
    return body


def seat_state_body(snapshot: GameSnapshot) -> dict:
    """What a seat needs to act after the events: the version for If-Match, whose turn it is,
    its legal actions, the deadline."""
    view = snapshot.view
    return {"version": snapshot.version, "etag": etag(snapshot), "phase": view.phase,
            "to_act": list(view.to_act), "legal_actions": _plain(view.legal_actions),
            **deadlines_body(view, snapshot.at)}


def deadlines_body(view: SeatView, now: float) -> dict:
    """The count's deadline and the turn timer's, each as an RFC 3339 time and as
    milliseconds left by the server's clock `now` (a phone's own clock may be wrong); null
    when it does not run."""
    return {"deadline": _instant(view.deadline), "deadline_ms_left": ms_left(view.deadline, now),
            "turn_deadline": _instant(view.turn_deadline),
            "turn_ms_left": ms_left(view.turn_deadline, now)}


def ms_left(deadline: float | None, now: float) -> int | None:
    return None if deadline is None else int(max(deadline - now, 0.0) * 1000)


def _instant(at: float | None) -> str | None:
    return None if at is None else server_time(at)


def hint_body(hint: Hint | None) -> dict | None:
    if hint is None:
        return None
    return {"kind": hint.kind,
            "options": [{"cards": _plain(option.cards), "expected": rounded(option.expected),
                         "win_chance": None if option.win_chance is None
                         else rounded(option.win_chance)} for option in hint.options]}


def analysis_body(analysis: GameAnalysis) -> dict:
    return {
        "game_id": analysis.game_id, "seat": analysis.seat, "complete": analysis.complete,
        "hands": list(analysis.hands),
        "decisions": [{
            "hand_number": d.hand_number, "game_number": d.game_number, "seat": d.seat,
            "kind": d.kind, "dealer": d.dealer, "scores": list(d.scores),
            "held": _plain(d.held), "pile": _plain(d.pile), "chosen": _plain(d.chosen),
            "best": _plain(d.best), "points_lost": rounded(d.points_lost),
            "win_chance_lost": _rounded_or_none(d.win_chance_lost),
        } for d in analysis.decisions],
        "seats": [{"seat": s.seat, "side": s.side, "decisions": s.decisions,
                   "points_lost": rounded(s.points_lost),
                   "win_chance_lost": _rounded_or_none(s.win_chance_lost),
                   "worst": list(s.worst)} for s in analysis.seats],
        "sides": [{"side": s.side, "seats": list(s.seats), "decisions": s.decisions,
                   "points_lost": rounded(s.points_lost),
                   "win_chance_lost": _rounded_or_none(s.win_chance_lost)}
                  for s in analysis.sides],
    }


def _rounded_or_none(value: float | None) -> float | None:
    return None if value is None else rounded(value)


def view_body(view: SeatView, now: float, hint: Hint | None = None) -> dict:
    """The seat's view at the server's time `now`: its fields by name, cards as their canonical
    texts, the deadlines as deadlines_body says, instants in its history in RFC 3339, and its
    hint."""
    body = {**_plain(view), **deadlines_body(view, now), "hint": hint_body(hint)}
    body["history"] = [shown_instants(event) for event in body["history"]]
    return body


def _seat(number: int, seat, connected: tuple[bool, ...], language: str | None) -> dict:
    data = {"seat": number, "kind": seat.kind, "name": seat_name(seat.name, language),
            "taken": seat.taken,
            "connected": connected[number] if connected else seat.kind == "computer"}
    if seat.kind == "computer":
        data["level"] = seat.level
    return data


_SCALARS = frozenset({int, str, float, bool, type(None)})


def _plain(value):
    """A value of the engine's view as JSON-ready data."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is Card:
        return value.text
    if kind is GameOptions:
        return value.to_dict()
    if dataclasses.is_dataclass(value):
        data = {"type": value.type} if hasattr(value, "type") else {}
        data.update((name, _plain(getattr(value, name))) for name in _field_names(kind))
        return data
    if hasattr(value, "_asdict"):  # a NamedTuple
        return {name: _plain(item) for name, item in value._asdict().items()}
    if isinstance(value, (tuple, list)):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    return value


@functools.cache
def _field_names(kind: type) -> tuple[str, ...]:
    return tuple(field.name for field in dataclasses.fields(kind))


def live_game_body(game: LiveGame) -> dict:
    """A game in play as a list of live games shows it: its public parts only."""
    state = game.record.state
    options = state.options
    return {"game_id": game.game_id, "players": options.players, "teams": options.teams,
            "target": options.target, "rated": game.record.rated, "phase": state.phase,
            "scores": list(state.scores),
            "seats": [{"seat": number, "kind": seat.kind, "name": seat_name(seat.name)}
                      for number, seat in enumerate(game.seats)],
            "created_at": server_time(game.created),
            "updated_at": server_time(game.record.updated)}
