"""Pairing: which waiting seeks of one table kind sit down together. A pure function of the
seeks, their ratings and how long each has waited.

Rules: a table takes `seats` seeks of different players, each one's rating within every other
seek's range (a seek's `within` points either side of its own rating, widened by WIDEN_PER_MINUTE
for each minute it has waited; None: any rating). The longest waiting seek is seated first, with
the longest waiting seeks that fit it. A seek that allows computers and has waited its
`computers_after` seconds may sit down with fewer humans (at least itself), computers in the
empty seats; only seeks that allow computers and have waited theirs sit at such a table.

Candidates are found by rating (bisect over the seeks sorted by rating), so a round over a
thousand waiting seeks compares each with the few in its range, not with all.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass

WIDEN_PER_MINUTE = 50   # rating points a seek's range widens by for each minute it waits


@dataclass(frozen=True)
class Ticket:
    """A waiting seek as pairing sees it."""

    seek_id: str
    player_id: str
    rating: int
    within: int | None          # rating points either side; None: any rating
    waited: float               # seconds since the seek was made
    computers_after: float | None = None   # None: no computers at this seek's table

    def reach(self) -> float:
        """How far from its rating this seek accepts an opponent now."""
        if self.within is None:
            return float("inf")
        return self.within + WIDEN_PER_MINUTE * self.waited / 60

    @property
    def computers_ready(self) -> bool:
        return self.computers_after is not None and self.waited >= self.computers_after


@dataclass(frozen=True)
class Table:
    """Seeks seated together (the longest waiting first) and the computers that fill the rest."""

    seek_ids: tuple[str, ...]
    computers: int = 0


def accepts(a: Ticket, b: Ticket) -> bool:
    """Two seeks may share a table: different players, each rating within the other's reach."""
    gap = abs(a.rating - b.rating)
    return a.player_id != b.player_id and gap <= a.reach() and gap <= b.reach()


def pair(tickets: Sequence[Ticket], seats: int) -> list[Table]:
    """The tables to start now from `tickets` (the open seeks of one table kind); no seek in
    two tables, no player twice at one."""
    by_age = sorted(tickets, key=lambda ticket: (-ticket.waited, ticket.seek_id))
    by_rating = sorted(by_age, key=lambda ticket: ticket.rating)
    ratings = [ticket.rating for ticket in by_rating]
    age_rank = {ticket.seek_id: rank for rank, ticket in enumerate(by_age)}
    seated: set[str] = set()
    tables = []
    for anchor in by_age:
        if anchor.seek_id in seated:
            continue
        candidates = _in_reach(anchor, by_rating, ratings, age_rank, seated)
        group = _gather(anchor, candidates, seats)
        if len(group) < seats and anchor.computers_ready:
            group = _gather(anchor, [c for c in candidates if c.computers_ready], seats)
        elif len(group) < seats:
            continue
        seated.update(ticket.seek_id for ticket in group)
        tables.append(Table(tuple(ticket.seek_id for ticket in group), seats - len(group)))
    return tables


def _in_reach(anchor: Ticket, by_rating: list[Ticket], ratings: list[int],
              age_rank: dict[str, int], seated: set[str]) -> list[Ticket]:
    """The unseated seeks whose rating the anchor accepts, the longest waiting first."""
    reach = anchor.reach()
    if reach == float("inf"):
        low, high = 0, len(by_rating)
    else:
        low = bisect.bisect_left(ratings, anchor.rating - reach)
        high = bisect.bisect_right(ratings, anchor.rating + reach)
    found = [ticket for ticket in by_rating[low:high]
             if ticket.seek_id not in seated and ticket.seek_id != anchor.seek_id]
    return sorted(found, key=lambda ticket: age_rank[ticket.seek_id])


def _gather(anchor: Ticket, candidates: list[Ticket], seats: int) -> list[Ticket]:
    group = [anchor]
    for candidate in candidates:
        if len(group) == seats:
            break
        if all(accepts(candidate, member) for member in group):
            group.append(candidate)
    return group
