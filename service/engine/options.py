"""Game options: player count, teams, target, counting, muggins, time limits, skunk lines, match,
turn timers; the coach's: hints, a preset position (start scores, first dealer), whether the
deck was preset (duplicate deals)."""
from __future__ import annotations

from dataclasses import asdict, dataclass, fields

from service.engine.rules import TEAM_LAYOUTS
from service.errors import InvalidInputError

MOST_TURN_SECONDS = 14 * 86400  # correspondence play: up to two weeks a decision


@dataclass(frozen=True)
class GameOptions:
    players: int = 2
    teams: str | None = None
    target: int = 121
    counting: str = "auto"
    muggins: str = "off"
    count_time_limit: int | None = None
    skunk: str = "standard"
    exact_finish: bool = False
    match: bool = False
    turn_time_limit: int | None = None  # seconds for each decision of a seat; None: no timer
    on_timeout: str = "computer"        # computer: a computer moves for the seat; forfeit
    timeout_level: str = "hard"         # the computer level that moves for a timed-out seat
    # The coach (issue 17): hints in the views, a preset starting position.
    hints: bool = False
    start_scores: tuple[int, ...] | None = None   # per side; the first game only
    first_dealer: int | None = None               # the first game's dealer: no cut for deal
    preset_deck: bool = False   # the game seed came from the creator's deck_seed: shown to all

    def __post_init__(self):
        _check(_is_int(self.players) and 2 <= self.players <= 6, "players", "2..6")
        _check(self.teams is None or TEAM_LAYOUTS.get(self.teams) == self.players, "teams",
               "null, 2x2 with 4 players, 3x2 or 2x3 with 6 players")
        _check(_is_int(self.target) and 31 <= self.target <= 1000, "target", "31..1000")
        _check(self.counting in ("auto", "manual"), "counting", "auto | manual")
        _check(self.muggins in ("off", "auto", "call"), "muggins", "off | auto | call")
        _check(self.muggins == "off" or self.counting == "manual", "muggins",
               "off unless counting is manual")
        limit = self.count_time_limit
        _check(limit is None or (_is_int(limit) and 15 <= limit <= 120), "count_time_limit",
               "null or 15..120")
        _check(limit is None or self.counting == "manual", "count_time_limit",
               "null unless counting is manual")
        _check(self.skunk in ("standard", "acc"), "skunk", "standard | acc")
        _check(isinstance(self.exact_finish, bool), "exact_finish", "true | false")
        _check(isinstance(self.match, bool), "match", "true | false")
        turn_limit = self.turn_time_limit
        _check(turn_limit is None or (_is_int(turn_limit)
                                      and 10 <= turn_limit <= MOST_TURN_SECONDS),
               "turn_time_limit", f"null or 10..{MOST_TURN_SECONDS}")
        _check(self.on_timeout in ("computer", "forfeit"), "on_timeout", "computer | forfeit")
        _check(isinstance(self.timeout_level, str) and bool(self.timeout_level),
               "timeout_level", "a computer level")
        _check(isinstance(self.hints, bool), "hints", "true | false")
        _check(isinstance(self.preset_deck, bool), "preset_deck", "true | false")
        _check_start_scores(self)
        _check(self.first_dealer is None or (_is_int(self.first_dealer)
                                             and 0 <= self.first_dealer < self.players),
               "first_dealer", "null or a seat")

    @property
    def sides(self) -> int:
        """How many sides score: players, or teams."""
        return {None: self.players, "2x2": 2, "3x2": 3, "2x3": 2}[self.teams]

    def side_of(self, seat: int) -> int:
        return seat % self.sides

    def seats_of(self, side: int) -> tuple[int, ...]:
        return tuple(range(side, self.players, self.sides))

    def to_dict(self) -> dict:
        data = asdict(self)
        if self.start_scores is not None:
            data["start_scores"] = list(self.start_scores)
        return data

    @classmethod
    def from_dict(cls, data: dict) -> GameOptions:
        """Options from JSON; missing keys take their defaults, unknown keys are refused."""
        if not isinstance(data, dict):
            raise InvalidInputError("options must be an object", code="invalid_options", field=None)
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise InvalidInputError(f"unknown option {unknown[0]!r}", code="invalid_options",
                                    field=unknown[0], allowed="one of " + ", ".join(sorted(known)))
        return cls(**data)


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_start_scores(options: GameOptions) -> None:
    scores = options.start_scores
    if scores is None:
        return
    allowed = f"null or {options.sides} scores (one per side), each 0..target-1"
    _check(isinstance(scores, (list, tuple)) and len(scores) == options.sides
           and all(_is_int(score) and 0 <= score < options.target for score in scores),
           "start_scores", allowed)
    object.__setattr__(options, "start_scores", tuple(scores))


def _check(ok: bool, field: str, allowed: str) -> None:
    if not ok:
        raise InvalidInputError(f"option {field}: expected {allowed}", code="invalid_options",
                                field=field, allowed=allowed)
