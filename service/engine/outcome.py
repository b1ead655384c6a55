"""Scoring points to a side, winning a game, skunk lines, the next game of a match, and the
endings that stop a game (or match) for good: aborted, timed out, abandoned."""
from __future__ import annotations

from service.engine.rules import skunk_level
from service.engine.shuffle import commitment, hand_seed
from service.engine.state import Draft, GameState
from service.errors import IllegalActionError


def award(g: Draft, seat: int, points: int) -> int:
    """Peg `points` for the side of `seat`; returns the points actually scored.

    With exact_finish, an award that would pass the target is not scored at all. The caller emits
    its event, then calls game_won: reaching the target ends the game at once.
    """
    if points <= 0:
        return 0
    side = g.options.side_of(seat)
    target = g.options.target
    new_score = g.scores[side] + points
    if g.options.exact_finish and new_score > target:
        return 0
    g.set_at("scores", side, new_score)
    return points


def game_won(g: Draft) -> bool:
    """After an award (and its event): end the game if a side has reached the target."""
    if g.winner is None:
        for side, score in enumerate(g.scores):
            if score >= g.options.target:
                finish_game(g, side)
                break
    return g.winner is not None


def finish_game(g: Draft, winner: int, resigned: int | None = None) -> None:
    """End the game: game points are 1 + skunk level per losing side, summed over losing sides."""
    g.winner = winner
    skunks = [0 if side == winner else skunk_level(g.options.skunk, g.options.target, score)
              for side, score in enumerate(g.scores)]
    game_points = sum(1 + level for side, level in enumerate(skunks) if side != winner)
    g.set_at("match_points", winner, g.match_points[winner] + game_points)
    result = {"game": g.game_number, "winner": winner, "scores": list(g.scores),
              "skunks": skunks, "game_points": game_points, "first_dealer": g.first_dealer,
              "resigned": resigned}
    g.results = g.results + (result,)
    g.ending = "won" if resigned is None else "resigned"
    g.phase = "game_over"
    g.turn = None
    g.deadline = None
    g.turn_deadline = None
    g.pending_muggins = ()
    g.emit("game_won", {"winner": winner, "seats": list(g.options.seats_of(winner)),
                        "scores": list(g.scores), "skunks": skunks, "game_points": game_points,
                        "match_points": list(g.match_points), "resigned": resigned})
    reveal_hand(g)


def reveal_hand(g: Draft) -> None:
    if g.hand_number == 0 or any(n == g.hand_number for n, _ in g.revealed_seeds):
        return
    seed = hand_seed(g.seed, g.hand_number).hex()
    g.revealed_seeds = g.revealed_seeds + ((g.hand_number, seed),)
    g.emit("hand_revealed", {"hand_number": g.hand_number, "seed": seed})


def conclude(g: Draft, was_over: bool) -> None:
    """Once the game (or its match) is over for good: reveal the game seed every hand's and cut
    round's seed derives from (never before: it would tell the hands still to come), then say
    it is over, with why, in the one final `game_over` event."""
    if not g.over or was_over:
        return
    g.emit("game_seed_revealed", {"seed": g.seed.hex(), "commitment": commitment(g.seed)})
    reason = g.ending or "won"
    winner = final_winner(g, reason)
    last = g.results[-1] if g.results else None
    this_game = last is not None and last["game"] == g.game_number
    g.emit("game_over", {
        "reason": reason, "winner": winner,
        "seats": [] if winner is None else list(g.options.seats_of(winner)),
        "scores": list(g.scores),
        "game_points": last["game_points"] if this_game and last else 0,
        "match_points": list(g.match_points), "games": len(g.results)})


def final_winner(g: Draft, reason: str) -> int | None:
    """The side that won the game, or the match: in a match ended by a seat, the side with
    the most match points (None on a tie); no side wins an aborted or abandoned game."""
    if reason in ("aborted", "abandoned"):
        return None
    if not g.options.match or reason == "timed_out":
        return g.winner
    best = max(g.match_points)
    leaders = [side for side, points in enumerate(g.match_points) if points == best]
    return leaders[0] if len(leaders) == 1 else None


def can_abort(state: GameState | Draft) -> bool:
    """A game may be aborted until the first card of the play of its first hand is played."""
    return (state.game_number == 1 and state.hand_number <= 1 and not state.table
            and state.phase in ("cut_for_deal", "discard", "cut_starter", "play"))


def abort(g: Draft, seat: int) -> None:
    if not can_abort(g):
        raise IllegalActionError("a game can be aborted only before its first card is played",
                                 code="too_late_to_abort", phase=g.phase)
    g.emit("aborted", {"seat": seat})
    stop(g, "aborted")


def abandon(g: Draft) -> None:
    """No human has moved for too long: the game (and match) ends with no winner."""
    g.emit("abandoned", {})
    stop(g, "abandoned")


def forfeit(g: Draft, seat: int) -> None:
    """The seat ran out of time in a game: its side loses it, and a match ends with it. With
    more than two sides the leading other side wins (as for a resignation)."""
    finish_game(g, _best_other_side(g, seat, g.scores))
    g.ending = "timed_out"
    if g.options.match:
        g.phase = "match_over"


def stop(g: Draft, reason: str) -> None:
    """End the game and its match at once, with no winner."""
    g.phase = "match_over" if g.options.match else "game_over"
    g.ending = reason
    g.winner = None
    g.turn = None
    g.deadline = None
    g.turn_deadline = None
    g.pending_muggins = ()


def _best_other_side(g: Draft, seat: int, points: tuple[int, ...]) -> int:
    """The other side with the most `points`; ties go to the first such side clockwise from
    `seat`."""
    n = g.options.players
    loser = g.options.side_of(seat)
    others = [g.options.side_of((seat + k) % n) for k in range(1, n)]
    others = [side for side in others if side != loser]
    best = max(points[side] for side in others)
    return next(side for side in others if points[side] == best)


def resign(g: Draft, seat: int) -> None:
    """The resigning side loses; with more than two sides the leading other side wins (ties go
    to the first such side clockwise from the resigning seat)."""
    g.emit("resigned", {"seat": seat, "side": g.options.side_of(seat)})
    finish_game(g, _best_other_side(g, seat, g.scores), resigned=seat)


def next_first_dealer(g: Draft) -> int:
    """The loser deals first; with more than two sides, a seat of a lowest-scoring losing side,
    the first such seat clockwise after the previous game's first dealer."""
    n = g.options.players
    losers = [side for side in range(g.options.sides) if side != g.winner]
    lowest = min(g.scores[side] for side in losers)
    previous = n - 1 if g.first_dealer is None else g.first_dealer  # None: resigned before a deal
    for k in range(1, n + 1):
        seat = (previous + k) % n
        side = g.options.side_of(seat)
        if side != g.winner and g.scores[side] == lowest:
            return seat
    raise AssertionError("a game always has a losing side")
