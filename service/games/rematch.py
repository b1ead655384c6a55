"""Rematch offers: after a game ends, a linked game with the same seats and options.

Any seat of a finished game offers (POST .../rematch); every other taken human seat accepts
with the same operation, or declines (DELETE); a seat nobody took stays open in the new game,
for the same invite code. Each acceptance, the offer's included, gets that seat's
token for the new game in its own response: the offer keeps only the token's digest, and no
event carries a secret. When the last human seat has accepted, the new game starts
(`rematch_started`, with its id, chosen when the offer was made); it has the same seats
(computers too, player links too) and options, a new seed (so a new shuffle commitment), and
its first deal goes to the seat after the old game's first dealer, with no cut for deal. An
offer that is not started within OFFER_SECONDS lapses (`rematch_expired`) on the next request
to the game; a declined or lapsed offer may be followed by a new one.
"""

from __future__ import annotations

from dataclasses import replace

from service import engine
from service.engine import Event
from service.errors import IllegalActionError

from .record import GameRecord, RematchOffer, Seat

OFFER_SECONDS = 3600


def offer(record: GameRecord, seat: int, token_hash: str, game_id: str,
          now: float) -> tuple[GameRecord, list[Event]]:
    """A new offer by `seat`, which accepts it at once."""
    made = RematchOffer(game_id, seat, now + OFFER_SECONDS, ((seat, token_hash),))
    event = Event("rematch_offered", {"seat": seat, "game_id": game_id,
                                      "expires_at": made.expires_at})
    return replace(record, rematch=made), [event]


def offer_of(record: GameRecord) -> RematchOffer:
    """The offer made after the game: the one every step after `offer` works on."""
    if record.rematch is None:
        raise IllegalActionError("there is no rematch offer", code="no_rematch_offer")
    return record.rematch


def accept(record: GameRecord, seat: int, token_hash: str) -> tuple[GameRecord, list[Event]]:
    current = offer_of(record)
    accepted = replace(current, accepted=current.accepted + ((seat, token_hash),))
    return replace(record, rematch=accepted), [Event("rematch_accepted", {"seat": seat})]


def decline(record: GameRecord, seat: int) -> tuple[GameRecord, list[Event]]:
    declined = replace(offer_of(record), declined_by=seat)
    return replace(record, rematch=declined), [Event("rematch_declined", {"seat": seat})]


def lapse(record: GameRecord, now: float) -> tuple[GameRecord, list[Event]]:
    """The offer marked expired if it is open past its time; no change otherwise. At its very
    time it is still open, as a count or turn deadline is still in time at its instant."""
    current = record.rematch
    if current is None or not current.open or now <= current.expires_at:
        return record, []
    expired = Event("rematch_expired", {"offered_by": current.offered_by})
    return replace(record, rematch=replace(current, expired=True)), [expired]


def everyone_accepted(record: GameRecord) -> bool:
    """Every taken human seat has accepted (a seat never joined has no say: it stays open in
    the new game, for the same invite code)."""
    humans = {number for number, seat in enumerate(record.seats)
              if seat.kind == "human" and seat.taken}
    return humans <= set(offer_of(record).accepted_seats)


def start(record: GameRecord, old_game_id: str, seed: bytes,
          now: float) -> tuple[GameRecord, GameRecord, list[Event], list[Event]]:
    """The old game marked started, the new game's record and the events of each (the new
    game's opening ones, before computer seats move)."""
    current = offer_of(record)
    token_hashes = dict(current.accepted)
    seats = tuple(_new_seat(seat, token_hashes.get(number))
                  for number, seat in enumerate(record.seats))
    players = record.state.options.players
    previous = record.state.first_dealer
    first_dealer = 0 if previous is None else (previous + 1) % players
    options = replace(record.state.options, preset_deck=False)  # a new seed: shuffled afresh
    state, opening = engine.start_game(options, seed, first_dealer, now)
    # The players' webhooks follow them into the rematch; the seats' own stay with the old game.
    new = GameRecord(seats, state, rematch_of=old_game_id,
                     player_webhooks=record.player_webhooks)
    started = replace(record, rematch=replace(current, started=True))
    return started, new, [Event("rematch_started", {"game_id": current.game_id})], opening


def _new_seat(seat: Seat, token_hash: str | None) -> Seat:
    """The same seat in the new game: kind, name, level and player; a fresh token, or for a
    seat nobody took, the same invite."""
    invite_hash = None if seat.taken else seat.invite_hash
    return Seat(seat.kind, seat.name, seat.level, token_hash=token_hash,
                invite_hash=invite_hash, player_id=seat.player_id,
                player_hash=seat.player_hash)
