"""GamesService: create, join, read and act on games; the one path from HTTP to engine and store.

Every operation loads the game, first catches up on what is already due (an expired count
deadline, then any computer seat whose turn it is), then does its own change, and saves with a
compare-and-set on the version it loaded; if another request saved first, it starts over.
"""

from __future__ import annotations

import hashlib
import json
import logging
import random
import secrets
import time
from collections.abc import Callable, Container, Sequence
from dataclasses import dataclass, replace

from service import engine, metrics
from service.cards import DECK, Card, CardError, resolve_card
from service.engine import Event, GameOptions, GameState, InvalidInputError, RuleError
from service.store import GameExists, GameNotFound, GameStore, StoredGame, VersionConflict

from . import computer, tokens
from .errors import GameError, not_found
from .record import GameRecord, Seat

log = logging.getLogger(__name__)

MAX_WAIT = 25.0
WRITE_ATTEMPTS = 50        # compare-and-set rounds before giving up on a very busy game
COMPUTER_MOVES = 1000      # bound on computer moves in one request; a whole hand needs far fewer
DEADLINE_SLACK = 0.05      # a long poll wakes this long after a deadline to apply it

CANONICAL = frozenset(str(card) for card in DECK)


@dataclass(frozen=True)
class Snapshot:
    """A response body and the game version it shows (None where no version applies)."""

    body: dict
    version: int | None = None
    seat: int | None = None
    replayed: bool = False    # the stored response to an earlier request with the same key


class GamesService:
    def __init__(self, store: GameStore, clock: Callable[[], float] = time.time):
        self.store = store
        self.clock = clock

    # Operations ----------------------------------------------------------------------------------
    def create(self, specs: Sequence[dict], options: dict, creator_seat: int | None = None):
        """A new game; the creator gets a seat token and every other human seat an invite code.

        `specs`, one per seat: {"kind": "human"|"computer", "name": str?, "level": str?}.
        """
        options = _game_options(options, len(specs))
        seats = [_seat(number, spec) for number, spec in enumerate(specs)]
        humans = [number for number, seat in enumerate(seats) if seat.kind == "human"]
        if not humans:
            raise GameError(422, "no_human_seat", "at least one seat must be human")
        creator = humans[0] if creator_seat is None else creator_seat
        if creator not in humans:
            raise GameError(422, "creator_not_human", f"seat {creator} is not a human seat",
                            seat=creator)
        token = tokens.new_secret()
        invites = {number: tokens.new_secret() for number in humans if number != creator}
        seats[creator] = replace(seats[creator], token_hash=tokens.digest(token))
        for number, code in invites.items():
            seats[number] = replace(seats[number], invite_hash=tokens.digest(code))
        new, opening = engine.start_game(options, secrets.token_bytes(32))
        state, moves = self._computers_play(seats, new)
        events = opening + moves
        record = GameRecord(tuple(seats), state, len(events))
        game_id = self._insert(record, events)
        metrics.record_game_created()
        return Snapshot(
            {
                "game_id": game_id,
                "seat": creator,
                "token": token,
                "invites": [{"seat": number, "code": code} for number, code in invites.items()],
                "game": self._game_body(game_id, 1, record, creator),
            },
            version=1,
            seat=creator,
        )

    def join(self, game_id: str, code: str, name: str | None = None,
             idempotency_key: str | None = None) -> Snapshot:
        """Take the open seat an invite code belongs to; returns that seat's token.

        With an Idempotency-Key, a retry gets the same token back, so a lost response never
        loses the seat. The store keeps that token only sealed with the code and the key
        (tokens.seal), neither of which it keeps itself.
        """
        replay_key = None
        if idempotency_key is not None:
            replay_key = f"join:{tokens.digest(code)}:{idempotency_key}"
        fingerprint = _fingerprint({"name": name})

        def attempt() -> Snapshot:
            stored, record, _ = self._open(game_id, None, replay_key)
            if stored.replay is not None:
                replayed = _replayed(stored.replay, fingerprint, None)
                token = tokens.unseal(json.loads(stored.replay)["sealed"], code, idempotency_key)
                body = {**replayed.body, "token": token}
                return replace(replayed, body=body, seat=body["seat"])
            version, record = self._catch_up(game_id, stored, record)
            seat = tokens.match(code, [s.invite_hash for s in record.seats])
            if seat is None:
                raise GameError(403, "invalid_invite",
                                "this invite code opens no seat of this game")
            if record.seats[seat].taken:
                raise GameError(409, "seat_taken", f"seat {seat} is already taken", seat=seat)
            token = tokens.new_secret()
            taken = replace(record.seats[seat], token_hash=tokens.digest(token),
                            name=name or record.seats[seat].name)
            record = record.with_seat(seat, taken)
            body = {"game_id": game_id, "seat": seat,
                    "game": self._game_body(game_id, version + 1, record, seat)}
            replay = None
            if replay_key is not None:
                replay = (replay_key, json.dumps({
                    "fingerprint": fingerprint, "version": version + 1, "body": body,
                    "sealed": tokens.seal(token, code, idempotency_key)}))
            version = self.store.save(game_id, version, record.to_json(), (), replay)
            return Snapshot({**body, "token": token}, version, seat)

        return self._retrying(attempt)

    def read(self, game_id: str, token: str | None = None) -> Snapshot:
        """The game as the token's seat sees it, or as a spectator without a token."""

        def attempt() -> Snapshot:
            stored, record, seat = self._open(game_id, token)
            version, record = self._catch_up(game_id, stored, record)
            return Snapshot(self._game_body(game_id, version, record, seat), version, seat)

        return self._retrying(attempt)

    def act(
        self,
        game_id: str,
        token: str | None,
        action: dict,
        idempotency_key: str | None = None,
        if_match: Container[int] | None = None,
    ) -> Snapshot:
        """Apply the seat's action, then let computer seats move; returns the seat's new view.

        A retry with the same Idempotency-Key returns the first response and applies nothing
        (the same key with another body is a 422). `if_match`, the versions an If-Match header
        names, must hold the current version, else 412.
        """
        if not token:
            raise GameError(401, "missing_token", "acting needs the seat's token")
        replay_key = None
        if idempotency_key is not None:
            replay_key = f"{tokens.digest(token)}:{idempotency_key}"
        fingerprint = _fingerprint(action)

        def attempt() -> Snapshot:
            stored, record, seat = self._open(game_id, token, replay_key)
            if stored.replay is not None:
                return _replayed(stored.replay, fingerprint, seat)
            version, record = self._catch_up(game_id, stored, record)
            if if_match is not None and version not in if_match:
                raise GameError(412, "version_mismatch",
                                f"the game is at version {version}, not the one in If-Match",
                                version=version)
            if action.get("seat", seat) != seat:
                raise GameError(403, "not_your_seat", f"this token holds seat {seat}", seat=seat)
            now = self.clock()
            phase_before = record.state.phase
            try:
                named = _resolved(action, record.state.hands[seat])
                state, events = engine.apply(
                    record.state, engine.action_from_dict({**named, "seat": seat}), now)
            except RuleError as refused:
                raise _refused(refused) from None
            state, moves = self._computers_play(record.seats, state, now)
            events += moves
            record = replace(record, state=state, events=record.events + len(events))
            body = self._game_body(game_id, version + 1, record, seat)
            replay = None
            if replay_key is not None:
                replay = (replay_key, json.dumps(
                    {"fingerprint": fingerprint, "version": version + 1, "body": body}))
            version = self.store.save(game_id, version, record.to_json(), _texts(events), replay)
            metrics.record_game_finished(phase_before, state.phase)
            return Snapshot(body, version, seat)

        return self._retrying(attempt)

    def events(self, game_id: str, token: str | None, after: int, wait: float = 0) -> Snapshot:
        """Events numbered after+1, ... as the seat may see them; waits up to `wait` seconds
        (at most 25) for the first one. A count deadline passing meanwhile is applied."""

        def current() -> tuple[GameRecord, int | None]:
            stored, record, seat = self._open(game_id, token)
            return self._catch_up(game_id, stored, record)[1], seat

        record, seat = self._retrying(current)
        if after > record.events:
            raise GameError(422, "after_out_of_range",
                            f"the game has {record.events} events, not {after}",
                            after=after, events=record.events)
        texts = self._store(self.store.events, game_id, after)
        deadline = record.state.deadline
        if not texts and wait > 0:
            timeout = min(wait, MAX_WAIT)
            if deadline is not None:
                timeout = min(timeout, max(deadline - self.clock(), 0) + DEADLINE_SLACK)
            texts = self._store(self.store.wait_events, game_id, after, timeout)
            if not texts and deadline is not None and self.clock() > deadline:
                self._retrying(current)
                texts = self._store(self.store.events, game_id, after)
        numbered = [
            {"number": after + offset, **engine.view_event(Event.from_dict(json.loads(text)), seat)}
            for offset, text in enumerate(texts, start=1)
        ]
        return Snapshot({"game_id": game_id, "seat": seat, "events": numbered,
                         "last_event": after + len(texts)}, seat=seat)

    # Steps shared by the operations -------------------------------------------------------------
    def _open(self, game_id: str, token: str | None, replay_key: str | None = None):
        """Load a game and find the seat `token` holds (None without a token); 403 if none."""
        stored = self._store(self.store.load, game_id, replay_key)
        record = GameRecord.from_json(stored.data)
        seat = None
        if token is not None:
            seat = tokens.match(token, [s.token_hash for s in record.seats])
            if seat is None:
                raise GameError(403, "invalid_token", "this token holds no seat of this game")
        return stored, record, seat

    def _catch_up(self, game_id: str, stored: StoredGame, record: GameRecord):
        """Apply what is due (an expired deadline, computer moves); save it if anything was."""
        now = self.clock()
        state, events = engine.expire(record.state, now)
        state, moves = self._computers_play(record.seats, state, now)
        if state is record.state:
            return stored.version, record
        events += moves
        phase_before = record.state.phase
        record = replace(record, state=state, events=record.events + len(events))
        version = self.store.save(game_id, stored.version, record.to_json(), _texts(events))
        metrics.record_game_finished(phase_before, state.phase)
        return version, record

    def _computers_play(self, seats: Sequence[Seat], state: GameState, now: float = 0.0):
        """Let computer seats move for as long as one of them has a move to make."""
        events: list[Event] = []
        for _ in range(COMPUTER_MOVES):
            mover = _computer_to_act(seats, state)
            if mover is None:
                return state, events
            seat, view = mover
            state, moved = self._computer_move(seats[seat], seat, view, state, now)
            events += moved
        raise RuntimeError(f"computer seats made {COMPUTER_MOVES} moves in one request")

    def _computer_move(self, seat: Seat, number: int, view: dict, state: GameState, now: float):
        rng = random.Random(hashlib.sha256(
            state.seed + b"computer" + state.version.to_bytes(8, "big") + bytes([number])).digest())
        choose = computer.LEVELS.get(seat.level, computer.first_legal)
        choice = choose(view, number, rng)
        try:
            if choice.get("type") in computer.HUMAN_DECISIONS:
                raise RuleError("invalid_action", "computers leave this to the humans")
            return engine.apply(state, engine.action_from_dict({**choice, "seat": number}), now)
        except RuleError as refused:
            # A level that picks an illegal move must not stall the game: play the first legal one.
            log.error("computer level %r chose %r: %s", seat.level, choice, refused)
            fallback = computer.first_legal(view, number, rng)
            return engine.apply(state, engine.action_from_dict({**fallback, "seat": number}), now)

    def _insert(self, record: GameRecord, events: list[Event]) -> str:
        while True:
            game_id = secrets.token_urlsafe(12)
            try:
                self._store(self.store.create, game_id, record.to_json(), _texts(events))
                return game_id
            except GameExists:
                continue

    def _game_body(self, game_id: str, version: int, record: GameRecord, seat: int | None) -> dict:
        return {
            "game_id": game_id,
            "version": version,
            "seat": seat,
            "seats": [s.public(number) for number, s in enumerate(record.seats)],
            "last_event": record.events,
            "view": engine.view(record.state, seat),
        }

    def _retrying(self, attempt: Callable):
        for _ in range(WRITE_ATTEMPTS):
            try:
                return attempt()
            except VersionConflict:
                continue
        raise GameError(503, "game_busy", "too many simultaneous changes to this game; retry")

    @staticmethod
    def _store(call: Callable, game_id: str, *args):
        try:
            return call(game_id, *args)
        except GameNotFound:
            raise not_found(game_id) from None


def _computer_to_act(seats: Sequence[Seat], state: GameState) -> tuple[int, dict] | None:
    for number in state.to_act():
        if seats[number].kind == "computer":
            view = engine.view(state, number)
            if computer.wants_to_act(view):
                return number, view
    return None


def _game_options(options: dict, players: int) -> GameOptions:
    if options.get("players", players) != players:
        raise GameError(422, "invalid_options", f"{players} seats, but players is "
                        f"{options['players']}", field="players", allowed=str(players))
    try:
        return GameOptions.from_dict({**options, "players": players})
    except RuleError as refused:
        raise _refused(refused) from None


def _seat(number: int, spec: dict) -> Seat:
    kind = spec.get("kind", "human")
    if kind == "computer":
        level = spec.get("level") or computer.DEFAULT_LEVEL
        if level not in computer.LEVELS:
            raise GameError(422, "unknown_level", f"no computer level {level!r}", level=level,
                            allowed=", ".join(sorted(computer.LEVELS)))
        return Seat("computer", spec.get("name") or f"Computer {number + 1}", level)
    return Seat("human", spec.get("name") or f"Player {number + 1}")


def _resolved(action: dict, held: Sequence[Card]) -> dict:
    """The action with bare ranks (`k`) replaced by the held card they name, where they do.

    A card in the canonical form responses use ("AS") always names that very card: only other
    notations are resolved, so "as" (Spanish for ace) may name the one ace held, "AS" never.
    """
    def resolve(text):
        if not isinstance(text, str) or text in CANONICAL:
            return text
        try:
            return str(resolve_card(text, held))
        except CardError:
            return text  # the engine reports it, in its own words

    if action.get("type") == "play":
        return {**action, "card": resolve(action.get("card"))}
    if action.get("type") == "discard" and isinstance(action.get("cards"), list):
        return {**action, "cards": [resolve(text) for text in action["cards"]]}
    return action


def _fingerprint(action: dict) -> str:
    canonical = json.dumps(action, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(canonical.encode()).hexdigest()


def _replayed(record: str, fingerprint: str, seat: int | None) -> Snapshot:
    replay = json.loads(record)
    if replay["fingerprint"] != fingerprint:
        raise GameError(422, "idempotency_key_reused",
                        "this Idempotency-Key was used with a different request")
    return Snapshot(replay["body"], replay["version"], seat, replayed=True)


def _refused(error: RuleError) -> GameError:
    """Malformed input is a 422; an action the rules refuse in this state, a 409."""
    status = 422 if isinstance(error, InvalidInputError) else 409
    return GameError(status, error.code, str(error), **error.params)


def _texts(events: Sequence[Event]) -> list[str]:
    return [json.dumps(event.to_dict(), separators=(",", ":")) for event in events]
