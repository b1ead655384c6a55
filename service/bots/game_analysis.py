"""Post-game analysis: every decision of a hand rebuilt from the game's events and judged by
`hard`'s own analysis.

A decision is a choice between two or more options: a discard (a seat that discards nothing has
none), or a card played when more than one card fits the count (a single card that fits, and a
go, are forced). Cutting for deal, cutting the starter and the counts are not analysed.

Each position is rebuilt from the events as the seat saw it then (its cards, the pile, the goes,
the scores) and put to the function `hard` calls in that position, so `best` is what `hard`
plays there:
- discard: service.bots.discard_choice (the weighted crib, near the end the best chance to
  win);
- play: service.bots.pegging on service.bots.players.play_position of the seat's view.
points_lost is the most expected points of any option less the chosen option's (discard: the
net of hand and crib; play: what the side pegs less what the others peg over the rest of the
play). win_chance_lost: the best chance to win of any option less the chosen option's where the
analysis computes chances (near the end of a game), else points_lost times what one point is
worth in chance to win at the decision's scores, the next deal dealt by this hand's pone (two
players: service.bots.win_probability, every other layout: service.bots.side_race; null beyond
the models' in-game reach, win_probability.within_reach).

Deterministic: both analyses seed their sampling from the position, so a hand's decisions can
be cached once the hand is over.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from service.bots.discard_choice import rank_discards
from service.bots.pegging import analyse_play
from service.bots.players import play_position
from service.bots.side_race import layout_name, race_position_value
from service.bots.win_probability import IN_GAME_REACH, win_table, within_reach
from service.cards import Card
from service.engine import Event, GameOptions, GameState, view


@dataclass(frozen=True, slots=True)
class Decision:
    hand_number: int
    game_number: int
    seat: int
    kind: str                        # "discard" | "play"
    dealer: int
    scores: tuple[int, ...]          # per side, before the decision
    held: tuple[Card, ...]           # the seat's cards when it decided
    pile: tuple[Card, ...]           # play: the cards on the count before it
    chosen: tuple[Card, ...]
    best: tuple[Card, ...]           # what `hard` chooses there
    points_lost: float
    win_chance_lost: float | None


@dataclass(frozen=True, slots=True)
class HandEvents:
    """The events of one hand: from its deal to the next deal (or the end of the log)."""

    hand_number: int
    seed_commitment: str
    events: Sequence[Event]
    game_number: int
    scores: tuple[int, ...]           # per side, when it was dealt
    finished: bool                    # its show is over (or the game ended in it)


def split_hands(options: GameOptions, events: Iterable[Event]) -> list[HandEvents]:
    """The game's log cut into hands, each with the game number and scores it began with."""
    scores = options.start_scores or (0,) * options.sides
    game_number = 1
    hands: list[HandEvents] = []
    current: list[Event] = []
    revealed: set[int] = set()
    for event in events:
        if event.type == "game_started" and event.public["game"] > 1:
            game_number, scores = event.public["game"], (0,) * options.sides
        elif event.type == "dealt":
            current = []
            hands.append(HandEvents(event.public["hand_number"], event.public["seed_commitment"],
                                    current, game_number, scores, False))
        elif event.type == "hand_revealed":
            revealed.add(event.public["hand_number"])
        current.append(event)
        if "scores" in event.public:
            scores = tuple(event.public["scores"])
    return [replace(hand, events=tuple(hand.events), finished=hand.hand_number in revealed)
            for hand in hands]


def analyse_hand(options: GameOptions, hand: HandEvents) -> tuple[Decision, ...]:
    """Every decision of every seat in `hand`, in the order they were made."""
    replay = _HandReplay(options, hand)
    for event in hand.events:
        replay.step(event)
    return tuple(replay.decisions)


class _HandReplay:
    """The hand's state as its events build it, enough for each seat's view of a decision."""

    def __init__(self, options: GameOptions, hand: HandEvents):
        n = options.players
        self.options = options
        self.state = GameState(options=options, seed=b"analysis", phase="discard",
                               game_number=hand.game_number, hand_number=hand.hand_number,
                               scores=hand.scores, hands=((),) * n, kept=((),) * n,
                               discards=((),) * n, discarded=(False,) * n, gone=(False,) * n)
        self.decisions: list[Decision] = []

    def step(self, event: Event) -> None:
        state, public = self.state, event.public
        if event.type == "dealt":
            held = tuple(tuple(Card.parse(text) for text in event.private[seat]["cards"])
                         for seat in range(self.options.players))
            state = replace(state, dealer=public["dealer"], hands=held, kept=held)
        elif event.type == "discarded":
            seat = public["seat"]
            thrown = tuple(Card.parse(text) for text in event.private[seat]["cards"])
            self.decisions.append(self._discard(seat, thrown))
            kept = tuple(card for card in state.hands[seat] if card not in thrown)
            state = _set(_set(_set(state, "hands", seat, kept), "kept", seat, kept),
                         "discards", seat, thrown)
        elif event.type == "starter_cut":
            state = replace(state, starter=Card.parse(public["starter"]), phase="play")
        elif event.type == "card_played":
            seat, card = public["seat"], Card.parse(public["card"])
            self.state = state = replace(state, turn=seat)
            playable = [held for held in state.hands[seat] if state.count + held.value <= 31]
            if len(playable) > 1:
                self.decisions.append(self._play(seat, card))
            state = _set(state, "hands", seat,
                         tuple(held for held in state.hands[seat] if held != card))
            state = replace(state, pile=state.pile + (card,), count=public["count"],
                            table=state.table + ((seat, card),))
        elif event.type == "go":
            state = _set(state, "gone", public["seat"], True)
        elif event.type == "count_reset":
            state = replace(state, pile=(), count=0, gone=(False,) * self.options.players)
        if "scores" in public:
            state = replace(state, scores=tuple(public["scores"]))
        self.state = replace(state, log=state.log + ({"type": event.type, **public},))

    def _discard(self, seat: int, thrown: tuple[Card, ...]) -> Decision:
        state = self.state
        held = state.hands[seat]
        ranked = rank_discards(held, self.options, seat, self._dealer(), state.scores)
        index = next(index for index, option in enumerate(ranked.options)
                     if set(option.discard) == set(thrown))
        points_lost = ranked.options[0].net - ranked.options[index].net
        if ranked.chances is None:
            win_lost = self._points_in_chance(seat, points_lost)
        else:
            win_lost = max(ranked.chances) - ranked.chances[index]
        return self._decision(seat, "discard", held, thrown, ranked.best.discard, points_lost,
                              win_lost)

    def _play(self, seat: int, card: Card) -> Decision:
        state = self.state
        analysis = analyse_play(play_position(view(state, seat)))
        options = {option.card: option for option in analysis.options}
        chosen = options[card]
        points_lost = max(option.expected for option in analysis.options) - chosen.expected
        if chosen.win_chance is not None:
            win_lost: float | None = max(o.win_chance or 0.0 for o in analysis.options) \
                - chosen.win_chance
        else:
            win_lost = self._points_in_chance(seat, points_lost)
        return self._decision(seat, "play", state.hands[seat], (card,),
                              (analysis.options[0].card,), points_lost, win_lost)

    def _dealer(self) -> int:
        """The hand's dealer, set by its first event (`dealt`), which comes before any
        decision."""
        if self.state.dealer is None:
            raise ValueError(f"hand {self.state.hand_number}: a decision before the deal")
        return self.state.dealer

    def _decision(self, seat: int, kind: str, held: tuple[Card, ...],
                  chosen: tuple[Card, ...], best: tuple[Card, ...], points_lost: float,
                  win_lost: float | None) -> Decision:
        state = self.state
        return Decision(state.hand_number, state.game_number, seat, kind, self._dealer(),
                        state.scores, held, state.pile if kind == "play" else (), chosen, best,
                        max(points_lost, 0.0), None if win_lost is None else max(win_lost, 0.0))

    def _points_in_chance(self, seat: int, points: float) -> float | None:
        """`points` in chance to win for the seat's side: what one point adds to it at the
        current scores, the next deal dealt by this hand's pone."""
        options, state = self.options, self.state
        if points == 0:
            return 0.0
        side = options.side_of(seat)
        needs = [options.target - score for score in state.scores]
        if min(needs) <= 0:
            return 0.0
        if not within_reach(options.players, state.scores, options.target):
            return None
        next_dealer = (self._dealer() + 1) % options.players
        ahead_scores = list(state.scores)
        ahead_scores[side] += 1
        now = _win_chance(options, state.scores, side, next_dealer)
        ahead = 1.0 if needs[side] == 1 else _win_chance(options, ahead_scores, side,
                                                          next_dealer)
        return float(points * (ahead - now))


def _win_chance(options: GameOptions, scores: Sequence[int], side: int, dealer: int) -> float:
    """The side's chance to win at the start of a deal dealt by seat `dealer`."""
    if options.players == 2:
        table = win_table(IN_GAME_REACH)
        own_need, other_need = (options.target - score for score in
                                (scores[side], scores[1 - side]))
        if dealer == side:
            return float(1 + table[own_need, other_need]) / 2
        return float(1 - table[other_need, own_need]) / 2
    value = race_position_value(layout_name(options.players, options.teams), tuple(scores),
                                dealer, options.target, options.skunk)
    return value.win[side]


def _set(state: GameState, name: str, index: int, value) -> GameState:
    old = getattr(state, name)
    return replace(state, **{name: old[:index] + (value,) + old[index + 1:]})
