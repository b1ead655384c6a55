"""The entry points: start_game (or new_game), apply, expire, time_out and abandon; the phases'
hand-offs and the turn clock."""
from __future__ import annotations

from typing import cast

from service.engine import deal, outcome, play, show
from service.engine.actions import (Abort, Action, CallMuggins, ClaimCount, CutForDeal,
                                    CutStarter, Discard, EndMatch, NextGame, Play, Resign)
from service.engine.events import Event
from service.engine.legal import to_act, whose_turn
from service.engine.options import GameOptions
from service.engine.rules import Handoff
from service.engine.state import Draft, GameState
from service.errors import IllegalActionError, InvalidInputError

_PHASE_OF = {CutForDeal: "cut_for_deal", Discard: "discard", CutStarter: "cut_starter",
             Play: "play", NextGame: "game_over", EndMatch: "game_over"}


def new_game(options: GameOptions, seed: bytes) -> GameState:
    """A game waiting for every seat to cut for the first deal."""
    return start_game(options, seed)[0]


def start_game(options: GameOptions, seed: bytes, first_dealer: int | None = None,
               now: float = 0.0) -> tuple[GameState, list[Event]]:
    """`new_game` with the events of its opening (the first cut round and its commitment).

    With `first_dealer` (a rematch: the deal rotates from the previous game; else the option
    of that name) there is no cut for deal: the game starts (`game_started`) with the first hand
    dealt by that seat. `options.start_scores` are the sides' scores before the first deal.
    """
    if not isinstance(options, GameOptions):
        raise InvalidInputError("options must be GameOptions", code="invalid_options")
    if not isinstance(seed, bytes) or not seed:
        raise InvalidInputError("seed must be non-empty bytes", code="invalid_options",
                                field="seed")
    n = options.players
    if first_dealer is None:
        first_dealer = options.first_dealer
    state = GameState(options=options, seed=seed,
                      scores=options.start_scores or (0,) * options.sides,
                      match_points=(0,) * options.sides, hands=((),) * n, kept=((),) * n,
                      discards=((),) * n, discarded=(False,) * n, gone=(False,) * n)
    g = Draft(state, now)
    if first_dealer is None:
        deal.start_cut_round(g, range(n))
    elif isinstance(first_dealer, int) and 0 <= first_dealer < n:
        g.first_dealer = first_dealer
        g.emit("game_started", {"game": 1, "dealer": first_dealer})
        deal.deal(g, first_dealer)
    else:
        raise InvalidInputError(f"no seat {first_dealer!r}", code="unknown_seat",
                                field="first_dealer", seat=first_dealer, players=n)
    _restart_turn_clock(g, None)
    return g.freeze(), g.events


def expire(state: GameState, now: float) -> tuple[GameState, list[Event]]:
    """Apply count-time-limit timeouts due by `now`; the state is returned as is if none are.

    Each call that applies a timeout adds one to the version.
    """
    if state.deadline is None or now <= state.deadline:
        return state, []
    g = Draft(state, now)
    _hand_over(g, show.expire(g))
    return _finished(g, state)


def apply(state: GameState, action: Action, now: float) -> tuple[GameState, list[Event]]:
    """Apply expired deadlines, then `action`; return the new state and the events.

    Raises DomainError (InvalidInputError or IllegalActionError) when the action is refused;
    `state` itself is never changed.
    """
    state, expired = expire(state, now)
    g = Draft(state, now)
    _check_seat_and_phase(state, action)
    _hand_over(g, _dispatch(g, action))
    state, events = _finished(g, state)
    return state, expired + events


def time_out(state: GameState, seat: int, now: float,
             move: Action | None = None) -> tuple[GameState, list[Event]]:
    """The turn timer ran out for `seat`: a `turn_timeout` event, then `move` (the computer's,
    for on_timeout computer) or, without one, the seat's side forfeits. Between the games of a
    match there is nothing to forfeit: the seat only failed to say whether to go on, and the
    match ends as it stands, as `end_match` ends it (losing it would punish a lead)."""
    if state.turn_deadline is None or now <= state.turn_deadline:
        raise IllegalActionError("the turn timer has not run out", code="not_timed_out")
    if seat not in whose_turn(state):
        raise IllegalActionError("it is not this seat's turn", code="not_your_turn", seat=seat,
                                 to_act=to_act(state))
    g = Draft(state, now)
    policy = "forfeit" if move is None else "computer"
    g.emit("turn_timeout", {"seat": seat, "on_timeout": policy,
                            "level": None if move is None else state.options.timeout_level})
    if move is None and state.phase == "game_over":
        move = EndMatch(seat)
    if move is None:
        outcome.forfeit(g, seat)
        return _finished(g, state)
    timed_out = g.events
    state, events = apply(g.freeze(), move, now)
    return state, timed_out + events


def abandon(state: GameState, now: float) -> tuple[GameState, list[Event]]:
    """End a game nobody plays any more (the games service decides when): no winner."""
    g = Draft(state, now)
    if not state.over:
        outcome.abandon(g)
    return _finished(g, state)


def _finished(g: Draft, before: GameState) -> tuple[GameState, list[Event]]:
    """What every step ends with: the final events if the game is now over, the turn clock,
    the next version."""
    outcome.conclude(g, before.over)
    _restart_turn_clock(g, before)
    g.version += 1
    return g.freeze(), g.events


def _restart_turn_clock(g: Draft, before: GameState | None) -> None:
    """With a turn time limit, the seats whose turn it is have until `turn_deadline`. It starts
    again for every new decision, and runs on while the seats of a decision taken together (a
    discard, a cut for deal) act one by one."""
    limit = g.options.turn_time_limit
    if limit is None:
        return
    after = g.freeze()
    waiting = whose_turn(after)
    if after.over or not waiting:
        g.turn_deadline = None
    elif (before is None or before.turn_deadline is None or _decision(after) != _decision(before)
          or not set(waiting) <= set(whose_turn(before))):
        g.turn_deadline = g.now + limit


def _check_seat_and_phase(state: GameState, action: Action) -> None:
    seat = getattr(action, "seat", None)
    if not isinstance(seat, int) or isinstance(seat, bool) \
            or not 0 <= seat < state.options.players:
        raise InvalidInputError(f"no seat {seat!r}", code="unknown_seat", field="seat",
                                seat=seat, players=state.options.players)
    phase = state.phase
    kind = type(action)
    if phase == "match_over" or (phase == "game_over" and
                                 (not state.options.match or kind not in (NextGame, EndMatch))):
        raise IllegalActionError("the game is over", code="game_over", phase=phase)
    if kind is ClaimCount:
        if phase != "show":
            raise IllegalActionError("no hand is being counted", code="not_a_claim_phase",
                                     phase=phase)
    elif kind is CallMuggins or kind is Resign or kind is Abort:
        return
    elif _PHASE_OF.get(kind) != phase:
        raise IllegalActionError(f"cannot {action.type} during {phase}", code="wrong_phase",
                                 phase=phase, action=action.type)
    # Every action but muggins (and resign) needs the seat's turn: a seat in to_act only to
    # call muggins may not also cut, discard, play or claim.
    if seat not in whose_turn(state):
        raise IllegalActionError("it is not your turn", code="not_your_turn", seat=seat,
                                 to_act=to_act(state))


def _dispatch(g: Draft, action: Action) -> Handoff | None:
    if type(action) is Play:
        return play.play(g, action.seat, action.card)
    if type(action) is Discard:
        deal.discard(g, action.seat, tuple(action.cards))
    elif type(action) is CutStarter:
        deal.cut_starter(g, action.seat, action.depth)
    elif type(action) is CutForDeal:
        deal.cut_for_deal(g, action.seat, action.depth)
    elif type(action) is ClaimCount:
        return show.claim(g, action.seat, action.points, action.items)
    elif type(action) is CallMuggins:
        show.call_muggins(g, action.seat)
    elif type(action) is Resign:
        outcome.resign(g, action.seat)
    elif type(action) is Abort:
        outcome.abort(g, action.seat)
    elif type(action) is NextGame:
        _next_game(g)
    elif type(action) is EndMatch:
        g.phase = "match_over"
        g.emit("match_over", {"match_points": list(g.match_points), "games": len(g.results),
                              "seat": action.seat})
    else:
        raise InvalidInputError(f"not an action: {action!r}", code="invalid_action")
    return None


def _hand_over(g: Draft, handoff: Handoff | None) -> None:
    """Begin what a step left to begin: the show once the play is over (with automatic
    counting it ends at once), then the next hand."""
    if handoff is Handoff.SHOW:
        handoff = show.start_show(g)
    if handoff is Handoff.NEXT_HAND:
        deal.deal(g, (cast(int, g.dealer) + 1) % g.options.players)


def _next_game(g: Draft) -> None:
    dealer = outcome.next_first_dealer(g)
    g.game_number += 1
    g.winner = None
    g.ending = None
    g.scores = (0,) * g.options.sides
    g.first_dealer = dealer
    g.emit("game_started", {"game": g.game_number, "dealer": dealer})
    deal.deal(g, dealer)


def _decision(state: GameState) -> tuple:
    """What identifies the decision the seats to act face."""
    return (state.phase, state.game_number, state.hand_number, state.turn, state.show_step,
            state.cut_round, len(state.table))
