"""The show: hands counted in order, pone first and the crib last; manual claims and muggins."""
from __future__ import annotations

from typing import cast

from service.cards import Card
from service.engine.events import items_data
from service.engine.outcome import award, game_won, reveal_hand
from service.engine.rules import MOST_A_SHOW_IS_WORTH, Handoff
from service.engine.state import Draft
from service.errors import IllegalActionError, InvalidInputError
from service.scoring import SHOW_KINDS, check_claim, nominal_points, score_show, show_points


def start_show(g: Draft) -> Handoff | None:
    """Begin counting; with automatic counting the whole show is scored at once."""
    g.phase = "show"
    g.turn = None
    g.show_step = 0
    if g.options.counting == "auto":
        return _auto_show(g)
    if g.options.count_time_limit is not None:
        g.deadline = g.now + g.options.count_time_limit
    return None


def _shown_cards(g: Draft, seat: int, is_crib: bool):
    return g.crib if is_crib else g.kept[seat]


def _auto_show(g: Draft) -> Handoff | None:
    for seat, is_crib in g.show_order():
        cards = _shown_cards(g, seat, is_crib)
        score = score_show(cards, cast(Card, g.starter), crib=is_crib)
        points = award(g, seat, score.total)
        g.emit("show_scored", {"seat": seat, "hand": "crib" if is_crib else "hand",
                               "cards": [str(card) for card in cards],
                               "starter": str(g.starter), "points": points,
                               "items": items_data(score.items), "scores": list(g.scores)})
        if game_won(g):
            return None
    return _end_show(g)


def _end_show(g: Draft) -> Handoff:
    reveal_hand(g)
    return Handoff.NEXT_HAND


def next_opponent(g: Draft, seat: int) -> int:
    """The first seat clockwise from `seat` on another side."""
    n = g.options.players
    side = g.options.side_of(seat)
    return next((seat + k) % n for k in range(1, n) if g.options.side_of((seat + k) % n) != side)


def claim(g: Draft, seat: int, points: int | None, items) -> Handoff | None:
    """A manual count of the hand being shown (see README: claims, corrections, muggins)."""
    _, is_crib = g.counting()
    cards = _shown_cards(g, seat, is_crib)
    points = _claimed_points(points, items, set(cards) | {g.starter})
    check = check_claim(cards, cast(Card, g.starter), is_crib,
                        points if items is None else [(item.kind, item.cards) for item in items])
    public = {"seat": seat, "hand": "crib" if is_crib else "hand",
              "cards": [str(card) for card in cards], "starter": str(g.starter),
              "claimed": points, "true_count": check.actual, "items": items_data(check.breakdown)}
    if items is not None:
        public["missed"] = items_data(check.missed_items)
        public["wrong"] = items_data(check.wrong_items)
    scored = award(g, seat, min(points, check.actual))
    g.emit("claim", {**public, "points": scored, "scores": list(g.scores)})
    if game_won(g):
        return None
    missed, excess = check.actual - points, points - check.actual
    if excess > 0 and g.options.muggins != "off" and _muggins_award(g, seat, excess, "overclaim"):
        return None
    if missed > 0 and g.options.muggins == "auto" and _muggins_award(g, seat, missed, "missed"):
        return None
    if missed > 0 and g.options.muggins == "call":
        g.pending_muggins = g.pending_muggins + (
            {"seat": seat, "side": g.options.side_of(seat), "points": missed,
             "hand_number": g.hand_number, "version": g.version + 1},)
    return _next_claim(g, g.now)


def _claimed_points(points: int | None, items, shown: set) -> int:
    """The points a claim is for; items must name show kinds and shown cards, and agree with
    the points when both are given."""
    if items is not None:
        for item in items:
            if item.kind not in SHOW_KINDS or not item.cards or not set(item.cards) <= shown \
                    or len(set(item.cards)) != len(item.cards):
                raise IllegalActionError("an item names a kind or card not shown",
                                         code="invalid_claim", field="items", kind=item.kind)
        item_total = sum(nominal_points(item.kind, item.cards) for item in items)
        if points is None:
            points = item_total
        elif points != item_total:
            raise IllegalActionError("points and items disagree", code="invalid_claim",
                                     field="points", points=points, items=item_total)
    if points is None:
        raise InvalidInputError("a claim needs points or items", code="invalid_action",
                                field="points")
    most = MOST_A_SHOW_IS_WORTH[len(shown)]
    if not 0 <= points <= most:
        raise IllegalActionError(f"claim 0..{most} points", code="invalid_claim",
                                 field="points", max=most)
    return points


def _muggins_award(g: Draft, claimer: int, points: int, reason: str) -> bool:
    opponent = next_opponent(g, claimer)
    scored = award(g, opponent, points)
    g.emit("muggins", {"seat": opponent, "from_seat": claimer, "points": scored,
                       "reason": reason, "scores": list(g.scores)})
    return game_won(g)


def _next_claim(g: Draft, started: float) -> Handoff | None:
    g.show_step += 1
    if g.show_step == len(g.show_order()):
        g.deadline = None
        return _end_show(g)
    if g.options.count_time_limit is not None:
        g.deadline = started + g.options.count_time_limit
    return None


def call_muggins(g: Draft, seat: int) -> None:
    """Muggins "call": take every pending missed count of the other sides (one award each)."""
    side = g.options.side_of(seat)
    mine = [p for p in g.pending_muggins if p["side"] != side]
    if not mine:
        raise IllegalActionError("no missed points to call", code="nothing_to_call", seat=seat)
    g.pending_muggins = tuple(p for p in g.pending_muggins if p["side"] == side)
    for pending in mine:
        scored = award(g, seat, pending["points"])
        g.emit("muggins", {"seat": seat, "from_seat": pending["seat"], "points": scored,
                           "reason": "called", "scores": list(g.scores)})
        if game_won(g):
            return


def expire(g: Draft) -> Handoff | None:
    """Count time limit: while the current claim is past its deadline, the claimer keeps the true
    count less half of it (rounded down), which goes to the next opponent clockwise."""
    while g.phase == "show" and g.deadline is not None and g.now > g.deadline:
        seat, is_crib = g.counting()
        cards = _shown_cards(g, seat, is_crib)
        true = show_points(cards, cast(Card, g.starter), crib=is_crib)
        penalty = true // 2
        opponent = next_opponent(g, seat)
        kept = award(g, seat, true - penalty)
        g.emit("count_timeout", {"seat": seat, "hand": "crib" if is_crib else "hand",
                                 "cards": [str(card) for card in cards],
                                 "starter": str(g.starter), "true_count": true, "points": kept,
                                 "deadline": g.deadline, "scores": list(g.scores)})
        if game_won(g):
            return None
        if penalty:
            given = award(g, opponent, penalty)
            g.emit("muggins", {"seat": opponent, "from_seat": seat, "points": given,
                               "reason": "timeout", "scores": list(g.scores)})
            if game_won(g):
                return None
        handoff = _next_claim(g, g.deadline)
        if handoff is not None:
            return handoff
    return None
