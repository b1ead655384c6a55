"""Scoring points to a side, winning a game, skunk lines, and the next game of a match."""
from __future__ import annotations

from service.engine.rules import skunk_level
from service.engine.shuffle import commitment, hand_seed
from service.engine.state import Draft


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
    g.phase = "game_over"
    g.turn = None
    g.deadline = None
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


def reveal_game_seed(g: Draft, was_over: bool) -> None:
    """Once the game (or its match) is over for good, reveal the game seed every hand's and cut
    round's seed derives from; never before, since it would tell the hands still to come."""
    if g.over and not was_over:
        g.emit("game_seed_revealed", {"seed": g.seed.hex(),
                                      "commitment": commitment(g.seed)})


def resign(g: Draft, seat: int) -> None:
    """The resigning side loses; with more than two sides the leading other side wins (ties go
    to the first such side clockwise from the resigning seat)."""
    n = g.options.players
    loser = g.options.side_of(seat)
    others = [g.options.side_of((seat + k) % n) for k in range(1, n)]
    others = [side for side in others if side != loser]
    best = max(g.scores[side] for side in others)
    winner = next(side for side in others if g.scores[side] == best)
    g.emit("resigned", {"seat": seat, "side": loser})
    finish_game(g, winner, resigned=seat)


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
