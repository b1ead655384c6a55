"""Rematches: offer, accept or decline a rematch of a finished game, and start it once every
human seat has accepted (the offer's rules: service.games.rematch)."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import replace

from service import metrics
from service.engine import Event
from service.errors import IllegalActionError
from service.store import GameExists

from . import event_log, idempotency, rematch, timers, tokens
from .caps import LiveGamesCap
from .errors import TokenRequired
from .idempotency import ReplayRecord
from .players import player_owner
from .record import GameRecord
from .snapshots import GameSnapshot, RematchAccess
from .table import GameTable


class Rematches:
    def __init__(self, table: GameTable):
        self.table = table

    def offer_or_accept(self, game_id: str, token: str | None,
                        idempotency_key: str | None = None,
                        caps: Sequence[LiveGamesCap] = ()) -> RematchAccess:
        """Offer a rematch of a finished game, or accept the open offer; either way the seat
        gets its token for the new game. The acceptance of the last human seat starts it,
        counted against `caps` and the linked players' caps (rematch.py)."""
        if not token:
            raise TokenRequired("a rematch needs the seat's token")
        table = self.table
        replay_key = None
        if idempotency_key is not None:
            replay_key = idempotency.rematch_key(token, idempotency_key)
        fingerprint = idempotency.fingerprint({"rematch": True})
        new_token = tokens.new_secret()

        def attempt() -> RematchAccess:
            stored, record, seat = table.open_seat(game_id, token, replay_key)
            if stored.replay is not None and idempotency_key is not None:
                replayed = ReplayRecord.from_json(stored.replay).answering(fingerprint)
                version, record = table.catch_up(game_id, stored, record)
                return self._access(game_id, version, record, seat,
                                    replayed.unsealed_token(token, idempotency_key),
                                    replayed=True)
            version, record = table.catch_up(game_id, stored, record)
            if not record.ended:
                raise IllegalActionError("a rematch comes after the game is over",
                                         code="game_not_over", phase=record.state.phase)
            current, token_hash = record.rematch, tokens.digest(new_token)
            if current is not None and (current.open or current.started):
                if seat in current.accepted_seats:
                    raise IllegalActionError(f"seat {seat} has accepted this rematch already",
                                             code="rematch_already_accepted", seat=seat)
                record, events = rematch.accept(record, seat, token_hash)
            else:
                record, events = rematch.offer(record, seat, token_hash,
                                               secrets.token_urlsafe(12), table.clock())
            new = None
            if rematch.everyone_accepted(record):
                record, new, started, opening = rematch.start(
                    record, game_id, secrets.token_bytes(32), table.clock())
                new = self._insert(rematch.offer_of(record).game_id, new, opening, seat, caps)
                events += started
            record = replace(record, events=record.events + len(events))
            replay = None
            if replay_key is not None and idempotency_key is not None:
                sealed = tokens.seal(new_token, token, idempotency_key)
                replay = (replay_key, ReplayRecord(fingerprint, version + 1, seat,
                                                   sealed).to_json())
            version, record = table.save(game_id, version, record, events, replay)
            if new is not None:
                table.link_players(new, rematch.offer_of(record).game_id)
            return self._access(game_id, version, record, seat, new_token)

        return table.retrying(attempt)

    def decline(self, game_id: str, token: str | None) -> GameSnapshot:
        """Decline (or withdraw from) the open rematch offer: it will not start."""
        if not token:
            raise TokenRequired("declining a rematch needs the seat's token")
        table = self.table

        def attempt() -> GameSnapshot:
            stored, record, seat = table.open_seat(game_id, token)
            version, record = table.catch_up(game_id, stored, record)
            if record.rematch is None or not record.rematch.open:
                raise IllegalActionError("there is no open rematch offer",
                                         code="no_rematch_offer")
            record, events = rematch.decline(record, seat)
            record = replace(record, events=record.events + len(events))
            version, record = table.save(game_id, version, record, events)
            return table.snapshot(game_id, version, record, seat)

        return table.retrying(attempt)

    def _access(self, game_id: str, version: int, record: GameRecord, seat: int,
                token: str, replayed: bool = False) -> RematchAccess:
        offer = rematch.offer_of(record)
        started = self.table.read(offer.game_id, token) if offer.started else None
        return RematchAccess(self.table.snapshot(game_id, version, record, seat, replayed),
                             token, started)

    def _insert(self, new_id: str, record: GameRecord, opening: list[Event], seat: int,
                caps: Sequence[LiveGamesCap]) -> GameRecord:
        """Store the rematch's game under the id its offer chose. An earlier attempt of the
        same request may have stored it already (its save of the old game then lost a race):
        that game stands if it holds this seat's new token."""
        table = self.table
        now = table.clock()
        state, moves, computers_due = table.advance(record.seats, record.state, now)
        events = opening + moves
        most = table.players.max_live_games
        caps = [*caps, *(LiveGamesCap(player_owner(s.player_id), most)
                         for s in record.seats if s.player_id is not None and most)]
        record = timers.scheduled(replace(
            record, state=state, events=len(events), updated=now,
            owners=tuple(cap.owner for cap in caps), human_moved=now,
            abandon_check=now + timers.abandoned_after(record.state.options),
            acted_times=tuple(now if seat.taken else 0.0 for seat in record.seats),
            connected=tuple(seat.taken for seat in record.seats),  # all accepted just now
            computers_due=computers_due))
        outbox: list[str] = []
        if record.notifies:  # the players' webhooks followed them: tell them the first turn
            record, outbox = table.notify(new_id, 1, record, events)
        table.claim(caps, new_id)
        try:
            table.store_call(table.store.create, new_id, record.to_json(),
                             event_log.stored_texts(events, table.clock()), record.scheduled,
                             outbox, timers.keep_seconds(record.state.options), now)
        except GameExists:
            existing = GameRecord.from_json(table.load(new_id).data)
            if existing.seats[seat].token_hash != record.seats[seat].token_hash:
                raise IllegalActionError(f"seat {seat} has accepted this rematch already",
                                         code="rematch_already_accepted", seat=seat) from None
            return existing
        except BaseException:
            table.release(record.owners, new_id)
            raise
        metrics.record_game_created()
        return record
