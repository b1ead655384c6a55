"""The game state: one frozen value holding everything the rules need, and the Draft that
builds the next one while an action is applied."""
from __future__ import annotations

from dataclasses import dataclass

from service.cards import Card
from service.engine.events import Event
from service.engine.options import GameOptions
from service.engine.shuffle import commitment, cut_seed, hand_seed


@dataclass(frozen=True)
class GameState:
    """Immutable: `apply` returns a new state. Per-seat tuples are indexed by seat, per-side
    tuples (`scores`, `match_points`) by side (see GameOptions.side_of)."""

    options: GameOptions
    seed: bytes                      # the game seed: secret, never shown in a view
    version: int = 0
    phase: str = "cut_for_deal"
    game_number: int = 1
    hand_number: int = 0             # counts hands over the whole match, 1 for the first deal
    dealer: int | None = None
    first_dealer: int | None = None  # dealer of this game's first hand
    scores: tuple[int, ...] = ()
    match_points: tuple[int, ...] = ()
    hands: tuple[tuple[Card, ...], ...] = ()   # cards each seat still holds
    kept: tuple[tuple[Card, ...], ...] = ()    # each seat's hand after discarding (for the show)
    discards: tuple[tuple[Card, ...], ...] = ()  # the cards each seat put in the crib this hand
    discarded: tuple[bool, ...] = ()
    crib: tuple[Card, ...] = ()
    deck: tuple[Card, ...] = ()                # undealt cards (not the starter)
    starter: Card | None = None
    count: int = 0
    pile: tuple[Card, ...] = ()                # cards played since the count was last reset
    table: tuple[tuple[int, Card], ...] = ()   # (seat, card) of every card played this hand
    turn: int | None = None                    # seat to play
    gone: tuple[bool, ...] = ()                # seats that said go since the last reset
    last_player: int | None = None
    show_step: int = 0                         # manual counting: index into show_order
    deadline: float | None = None              # the count time limit's, in the show
    turn_deadline: float | None = None         # turn timer: when those to act run out of time
    pending_muggins: tuple[dict, ...] = ()     # muggins "call": missed points open to a call
    winner: int | None = None
    results: tuple[dict, ...] = ()             # one entry per finished game of the match
    cut_round: int = 0
    cut_deck: tuple[Card, ...] = ()
    cut_cards: tuple[Card | None, ...] = ()
    cutters: tuple[int, ...] = ()              # seats cutting for deal in this round
    log: tuple[dict, ...] = ()                 # public events of the current hand
    revealed_seeds: tuple[tuple[int, str], ...] = ()
    ending: str | None = None                  # why the game ended: won, resigned, aborted...

    # Questions a player may ask at any time (seed 000) -----------------------------------------
    @property
    def pone(self) -> int | None:
        return None if self.dealer is None else (self.dealer + 1) % self.options.players

    @property
    def starter_cutter(self) -> int | None:
        """The player to the dealer's right (with two players, the pone)."""
        return None if self.dealer is None else (self.dealer - 1) % self.options.players

    @property
    def over(self: GameState | Draft) -> bool:
        """Nothing more will happen: the match is over, or the game ended and was no match."""
        return self.phase == "match_over" or (self.phase == "game_over"
                                              and not self.options.match)

    @property
    def game_seed_commitment(self) -> str:
        """sha256 of the game seed (hex): fixed at creation, so every hand's seed is too."""
        return commitment(self.seed)

    @property
    def seed_commitment(self) -> str | None:
        if self.phase == "cut_for_deal":
            return commitment(cut_seed(self.seed, self.cut_round))
        if self.hand_number == 0:
            return None
        return commitment(hand_seed(self.seed, self.hand_number))

    def show_order(self: GameState | Draft) -> tuple[tuple[int, bool], ...]:
        """(seat, is_crib) from the dealer's left clockwise, the dealer, then the crib."""
        n, dealer = self.options.players, self.dealer
        assert dealer is not None, "no show before the first deal"
        hands = tuple(((dealer + k) % n, False) for k in range(1, n + 1))
        return (*hands, (dealer, True))

    def claimer(self: GameState | Draft) -> tuple[int, bool] | None:
        """Manual counting: whose hand (or crib) is being counted now."""
        if self.phase != "show":
            return None
        return self.counting()

    def counting(self: GameState | Draft) -> tuple[int, bool]:
        """In the show: whose hand (or crib) is being counted now."""
        return self.show_order()[self.show_step]


def build_state(values: dict) -> GameState:
    """A GameState from its fields' values, trusted as they are (no checks, no copies)."""
    state = object.__new__(GameState)
    state.__dict__.update(values)
    return state


class Draft:
    """A mutable copy of a state used while one action is applied; `freeze` makes the new state.

    Rule functions take a Draft `g` and assign new values to its attributes (the tuples inside
    are never mutated, so the original state stays untouched).
    """

    def __init__(self, state: GameState, now: float):
        self.__dict__.update(state.__dict__)
        self.now = now
        self.events: list[Event] = []

    # GameState's fields, for the type checker (tests/engine/test_draft.py keeps them equal).
    options: GameOptions
    seed: bytes
    version: int
    phase: str
    game_number: int
    hand_number: int
    dealer: int | None
    first_dealer: int | None
    scores: tuple[int, ...]
    match_points: tuple[int, ...]
    hands: tuple[tuple[Card, ...], ...]
    kept: tuple[tuple[Card, ...], ...]
    discards: tuple[tuple[Card, ...], ...]
    discarded: tuple[bool, ...]
    crib: tuple[Card, ...]
    deck: tuple[Card, ...]
    starter: Card | None
    count: int
    pile: tuple[Card, ...]
    table: tuple[tuple[int, Card], ...]
    turn: int | None
    gone: tuple[bool, ...]
    last_player: int | None
    show_step: int
    deadline: float | None
    turn_deadline: float | None
    pending_muggins: tuple[dict, ...]
    winner: int | None
    results: tuple[dict, ...]
    cut_round: int
    cut_deck: tuple[Card, ...]
    cut_cards: tuple[Card | None, ...]
    cutters: tuple[int, ...]
    log: tuple[dict, ...]
    revealed_seeds: tuple[tuple[int, str], ...]
    ending: str | None
    # The read-only questions work the same on a draft.
    show_order = GameState.show_order
    claimer = GameState.claimer
    over = GameState.over
    counting = GameState.counting

    def emit(self, type_: str, public: dict, private: dict | None = None) -> None:
        self.events.append(Event(type_, public, private or {}))
        self.log = self.log + ({"type": type_, **public},)

    def set_at(self, name: str, index: int, value) -> None:
        """Replace item `index` of the tuple attribute `name`."""
        old = getattr(self, name)
        setattr(self, name, old[:index] + (value,) + old[index + 1:])

    def freeze(self) -> GameState:
        values = dict(self.__dict__)
        del values["now"], values["events"]
        return build_state(values)
